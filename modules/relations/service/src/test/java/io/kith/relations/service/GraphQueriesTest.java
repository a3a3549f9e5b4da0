package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queries other domains ask: relationships in batches, eligible followers and placements. */
class GraphQueriesTest extends RelationsTestBase {

  private static final List<String> FLAGS = List.of("following", "followed_by", "friend", "requested", "blocking",
      "blocked_by", "muting", "hidden_from");

  @Test
  @DisplayName("relationships answers every flag, the viewer's tags and groups, for up to 1,000 ids at once")
  void relationshipsBatch() throws Exception {
    List<Long> users = newUsers(9);
    long viewer = users.get(0);
    long followed = users.get(1);
    long follower = users.get(2);
    long friend = users.get(3);
    long requestedTo = newPrivateUser();
    long blocked = users.get(4);
    long blocker = users.get(5);
    long muted = users.get(6);
    long hider = users.get(7);
    long plain = users.get(8);
    await(relations.follow(viewer, followed));
    await(relations.follow(follower, viewer));
    befriend(viewer, friend);
    await(relations.follow(viewer, requestedTo));
    await(relations.block(viewer, blocked));
    await(relations.block(blocker, viewer));
    await(relations.mute(viewer, muted));
    await(relations.hide(hider, viewer));
    await(relations.tagUser(viewer, friend, "Family"));
    await(relations.tagUser(viewer, plain, "Chess"));
    long group = await(relations.createGroup(viewer, "Close")).getLong("id");
    await(relations.addGroupMembers(viewer, group, List.of(friend)));
    // edges the viewer is not part of must not leak in
    await(relations.hide(viewer, muted));
    await(relations.mute(hider, viewer));
    await(relations.tagUser(friend, viewer, "Boss"));

    List<Long> real = List.of(followed, follower, friend, requestedTo, blocked, blocker, muted, hider, plain);
    LinkedHashSet<Long> ids = new LinkedHashSet<>(real);
    LongStream.iterate(7_000_000_000_000L, i -> i + 1).limit(1_000 - real.size()).forEach(ids::add);
    assertEquals(1_000, ids.size());

    JsonObject all = await(relations.relationships(viewer, List.copyOf(ids)));

    assertEquals(1_000, all.size());
    expect(all, followed, Set.of("following"), List.of(), List.of());
    expect(all, follower, Set.of("followed_by"), List.of(), List.of());
    expect(all, friend, Set.of("following", "followed_by", "friend"), List.of("Family"), List.of(group));
    expect(all, requestedTo, Set.of("requested"), List.of(), List.of());
    expect(all, blocked, Set.of("blocking"), List.of(), List.of());
    expect(all, blocker, Set.of("blocked_by"), List.of(), List.of());
    expect(all, muted, Set.of("muting"), List.of(), List.of());
    expect(all, hider, Set.of("hidden_from"), List.of(), List.of());
    expect(all, plain, Set.of(), List.of("Chess"), List.of());
    expect(all, 7_000_000_000_500L, Set.of(), List.of(), List.of());
  }

  @Test
  @DisplayName("relationships refuses more than 1,000 ids and an empty list")
  void relationshipsLimits() throws Exception {
    long viewer = newUser();
    List<Long> tooMany = LongStream.rangeClosed(1, 1_001).boxed().toList();
    failsWith("validation_failed", relations.relationships(viewer, tooMany));
    failsWith("validation_failed", relations.relationships(viewer, List.of()));
    // duplicates count once in the answer
    assertEquals(1, await(relations.relationships(viewer, List.of(5L, 5L))).size());
  }

