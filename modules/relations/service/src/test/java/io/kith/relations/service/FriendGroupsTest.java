package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A user's named groups of friends. */
class FriendGroupsTest extends RelationsTestBase {

  @Test
  @DisplayName("groups are created, listed, renamed and deleted by their owner")
  void lifecycle() throws Exception {
    long me = newUser();
    JsonObject family = await(relations.createGroup(me, "  Family "));
    assertEquals("Family", family.getString("name"), "the name is trimmed");
    assertEquals(0, family.getLong("size"));
    assertTrue(family.getLong("created") > 0);
    long familyId = family.getLong("id");
    long workId = await(relations.createGroup(me, "Colleagues")).getLong("id");

    JsonArray items = await(relations.groups(me)).getJsonArray("items");
    assertEquals(2, items.size());
    assertEquals(Set.of("Family", "Colleagues"), names(items));

    JsonObject renamed = await(relations.renameGroup(me, workId, "Work"));
    assertEquals("Work", renamed.getString("name"));
    assertEquals(workId, renamed.getLong("id"));
    assertEquals(Set.of("Family", "Work"), names(await(relations.groups(me)).getJsonArray("items")));
    // renaming to another case of its own name is allowed
    assertEquals("WORK", await(relations.renameGroup(me, workId, "WORK")).getString("name"));

    await(relations.deleteGroup(me, familyId));
    assertEquals(Set.of("WORK"), names(await(relations.groups(me)).getJsonArray("items")));
    failsWith("circle_not_found", relations.deleteGroup(me, familyId));
    failsWith("circle_not_found", relations.groupMembers(me, familyId, PageRequest.first(10)).map(Page::toJson));
    // the name is free again
    await(relations.createGroup(me, "family"));
  }

  @Test
  @DisplayName("a second group with the same name in any case is refused as circle_name_taken, on create and rename")
  void duplicateName() throws Exception {
    long me = newUser();
    long other = newUser();
    await(relations.createGroup(me, "Family"));
    long friendsId = await(relations.createGroup(me, "Friends")).getLong("id");
    failsWith("circle_name_taken", relations.createGroup(me, "family"));
    failsWith("circle_name_taken", relations.createGroup(me, " FAMILY"));
    failsWith("circle_name_taken", relations.renameGroup(me, friendsId, "fAmIlY"));
    assertEquals(2, await(relations.groups(me)).getJsonArray("items").size());
    assertEquals("Friends", find(await(relations.groups(me)).getJsonArray("items"), friendsId).getString("name"));
    // names are per owner
    await(relations.createGroup(other, "Family"));
  }

  @Test
  @DisplayName("another user's group is never readable or writable: every call answers circle_not_found")
  void othersGroups() throws Exception {
    List<Long> users = newUsers(3);
    long owner = users.get(0);
    long intruder = users.get(1);
    long friend = users.get(2);
    befriend(owner, friend);
    befriend(intruder, friend);
    long group = await(relations.createGroup(owner, "Secret")).getLong("id");
    await(relations.addGroupMembers(owner, group, List.of(friend)));

    failsWith("circle_not_found", relations.groupMembers(intruder, group, PageRequest.first(10)).map(Page::toJson));
    failsWith("circle_not_found", relations.renameGroup(intruder, group, "Mine"));
    failsWith("circle_not_found", relations.addGroupMembers(intruder, group, List.of(friend)));
    failsWith("circle_not_found", relations.removeGroupMembers(intruder, group, List.of(friend)));
    failsWith("circle_not_found", relations.deleteGroup(intruder, group));
    assertTrue(await(relations.groups(intruder)).getJsonArray("items").isEmpty());
    // the same answer as for a group that does not exist at all
    failsWith("circle_not_found", relations.groupMembers(intruder, 123_456_789L, PageRequest.first(10))
        .map(Page::toJson));

    JsonObject mine = find(await(relations.groups(owner)).getJsonArray("items"), group);
    assertEquals("Secret", mine.getString("name"));
    assertEquals(1, mine.getLong("size"));
    assertEquals(List.of(friend), userIds(await(relations.groupMembers(owner, group, PageRequest.first(10))
        .map(Page::toJson))));
    // the intruder's view of the member carries no trace of the owner's group
    assertTrue(await(relations.relationships(intruder, List.of(friend))).getJsonObject(Long.toString(friend))
        .getJsonArray("groups").isEmpty());
  }

