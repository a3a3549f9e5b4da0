package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsEvents;
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

/** Friendships (mutual follows), including follows and unfollows racing from both sides. */
class FriendshipTest extends RelationsTestBase {

  private static final int PAIRS = 8;

  @Test
  @DisplayName("two users following each other at the same moment become friends exactly once, with one FriendshipFormed")
  void concurrentMutualFollow() throws Exception {
    List<Long> users = newUsers(2 * PAIRS + 2);
    long markerA = users.get(2 * PAIRS);
    long markerB = users.get(2 * PAIRS + 1);
    try (EventRecorder events = recordEvents()) {
      List<Future<JsonObject>> follows = new ArrayList<>();
      for (int i = 0; i < PAIRS; i++) {
        long a = users.get(2 * i);
        long b = users.get(2 * i + 1);
        follows.add(relations.follow(a, b));
        follows.add(relations.follow(b, a));
      }
      await(Future.all(follows));

      for (int i = 0; i < PAIRS; i++) {
        long a = users.get(2 * i);
        long b = users.get(2 * i + 1);
        for (long[] side : new long[][] {{a, b}, {b, a}}) {
          JsonObject counts = await(relationsInternal.counts(side[0]));
          assertEquals(1, counts.getLong("friend_count"), "friend_count of " + side[0]);
          assertEquals(1, counts.getLong("following_count"));
          assertEquals(1, counts.getLong("follower_count"));
          assertEquals(List.of(side[1]), userIds(await(relations.friends(side[0], PageRequest.first(10))
              .map(Page::toJson))));
          assertTrue(relation(side[0], side[1]).getBoolean("friend"));
        }
      }

      // an event appended after all of those: once it is seen, any duplicate would have been seen too
      await(relations.block(markerA, markerB));
      events.awaitEvent(RelationsEvents.USER_BLOCKED, markerA, markerB);
      for (int i = 0; i < PAIRS; i++) {
        long a = users.get(2 * i);
        long b = users.get(2 * i + 1);
        assertEquals(1, events.between(RelationsEvents.FRIENDSHIP_FORMED, a, b).size(), "FriendshipFormed " + a + "/" + b);
        assertEquals(1, events.of(RelationsEvents.USER_FOLLOWED, a, b).size());
        assertEquals(1, events.of(RelationsEvents.USER_FOLLOWED, b, a).size());
        assertTrue(events.between(RelationsEvents.FRIENDSHIP_ENDED, a, b).isEmpty());
      }
    }
  }