  @Test
  @DisplayName("eligible followers page through every follower except those the author hides from or blocked either way")
  void eligibleFollowers() throws Exception {
    List<Long> users = newUsers(31);
    long author = users.get(0);
    List<Long> followers = users.subList(1, 31);
    List<Future<JsonObject>> follows = new ArrayList<>();
    followers.forEach(f -> follows.add(relations.follow(f, author)));
    await(Future.all(follows));
    Set<Long> hidden = Set.copyOf(followers.subList(0, 5));
    Set<Long> blockedByAuthor = Set.copyOf(followers.subList(5, 8));
    Set<Long> blockingAuthor = Set.copyOf(followers.subList(8, 10));
    Set<Long> muted = Set.copyOf(followers.subList(10, 12));
    for (long f : hidden) {
      await(relations.hide(author, f));
    }
    for (long f : blockedByAuthor) {
      await(relations.block(author, f));
    }
    for (long f : blockingAuthor) {
      await(relations.block(f, author));
    }
    // a follower hiding from the author, or muting them, still receives the author's posts
    for (long f : muted) {
      await(relations.mute(author, f));
    }
    await(relations.hide(followers.get(12), author));
    Set<Long> expected = new HashSet<>(followers);
    expected.removeAll(hidden);
    expected.removeAll(blockedByAuthor);
    expected.removeAll(blockingAuthor);
    assertEquals(20, expected.size());
    assertTrue(expected.containsAll(muted));

    List<Long> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonObject page = await(relationsInternal.eligibleFollowers(author, PageRequest.after(cursor, 7))
          .map(Page::toJson));
      JsonArray items = page.getJsonArray("items");
      assertTrue(items.size() <= 7, "page of at most 7: " + page);
      for (int i = 0; i < items.size(); i++) {
        seen.add(items.getLong(i));
      }
      cursor = page.getString("next");
      pages++;
    } while (cursor != null && pages < 100);
    assertNull(cursor, "paging ends");
    assertEquals(expected, new HashSet<>(seen));
    assertEquals(expected.size(), seen.size(), "no duplicates: " + seen);