  @Test
  @DisplayName("only friends can be added: the call fails as a whole and names the non-friends")
  void onlyFriends() throws Exception {
    List<Long> users = newUsers(5);
    long me = users.get(0);
    long friend = users.get(1);
    long followedOnly = users.get(2);
    long followerOnly = users.get(3);
    long stranger = users.get(4);
    befriend(me, friend);
    await(relations.follow(me, followedOnly));
    await(relations.follow(followerOnly, me));
    long group = await(relations.createGroup(me, "Close")).getLong("id");

    Throwable e = failsWith("not_friends",
        relations.addGroupMembers(me, group, List.of(friend, followedOnly, followerOnly, stranger, me)));
    JsonObject extra = ((ServiceException) e).getDebugInfo().getJsonObject(Failures.EXTRA);
    assertNotNull(extra, "debug info: " + ((ServiceException) e).getDebugInfo());
    assertEquals(Set.of(followedOnly, followerOnly, stranger, me), longs(extra.getJsonArray("not_friends")));
    assertEquals(0, find(await(relations.groups(me)).getJsonArray("items"), group).getLong("size"),
        "nothing was added");
    assertTrue(await(relations.groupMembers(me, group, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());

    JsonObject after = await(relations.addGroupMembers(me, group, List.of(friend, friend)));
    assertEquals(1, after.getLong("size"));
    assertEquals(1, await(relations.addGroupMembers(me, group, List.of(friend))).getLong("size"), "idempotent");
    failsWith("validation_failed", relations.addGroupMembers(me, group, List.of()));
  }

  @Test
  @DisplayName("members are removed, paged newest first, and limited to 500 ids per call")
  void membersAndPaging() throws Exception {
    List<Long> users = newUsers(6);
    long me = users.get(0);
    List<Long> friends = users.subList(1, 6);
    for (long f : friends) {
      befriend(me, f);
    }
    long group = await(relations.createGroup(me, "All")).getLong("id");
    for (long f : friends) {
      await(relations.addGroupMembers(me, group, List.of(f)));
    }

    List<Long> newestFirst = new ArrayList<>(friends);
    java.util.Collections.reverse(newestFirst);
    assertEquals(newestFirst, allPages((limit, cursor) -> relations.groupMembers(me, group, PageRequest.after(cursor,
        limit)).map(Page::toJson), 2));
    JsonObject first = await(relations.groupMembers(me, group, PageRequest.first(2)).map(Page::toJson));
    assertEquals(2, first.getJsonArray("items").size());
    assertNotNull(first.getString("next"));

    JsonObject removed = await(relations.removeGroupMembers(me, group, List.of(friends.get(0), friends.get(2), 42L)));
    assertEquals(3, removed.getLong("size"));
    assertEquals(List.of(friends.get(4), friends.get(3), friends.get(1)),
        userIds(await(relations.groupMembers(me, group, PageRequest.first(10)).map(Page::toJson))));
    assertEquals(3, await(relations.removeGroupMembers(me, group, List.of(friends.get(0)))).getLong("size"),
        "removing a non-member changes nothing");

    List<Long> tooMany = LongStream.rangeClosed(1, 501).boxed().toList();
    failsWith("validation_failed", relations.addGroupMembers(me, group, tooMany));
    failsWith("validation_failed", relations.removeGroupMembers(me, group, tooMany));
    failsWith("validation_failed", relations.removeGroupMembers(me, group, List.of()));
    failsWith("validation_failed", relations.groupMembers(me, group, PageRequest.after("x", 10)).map(Page::toJson));
    assertNull(await(relations.groupMembers(me, group, PageRequest.first(10)).map(Page::toJson)).getString("next"));
  }

  @Test
  @DisplayName("group names must be 1 to 40 characters without control characters")
  void nameLimits() throws Exception {
    long me = newUser();
    await(relations.createGroup(me, "x".repeat(40)));
    failsWith("validation_failed", relations.createGroup(me, "y".repeat(41)));
    failsWith("validation_failed", relations.createGroup(me, ""));
    failsWith("validation_failed", relations.createGroup(me, "   "));
    failsWith("validation_failed", relations.createGroup(me, "bad\nname"));
    long id = await(relations.createGroup(me, "ok")).getLong("id");
    failsWith("validation_failed", relations.renameGroup(me, id, "z".repeat(41)));
    failsWith("validation_failed", relations.renameGroup(me, id, " "));
    assertEquals(2, await(relations.groups(me)).getJsonArray("items").size());
  }

  @Test
  @DisplayName("a user has at most 100 groups: the 101st is refused as limit_reached")
  void groupLimit() throws Exception {
    long me = newUser();
    List<Future<JsonObject>> creates = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      creates.add(relations.createGroup(me, "group " + i));
    }
    await(Future.all(creates));
    failsWith("limit_reached", relations.createGroup(me, "one too many"));
    JsonArray items = await(relations.groups(me)).getJsonArray("items");
    assertEquals(100, items.size());
    // deleting one makes room again
    await(relations.deleteGroup(me, items.getJsonObject(0).getLong("id")));
    await(relations.createGroup(me, "one too many"));
  }

  @Test
  @DisplayName("when a friendship ends, each side is removed from the other's groups")
  void friendshipEndRemovesMembers() throws Exception {
    List<Long> users = newUsers(3);
    long me = users.get(0);
    long friend = users.get(1);
    long stays = users.get(2);
    befriend(me, friend);
    befriend(me, stays);
    long g1 = await(relations.createGroup(me, "One")).getLong("id");
    long g2 = await(relations.createGroup(me, "Two")).getLong("id");
    long theirs = await(relations.createGroup(friend, "Theirs")).getLong("id");
    await(relations.addGroupMembers(me, g1, List.of(friend, stays)));
    await(relations.addGroupMembers(me, g2, List.of(friend)));
    await(relations.addGroupMembers(friend, theirs, List.of(me)));

    await(relations.unfollow(friend, me));

    assertEquals(List.of(stays), userIds(await(relations.groupMembers(me, g1, PageRequest.first(10))
        .map(Page::toJson))));
    assertTrue(await(relations.groupMembers(me, g2, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.groupMembers(friend, theirs, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    JsonArray groups = await(relations.groups(me)).getJsonArray("items");
    assertEquals(1, find(groups, g1).getLong("size"));
    assertEquals(0, find(groups, g2).getLong("size"));
    assertEquals(0, find(await(relations.groups(friend)).getJsonArray("items"), theirs).getLong("size"));
    assertTrue(await(relations.relationships(me, List.of(friend))).getJsonObject(Long.toString(friend))
        .getJsonArray("groups").isEmpty());
    failsWith("not_friends", relations.addGroupMembers(me, g1, List.of(friend)));
  }

  @Test
  @DisplayName("a block ends the friendship and so removes the blocked user from the blocker's groups")
  void blockRemovesMembers() throws Exception {
    List<Long> users = newUsers(2);
    long me = users.get(0);
    long friend = users.get(1);
    befriend(me, friend);
    long g = await(relations.createGroup(me, "Close")).getLong("id");
    await(relations.addGroupMembers(me, g, List.of(friend)));

    await(relations.block(me, friend));

    assertTrue(await(relations.groupMembers(me, g, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertEquals(0, find(await(relations.groups(me)).getJsonArray("items"), g).getLong("size"));
  }

  private static Set<String> names(JsonArray groups) {
    Set<String> names = new HashSet<>();
    groups.forEach(g -> names.add(((JsonObject) g).getString("name")));
    return names;
  }

  private static JsonObject find(JsonArray groups, long id) {
    for (int i = 0; i < groups.size(); i++) {
      if (groups.getJsonObject(i).getLong("id") == id) {
        return groups.getJsonObject(i);
      }
    }
    throw new AssertionError("no group " + id + " in " + groups);
  }

  private static Set<Long> longs(JsonArray array) {
    Set<Long> out = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      out.add(array.getLong(i));
    }
    return out;
  }
}
