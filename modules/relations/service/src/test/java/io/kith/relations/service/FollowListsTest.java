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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Follow and unfollow edge cases, and the followers / following lists. */
class FollowListsTest extends RelationsTestBase {

  private static final long UNKNOWN = 8_999_999_999_999L;

  @Test
  @DisplayName("unfollowing a private account cancels the pending request on both sides")
  void unfollowCancelsRequest() throws Exception {
    long owner = newPrivateUser();
    long fan = newUser();
    assertEquals("requested", await(relations.follow(fan, owner)).getString("state"));
    assertTrue(relation(fan, owner).getBoolean("requested"));

    await(relations.unfollow(fan, owner));

    assertFalse(relation(fan, owner).getBoolean("requested"));
    assertTrue(await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.outgoingRequests(fan, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    failsWith("request_not_found", relations.acceptRequest(owner, fan));
    assertEquals(0, await(relationsInternal.counts(owner)).getLong("follower_count"));
    // and the requester may ask again
    assertEquals("requested", await(relations.follow(fan, owner)).getString("state"));
    assertEquals(List.of(fan), userIds(await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson))));
  }

  @Test
  @DisplayName("the following list is newest first, with each user's summary and the time the follow began")
  void followingNewestFirstWithSummaries() throws Exception {
    long a = newUser();
    long viewer = newUser();
    List<JsonObject> targets = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      targets.add(await(register()));
    }
    for (JsonObject t : targets) {
      await(relations.follow(a, t.getLong("id")));
    }

    JsonObject page = await(relations.following(viewer, a, PageRequest.first(10)).map(Page::toJson));

    JsonArray items = page.getJsonArray("items");
    assertEquals(3, items.size());
    assertNull(page.getString("next"));
    long previousSince = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      JsonObject expected = targets.get(2 - i);
      JsonObject item = items.getJsonObject(i);
      JsonObject user = item.getJsonObject("user");
      assertEquals(expected.getLong("id"), user.getLong("id"));
      assertEquals(expected.getString("username"), user.getString("username"));
      assertFalse(user.containsKey("password"), "a summary, not the account: " + user);
      long since = item.getLong("since");
      assertTrue(since > 0 && since <= previousSince, "since is a time, newest first: " + items);
      previousSince = since;
    }
    assertEquals(userIds(page), userIds(await(relations.following(a, a, PageRequest.first(10)).map(Page::toJson))),
        "the owner sees the same list");
    // the followers side of one of them names a
    assertEquals(List.of(a), userIds(await(relations.followers(viewer, targets.get(0).getLong("id"),
        PageRequest.first(10)).map(Page::toJson))));
  }

  @Test
  @DisplayName("following, or listing the follows of, a user who does not exist is refused as user_not_found")
  void unknownUser() throws Exception {
    long a = newUser();
    failsWith("user_not_found", relations.follow(a, UNKNOWN));
    failsWith("user_not_found", relations.follow(a, 0));
    failsWith("user_not_found", relations.follow(a, -5));
    failsWith("user_not_found", relations.following(a, UNKNOWN, PageRequest.first(10)).map(Page::toJson));
    failsWith("user_not_found", relations.followers(a, UNKNOWN, PageRequest.first(10)).map(Page::toJson));
    assertEquals(0, await(relationsInternal.counts(a)).getLong("following_count"));
    assertTrue(await(relations.following(a, a, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
  }

  @Test
  @DisplayName("unfollowing yourself is refused; unfollowing someone you do not follow changes nothing")
  void unfollowRefusals() throws Exception {
    long a = newUser();
    long b = newUser();
    failsWith("self_relation", relations.unfollow(a, a));
    await(relations.unfollow(a, b));
    assertEquals(0, await(relationsInternal.counts(a)).getLong("following_count"));
    assertEquals(0, await(relationsInternal.counts(b)).getLong("follower_count"));
  }

  @Test
  @DisplayName("list limits are clamped to 1..100")
  void limitClamping() throws Exception {
    List<Long> users = newUsers(102);
    long a = users.get(0);
    List<Long> targets = users.subList(1, users.size());
    List<Future<JsonObject>> follows = new ArrayList<>();
    targets.forEach(t -> follows.add(relations.follow(a, t)));
    await(Future.all(follows));
    assertEquals(101, await(relationsInternal.counts(a)).getLong("following_count"));

    JsonObject big = await(relations.following(a, a, PageRequest.first(1_000)).map(Page::toJson));
    assertEquals(100, big.getJsonArray("items").size());
    assertNotNull(big.getString("next"));
    JsonObject rest = await(relations.following(a, a, PageRequest.after(big.getString("next"), 1_000))
        .map(Page::toJson));
    assertEquals(1, rest.getJsonArray("items").size());
    assertNull(rest.getString("next"));
    List<Long> all = new ArrayList<>(userIds(big));
    all.addAll(userIds(rest));
    assertEquals(new HashSet<>(targets), new HashSet<>(all));
    assertEquals(101, new HashSet<>(all).size(), "no duplicates across pages");

    assertEquals(1, await(relations.following(a, a, PageRequest.first(0))
        .map(Page::toJson)).getJsonArray("items").size());
    assertEquals(1, await(relations.following(a, a, PageRequest.first(-7))
        .map(Page::toJson)).getJsonArray("items").size());
  }

  @Test
  @DisplayName("the follow lists of a user who blocked the viewer answer user_not_found, and so do the blocker's own views")
  void listsOfABlocker() throws Exception {
    long blocker = newUser();
    long viewer = newUser();
    long other = newUser();
    await(relations.follow(blocker, other));
    await(relations.follow(other, blocker));
    await(relations.block(blocker, viewer));

    failsWith("user_not_found", relations.following(viewer, blocker, PageRequest.first(10)).map(Page::toJson));
    failsWith("user_not_found", relations.followers(viewer, blocker, PageRequest.first(10)).map(Page::toJson));
    failsWith("user_not_found", relations.following(blocker, viewer, PageRequest.first(10)).map(Page::toJson));
    // a third user still sees the lists
    assertEquals(List.of(other), userIds(await(relations.following(other, blocker, PageRequest.first(10))
        .map(Page::toJson))));

    await(relations.unblock(blocker, viewer));
    assertEquals(List.of(other), userIds(await(relations.following(viewer, blocker, PageRequest.first(10))
        .map(Page::toJson))));
  }

  private JsonObject relation(long viewer, long other) throws Exception {
    return await(relations.relationships(viewer, List.of(other))).getJsonObject(Long.toString(other));
  }
}