    // in the order of the followers list: newest follower first
    List<Long> newestFirst = allPages((limit, c) -> relations.followers(author, author, PageRequest.after(c, limit))
        .map(Page::toJson), 100).stream()
        .filter(expected::contains).toList();
    assertEquals(newestFirst, seen);
    failsWith("validation_failed", relationsInternal.eligibleFollowers(author, PageRequest.after("nope", 7))
        .map(Page::toJson));
  }

  @Test
  @DisplayName("eligible follower pages flag the author's friends among their items, and take more than 1,000 a page")
  void eligibleFollowersFlagFriends() throws Exception {
    List<Long> users = newUsers(7);
    long author = users.get(0);
    List<Long> followers = users.subList(1, 7);
    for (long f : followers) {
      await(relations.follow(f, author));
    }
    // friends: followers the author follows back; one of them hidden from, one blocking the author afterwards
    await(relations.follow(author, followers.get(0)));
    await(relations.follow(author, followers.get(2)));
    await(relations.follow(author, followers.get(3)));
    await(relations.follow(author, followers.get(4)));
    await(relations.hide(author, followers.get(3)));
    await(relations.block(followers.get(4), author));
    // the author follows a non-follower: not a friend, not in the page
    long followedOnly = newUser();
    await(relations.follow(author, followedOnly));

    JsonObject page = await(relationsInternal.eligibleFollowers(author, PageRequest.first(5_000)).map(Page::toJson));
    assertNull(page.getString("next"));
    List<Long> items = page.getJsonArray("items").stream().map(x -> ((Number) x).longValue()).toList();
    List<Long> friends = page.getJsonArray("friends").stream().map(x -> ((Number) x).longValue()).toList();
    assertEquals(List.of(followers.get(5), followers.get(2), followers.get(1), followers.get(0)), items);
    assertEquals(List.of(followers.get(2), followers.get(0)), friends);

    // paged, each page flags its own items
    List<Long> pagedFriends = new ArrayList<>();
    String cursor = null;
    do {
      JsonObject p = await(relationsInternal.eligibleFollowers(author, PageRequest.after(cursor, 1)).map(Page::toJson));
      List<Long> pi = p.getJsonArray("items").stream().map(x -> ((Number) x).longValue()).toList();
      p.getJsonArray("friends").forEach(x -> {
        assertTrue(pi.contains(((Number) x).longValue()), "a flagged friend outside the page: " + p);
        pagedFriends.add(((Number) x).longValue());
      });
      cursor = p.getString("next");
    } while (cursor != null);
    assertEquals(friends, pagedFriends);
  }

  @Test
  @DisplayName("placements name who put the viewer in a contact tag or a friend group, and nothing else")
  void placements() throws Exception {
    List<Long> users = newUsers(5);
    long viewer = users.get(0);
    long tagger = users.get(1);
    long grouper = users.get(2);
    long both = users.get(3);
    long unrelated = users.get(4);
    await(relations.tagUser(tagger, viewer, "close"));
    await(relations.tagUser(tagger, viewer, "gym"));
    befriend(grouper, viewer);
    long g1 = await(relations.createGroup(grouper, "Inner")).getLong("id");
    long g2 = await(relations.createGroup(grouper, "Outer")).getLong("id");
    await(relations.addGroupMembers(grouper, g1, List.of(viewer)));
    await(relations.addGroupMembers(grouper, g2, List.of(viewer)));
    befriend(both, viewer);
    long g3 = await(relations.createGroup(both, "Family")).getLong("id");
    await(relations.addGroupMembers(both, g3, List.of(viewer)));
    await(relations.tagUser(both, viewer, "cousin"));
    // placements of others and by the viewer do not count
    await(relations.tagUser(unrelated, tagger, "close"));
    await(relations.tagUser(viewer, tagger, "friendly"));

    JsonObject placed = await(relationsInternal.placements(viewer));

    assertEquals(Set.of(Long.toString(tagger), Long.toString(grouper), Long.toString(both)), placed.fieldNames());
    assertEquals(Set.of("close", "gym"), strings(placed.getJsonObject(Long.toString(tagger)).getJsonArray("tags")));
    assertTrue(placed.getJsonObject(Long.toString(tagger)).getJsonArray("groups").isEmpty());
    assertTrue(placed.getJsonObject(Long.toString(grouper)).getJsonArray("tags").isEmpty());
    assertEquals(Set.of(g1, g2), longs(placed.getJsonObject(Long.toString(grouper)).getJsonArray("groups")));
    assertEquals(Set.of("cousin"), strings(placed.getJsonObject(Long.toString(both)).getJsonArray("tags")));
    assertEquals(Set.of(g3), longs(placed.getJsonObject(Long.toString(both)).getJsonArray("groups")));

    // taken out again: by untagging, removing from a group, deleting a group, and ending a friendship
    await(relations.untagUser(tagger, viewer, "close"));
    await(relations.untagUser(tagger, viewer, "gym"));
    await(relations.removeGroupMembers(grouper, g1, List.of(viewer)));
    await(relations.deleteGroup(grouper, g2));
    await(relations.unfollow(viewer, both));
    JsonObject after = await(relationsInternal.placements(viewer));
    assertEquals(Set.of(Long.toString(both)), after.fieldNames());
    assertEquals(Set.of("cousin"), strings(after.getJsonObject(Long.toString(both)).getJsonArray("tags")));
    assertTrue(after.getJsonObject(Long.toString(both)).getJsonArray("groups").isEmpty());
    assertTrue(await(relationsInternal.placements(unrelated)).isEmpty());
  }

  @Test
  @DisplayName("ties answers the hot flags from Redis, agrees with relationships, and follows hides and unhides")
  void tiesAgreeWithRelationships() throws Exception {
    List<Long> users = newUsers(8);
    long viewer = users.get(0);
    long followed = users.get(1);
    long friend = users.get(2);
    long blocked = users.get(3);
    long blocker = users.get(4);
    long muted = users.get(5);
    long hider = users.get(6);
    long plain = users.get(7);
    await(relations.follow(viewer, followed));
    befriend(viewer, friend);
    await(relations.block(viewer, blocked));
    await(relations.block(blocker, viewer));
    await(relations.mute(viewer, muted));
    await(relations.hide(hider, viewer));
    // the other directions must not show
    await(relations.hide(viewer, muted));
    await(relations.mute(hider, viewer));
    List<Long> ids = List.of(followed, friend, blocked, blocker, muted, hider, plain);
    JsonObject ties = await(relationsInternal.ties(viewer, ids));
    JsonObject full = await(relations.relationships(viewer, ids));
    List<String> flags = List.of("following", "friend", "blocking", "blocked_by", "muting", "hidden_from");
    for (long id : ids) {
      for (String flag : flags) {
        assertEquals(full.getJsonObject(Long.toString(id)).getBoolean(flag),
            ties.getJsonObject(Long.toString(id)).getBoolean(flag), flag + " of " + id);
      }
    }
    assertTrue(ties.getJsonObject(Long.toString(hider)).getBoolean("hidden_from"));
    assertTrue(ties.getJsonObject(Long.toString(friend)).getBoolean("friend"));
    // the hidden-by set follows writes, also when it was built before them
    await(relations.unhide(hider, viewer));
    assertEquals(false, await(relationsInternal.ties(viewer, List.of(hider))).getJsonObject(Long.toString(hider))
        .getBoolean("hidden_from"));
    await(relations.hide(plain, viewer));
    assertTrue(await(relationsInternal.ties(viewer, List.of(plain))).getJsonObject(Long.toString(plain))
        .getBoolean("hidden_from"));
    failsWith("validation_failed", relationsInternal.ties(viewer, LongStream.rangeClosed(1, 1_001).boxed().toList()));
  }

  @Test
  @DisplayName("followingIds and friendIds page every id, newest first")
  void idPages() throws Exception {
    List<Long> users = newUsers(6);
    long me = users.get(0);
    for (long other : users.subList(1, 6)) {
      await(relations.follow(me, other));
    }
    befriend(me, users.get(1));
    befriend(me, users.get(2));
    List<Long> following = new ArrayList<>();
    String cursor = null;
    do {
      JsonObject page = await(relationsInternal.followingIds(me, PageRequest.after(cursor, 2)).map(Page::toJson));
      assertTrue(page.getJsonArray("items").size() <= 2);
      page.getJsonArray("items").forEach(id -> following.add(((Number) id).longValue()));
      cursor = page.getString("next");
    } while (cursor != null);
    List<Long> newestFirst = new ArrayList<>(users.subList(1, 6));
    java.util.Collections.reverse(newestFirst);
    assertEquals(newestFirst, following);
    JsonArray friends = await(relationsInternal.friendIds(me, PageRequest.first(1000)).map(Page::toJson))
        .getJsonArray("items");
    assertEquals(Set.of(users.get(1), users.get(2)), new HashSet<>(friends.getList().stream()
        .map(n -> ((Number) n).longValue()).toList()));
    assertEquals(0, await(relationsInternal.friendIds(users.get(5), PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
  }

  @Test
  @DisplayName("placementsBy answers for the given owners only, whatever others did")
  void placementsByOwners() throws Exception {
    List<Long> users = newUsers(4);
    long viewer = users.get(0);
    long owner = users.get(1);
    long other = users.get(2);
    long nobody = users.get(3);
    befriend(owner, viewer);
    await(relations.tagUser(owner, viewer, "Close"));
    long group = await(relations.createGroup(owner, "Inner")).getLong("id");
    await(relations.addGroupMembers(owner, group, List.of(viewer)));
    await(relations.tagUser(other, viewer, "Far"));
    JsonObject placed = await(relationsInternal.placementsBy(viewer, List.of(owner, nobody)));
    assertEquals(new JsonObject().put(Long.toString(owner), new JsonObject()
        .put("tags", new JsonArray().add("close")).put("groups", new JsonArray().add(group))), placed);
    failsWith("validation_failed", relationsInternal.placementsBy(viewer, List.of()));
    failsWith("validation_failed",
        relationsInternal.placementsBy(viewer, LongStream.rangeClosed(1, 1_001).boxed().toList()));
  }

  private static void expect(JsonObject all, long id, Set<String> on, List<String> tags, List<Long> groups) {
    JsonObject r = all.getJsonObject(Long.toString(id));
    for (String flag : FLAGS) {
      assertEquals(on.contains(flag), r.getBoolean(flag), flag + " of " + id + ": " + r);
    }
    assertEquals(new JsonArray(List.copyOf(tags)), r.getJsonArray("tags"), "tags of " + id);
    assertEquals(new JsonArray(List.copyOf(groups)), r.getJsonArray("groups"), "groups of " + id);
  }

  private static Set<String> strings(JsonArray array) {
    Set<String> out = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      out.add(array.getString(i));
    }
    return out;
  }

  private static Set<Long> longs(JsonArray array) {
    Set<Long> out = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      out.add(array.getLong(i));
    }
    return out;
  }
}