  @Test
  @DisplayName("a follow racing the other side's unfollow never leaves a friendship without both follow edges")
  void followRacingUnfollow() throws Exception {
    List<Long> users = newUsers(2 * PAIRS);
    // b follows a; then at once a follows b (which would make friends) and b unfollows a
    List<Future<?>> setup = new ArrayList<>();
    for (int i = 0; i < PAIRS; i++) {
      setup.add(relations.follow(users.get(2 * i + 1), users.get(2 * i)));
    }
    await(Future.all(setup));
    // each side's friend group, and the hot friend sets loaded before the race
    long[] groups = new long[2 * PAIRS];
    for (int i = 0; i < 2 * PAIRS; i++) {
      groups[i] = await(relations.createGroup(users.get(i), "close")).getLong("id");
      failsWith("not_friends", relations.addGroupMembers(users.get(i), groups[i], List.of(users.get(i ^ 1))));
    }
    List<Future<?>> race = new ArrayList<>();
    for (int i = 0; i < PAIRS; i++) {
      long a = users.get(2 * i);
      long b = users.get(2 * i + 1);
      race.add(relations.follow(a, b));
      race.add(relations.unfollow(b, a));
    }
    await(Future.all(race));

    for (int i = 0; i < PAIRS; i++) {
      long a = users.get(2 * i);
      long b = users.get(2 * i + 1);
      JsonObject ab = relation(a, b);
      assertTrue(ab.getBoolean("following"), ab.encode());
      assertFalse(ab.getBoolean("followed_by"), ab.encode());
      assertFalse(ab.getBoolean("friend"), ab.encode());
      assertFalse(relation(b, a).getBoolean("friend"));
      assertTrue(await(relations.friends(a, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty(),
          "friends of a");
      assertTrue(await(relations.friends(b, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty(),
          "friends of b");
      assertEquals(0, await(relationsInternal.counts(a)).getLong("friend_count"));
      assertEquals(0, await(relationsInternal.counts(b)).getLong("friend_count"));
      assertEquals(1, await(relationsInternal.counts(a)).getLong("following_count"));
      assertEquals(0, await(relationsInternal.counts(a)).getLong("follower_count"));
      // the O(1) friend check agrees: neither can be put in the other's friend group
      failsWith("not_friends", relations.addGroupMembers(a, groups[2 * i], List.of(b)));
      failsWith("not_friends", relations.addGroupMembers(b, groups[2 * i + 1], List.of(a)));
    }
  }

  @Test
  @DisplayName("a follow racing the same user's unfollow leaves either both edges and a friendship, or neither")
  void followAndUnfollowSameSide() throws Exception {
    List<Long> users = newUsers(2 * PAIRS);
    List<Future<?>> setup = new ArrayList<>();
    for (int i = 0; i < PAIRS; i++) {
      setup.add(relations.follow(users.get(2 * i + 1), users.get(2 * i)));
    }
    await(Future.all(setup));
    long[] groups = new long[2 * PAIRS];
    for (int i = 0; i < 2 * PAIRS; i++) {
      groups[i] = await(relations.createGroup(users.get(i), "close")).getLong("id");
      failsWith("not_friends", relations.addGroupMembers(users.get(i), groups[i], List.of(users.get(i ^ 1))));
    }
    List<Future<?>> race = new ArrayList<>();
    for (int i = 0; i < PAIRS; i++) {
      long a = users.get(2 * i);
      long b = users.get(2 * i + 1);
      race.add(relations.follow(a, b));
      race.add(relations.unfollow(a, b));
    }
    await(Future.all(race));

    for (int i = 0; i < PAIRS; i++) {
      long a = users.get(2 * i);
      long b = users.get(2 * i + 1);
      JsonObject ab = relation(a, b);
      boolean following = ab.getBoolean("following");
      assertTrue(ab.getBoolean("followed_by"));
      assertEquals(following, ab.getBoolean("friend"), ab.encode());
      int friends = following ? 1 : 0;
      assertEquals(friends, await(relations.friends(a, PageRequest.first(10))
          .map(Page::toJson)).getJsonArray("items").size());
      assertEquals(friends, await(relations.friends(b, PageRequest.first(10))
          .map(Page::toJson)).getJsonArray("items").size());
      assertEquals(friends, await(relationsInternal.counts(a)).getLong("friend_count"));
      assertEquals(friends, await(relationsInternal.counts(b)).getLong("friend_count"));
      assertEquals(friends, await(relationsInternal.counts(a)).getLong("following_count"));
      if (following) {
        assertEquals(1, await(relations.addGroupMembers(a, groups[2 * i], List.of(b))).getLong("size"));
        assertEquals(1, await(relations.addGroupMembers(b, groups[2 * i + 1], List.of(a))).getLong("size"));
      } else {
        failsWith("not_friends", relations.addGroupMembers(a, groups[2 * i], List.of(b)));
        failsWith("not_friends", relations.addGroupMembers(b, groups[2 * i + 1], List.of(a)));
      }
    }
  }

  @Test
  @DisplayName("the friend list pages newest friendship first and only holds mutual follows")
  void friendsPaging() throws Exception {
    List<Long> users = newUsers(5);
    long me = users.get(0);
    for (int i = 1; i <= 3; i++) {
      befriend(me, users.get(i));
    }
    await(relations.follow(me, users.get(4)));

    JsonObject first = await(relations.friends(me, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(users.get(3), users.get(2)), userIds(first));
    JsonObject second = await(relations.friends(me, PageRequest.after(first.getString("next"), 2)).map(Page::toJson));
    assertEquals(List.of(users.get(1)), userIds(second));
    assertNull(second.getString("next"));
    assertEquals(3, await(relationsInternal.counts(me)).getLong("friend_count"));
    failsWith("validation_failed", relations.friends(me, PageRequest.after("-3", 2)).map(Page::toJson));
  }

  private JsonObject relation(long viewer, long other) throws Exception {
    return await(relations.relationships(viewer, List.of(other))).getJsonObject(Long.toString(other));
  }
}
