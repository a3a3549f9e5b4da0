package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FollowTest extends RelationsTestBase {

  @Test
  @DisplayName("following is idempotent and counted exactly once on both sides")
  void followIdempotent() throws Exception {
    long a = newUser();
    long b = newUser();
    assertEquals("following", await(relations.follow(a, b)).getString("state"));
    assertEquals("following", await(relations.follow(a, b)).getString("state"));
    assertEquals(1, await(relationsInternal.counts(a)).getLong("following_count"));
    assertEquals(1, await(relationsInternal.counts(b)).getLong("follower_count"));
    await(relations.unfollow(a, b));
    await(relations.unfollow(a, b));
    assertEquals(0, await(relationsInternal.counts(a)).getLong("following_count"));
    assertEquals(0, await(relationsInternal.counts(b)).getLong("follower_count"));
  }

  @Test
  @DisplayName("counts stay exact under concurrent follows and unfollows of many users")
  void concurrentCounts() throws Exception {
    long star = newUser();
    List<Long> fans = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      fans.add(newUser());
    }
    List<Future<?>> all = new ArrayList<>();
    for (long fan : fans) {
      all.add(relations.follow(fan, star));
      all.add(relations.follow(fan, star));
    }
    await(Future.all(all));
    assertEquals(20, await(relationsInternal.counts(star)).getLong("follower_count"));
    all.clear();
    for (int i = 0; i < 10; i++) {
      all.add(relations.unfollow(fans.get(i), star));
      all.add(relations.unfollow(fans.get(i), star));
    }
    await(Future.all(all));
    assertEquals(10, await(relationsInternal.counts(star)).getLong("follower_count"));
  }

  @Test
  @DisplayName("mutual follows make friends; unfollowing ends the friendship")
  void friends() throws Exception {
    long a = newUser();
    long b = newUser();
    await(relations.follow(a, b));
    assertFalse(await(relations.relationships(a, List.of(b))).getJsonObject(Long.toString(b)).getBoolean("friend"));
    await(relations.follow(b, a));
    JsonObject rel = await(relations.relationships(a, List.of(b))).getJsonObject(Long.toString(b));
    assertTrue(rel.getBoolean("friend"));
    assertTrue(rel.getBoolean("following"));
    assertTrue(rel.getBoolean("followed_by"));
    assertEquals(1, await(relations.friends(a, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").size());
    assertEquals(1, await(relationsInternal.counts(a)).getLong("friend_count"));
    await(relations.unfollow(b, a));
    assertEquals(0, await(relations.friends(a, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").size());
    assertEquals(0, await(relationsInternal.counts(b)).getLong("friend_count"));
  }

  @Test
  @DisplayName("following yourself or a missing user is refused")
  void refusals() throws Exception {
    long a = newUser();
    failsWith("self_relation", relations.follow(a, a));
    failsWith("user_not_found", relations.follow(a, 9_000_000_000_000L));
  }

  @Test
  @DisplayName("followers page newest first with summaries and a cursor until exhausted")
  void followersPaging() throws Exception {
    long star = newUser();
    List<Long> fans = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long fan = newUser();
      fans.add(fan);
      await(relations.follow(fan, star));
    }
    JsonObject first = await(relations.followers(fans.get(0), star, PageRequest.first(2)).map(Page::toJson));
    assertEquals(2, first.getJsonArray("items").size());
    assertEquals(fans.get(4), first.getJsonArray("items").getJsonObject(0).getJsonObject("user").getLong("id"));
    JsonObject second = await(relations.followers(fans.get(0), star, PageRequest.after(first.getString("next"), 2))
        .map(Page::toJson));
    JsonObject third = await(relations.followers(fans.get(0), star, PageRequest.after(second.getString("next"), 2))
        .map(Page::toJson));
    assertEquals(1, third.getJsonArray("items").size());
    assertNull(third.getString("next"));
    assertEquals(fans.get(0), third.getJsonArray("items").getJsonObject(0).getJsonObject("user").getLong("id"));
    failsWith("validation_failed", relations.followers(fans.get(0), star, PageRequest.after("garbage", 2))
        .map(Page::toJson));
  }

  @Test
  @DisplayName("a private account turns a follow into a request the target accepts or rejects")
  void requests() throws Exception {
    long owner = newPrivateUser();
    long fan = newUser();
    long other = newUser();
    assertEquals("requested", await(relations.follow(fan, owner)).getString("state"));
    assertEquals(0, await(relationsInternal.counts(owner)).getLong("follower_count"));
    assertEquals(1, await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
    assertEquals(1, await(relations.outgoingRequests(fan, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
    failsWith("request_not_found", relations.acceptRequest(other, fan));
    await(relations.acceptRequest(owner, fan));
    assertEquals(1, await(relationsInternal.counts(owner)).getLong("follower_count"));
    failsWith("request_not_found", relations.acceptRequest(owner, fan));

    assertEquals("requested", await(relations.follow(other, owner)).getString("state"));
    await(relations.rejectRequest(owner, other));
    assertEquals(0, await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
  }

  @Test
  @DisplayName("following someone who blocked you is user_not_found, as following a missing user, and changes nothing")
  void blockedFollowIsSilent() throws Exception {
    long a = newUser();
    long b = newUser();
    await(relations.block(b, a));
    failsWith("user_not_found", relations.follow(a, b));
    failsWith("user_not_found", relations.follow(a, KithTestKit.newUserId()));
    assertEquals(0, await(relationsInternal.counts(b)).getLong("follower_count"));
    assertEquals(0, await(relations.incomingRequests(b, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
    failsWith("blocking_user", relations.follow(b, a));
  }

  @Test
  @DisplayName("blocking removes follows both ways and the friendship")
  void blockRemovesEdges() throws Exception {
    long a = newUser();
    long b = newUser();
    await(relations.follow(a, b));
    await(relations.follow(b, a));
    await(relations.block(a, b));
    JsonObject rel = await(relations.relationships(a, List.of(b))).getJsonObject(Long.toString(b));
    assertFalse(rel.getBoolean("following"));
    assertFalse(rel.getBoolean("followed_by"));
    assertFalse(rel.getBoolean("friend"));
    assertTrue(rel.getBoolean("blocking"));
    assertTrue(await(relations.relationships(b, List.of(a))).getJsonObject(Long.toString(a)).getBoolean("blocked_by"));
    assertEquals(0, await(relationsInternal.counts(a)).getLong("follower_count"));
    assertEquals(0, await(relationsInternal.counts(b)).getLong("following_count"));
    failsWith("user_not_found", relations.followers(b, a, PageRequest.first(10)).map(Page::toJson));
  }
}
