package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Redis hot sets are derived data: when one is missing, answers come out the same, rebuilt from MongoDB. */
class HotSetsRebuildTest extends RelationsTestBase {

  @Test
  @DisplayName("with the block sets deleted, neither the blocker nor the blocked user can follow the other")
  void blockSetsRebuilt() throws Exception {
    List<Long> users = newUsers(3);
    long blocker = users.get(0);
    long blocked = users.get(1);
    long other = users.get(2);
    await(relations.block(blocker, blocked));
    await(relations.follow(other, blocker));
    // load the sets once, so that the deletion below removes something that exists
    failsWith("blocking_user", relations.follow(blocker, blocked));
    assertTrue(present(HotSets.BLOCKS, blocker));

    drop(HotSets.BLOCKS, blocker);
    drop(HotSets.BLOCKED_BY, blocked);
    drop(HotSets.BLOCKED_BY, blocker);
    drop(HotSets.BLOCKS, blocked);

    failsWith("blocking_user", relations.follow(blocker, blocked));
    failsWith("user_not_found", relations.follow(blocked, blocker));
    assertEquals(List.of(other), userIds(await(relations.followers(blocker, blocker, PageRequest.first(10))
        .map(Page::toJson))));
    failsWith("user_not_found", relations.followers(blocked, blocker, PageRequest.first(10)).map(Page::toJson));
    failsWith("user_not_found", relations.following(blocker, blocked, PageRequest.first(10)).map(Page::toJson));
    JsonObject rel = relation(blocker, blocked);
    assertTrue(rel.getBoolean("blocking"));
    assertTrue(relation(blocked, blocker).getBoolean("blocked_by"));
    assertTrue(present(HotSets.BLOCKS, blocker), "rebuilt on use");
    assertTrue(present(HotSets.BLOCKED_BY, blocked), "rebuilt on use");

    // an unblock while the sets are missing is not undone by the rebuild
    drop(HotSets.BLOCKS, blocker);
    drop(HotSets.BLOCKED_BY, blocked);
    await(relations.unblock(blocker, blocked));
    assertEquals("following", await(relations.follow(blocked, blocker)).getString("state"));
    assertEquals("following", await(relations.follow(blocker, blocked)).getString("state"));
  }

  @Test
  @DisplayName("with the following set deleted, follows, lists, counts and unfollows answer the same")
  void followingSetRebuilt() throws Exception {
    List<Long> users = newUsers(3);
    long me = users.get(0);
    long a = users.get(1);
    long b = users.get(2);
    await(relations.follow(me, a));
    await(relations.follow(me, b));
    await(relations.follow(a, me));
    JsonObject before = await(relations.relationships(me, List.of(a, b)));

    drop(HotSets.FOLLOWING, me);
    drop(HotSets.FOLLOWING, a);

    assertEquals(before, await(relations.relationships(me, List.of(a, b))));
    assertEquals(List.of(b, a), userIds(await(relations.following(me, me, PageRequest.first(10)).map(Page::toJson))));
    assertEquals("following", await(relations.follow(me, a)).getString("state"));
    assertEquals(2, await(relationsInternal.counts(me)).getLong("following_count"));
    await(relations.unfollow(me, b));
    assertEquals(List.of(a), userIds(await(relations.following(me, me, PageRequest.first(10)).map(Page::toJson))));
    assertEquals(1, await(relationsInternal.counts(me)).getLong("following_count"));
    assertEquals(0, await(relationsInternal.counts(b)).getLong("follower_count"));
  }

  @Test
  @DisplayName("with the friend set deleted, the friend check for groups still knows friends from strangers")
  void friendSetRebuilt() throws Exception {
    List<Long> users = newUsers(3);
    long me = users.get(0);
    long friend = users.get(1);
    long stranger = users.get(2);
    befriend(me, friend);
    long group = await(relations.createGroup(me, "Close")).getLong("id");
    failsWith("not_friends", relations.addGroupMembers(me, group, List.of(stranger)));
    assertTrue(present(HotSets.FRIENDS, me));

    drop(HotSets.FRIENDS, me);

    assertEquals(1, await(relations.addGroupMembers(me, group, List.of(friend))).getLong("size"));
    failsWith("not_friends", relations.addGroupMembers(me, group, List.of(stranger)));

    // a friendship ending while the set is missing is not resurrected by the rebuild
    drop(HotSets.FRIENDS, me);
    await(relations.unfollow(friend, me));
    failsWith("not_friends", relations.addGroupMembers(me, group, List.of(friend)));
    befriend(me, stranger);
    assertEquals(1, await(relations.addGroupMembers(me, group, List.of(stranger))).getLong("size"));
  }

  @Test
  @DisplayName("with the hide set deleted, eligible followers still leave out those the author hides from")
  void hideSetRebuilt() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    for (long f : users.subList(1, 4)) {
      await(relations.follow(f, author));
    }
    await(relations.hide(author, users.get(2)));
    JsonObject before = await(relationsInternal.eligibleFollowers(author, PageRequest.first(100)).map(Page::toJson));
    assertEquals(List.of(users.get(3), users.get(1)), before.getJsonArray("items").getList());

    drop(HotSets.HIDES, author);

    assertEquals(before, await(relationsInternal.eligibleFollowers(author, PageRequest.first(100)).map(Page::toJson)));
    drop(HotSets.HIDES, author);
    await(relations.unhide(author, users.get(2)));
    assertEquals(List.of(users.get(3), users.get(2), users.get(1)),
        await(relationsInternal.eligibleFollowers(author, PageRequest.first(100))
            .map(Page::toJson)).getJsonArray("items").getList());
  }

  @Test
  @DisplayName("with some or all of the viewer's hot sets deleted, ties answers exactly as before, both ways")
  void tiesRebuilt() throws Exception {
    List<Long> users = newUsers(7);
    long viewer = users.get(0);
    long followed = users.get(1);
    long friend = users.get(2);
    long blocked = users.get(3);
    long blocker = users.get(4);
    long muted = users.get(5);
    long hider = users.get(6);
    await(relations.follow(viewer, followed));
    befriend(viewer, friend);
    await(relations.block(viewer, blocked));
    await(relations.block(blocker, viewer));
    await(relations.mute(viewer, muted));
    await(relations.hide(hider, viewer));
    // the other directions, which must not show as the viewer's
    await(relations.mute(followed, viewer));
    await(relations.hide(viewer, muted));
    List<Long> ids = List.of(followed, friend, blocked, blocker, muted, hider);
    JsonObject before = await(relationsInternal.ties(viewer, ids));
    assertEquals(new JsonObject().put("following", true).put("friend", false).put("blocking", false)
        .put("blocked_by", false).put("muting", false).put("hidden_from", false),
        before.getJsonObject(Long.toString(followed)));
    assertTrue(before.getJsonObject(Long.toString(friend)).getBoolean("friend"));
    assertTrue(before.getJsonObject(Long.toString(blocked)).getBoolean("blocking"));
    assertFalse(before.getJsonObject(Long.toString(blocked)).getBoolean("blocked_by"));
    assertTrue(before.getJsonObject(Long.toString(blocker)).getBoolean("blocked_by"));
    assertFalse(before.getJsonObject(Long.toString(blocker)).getBoolean("blocking"));
    assertTrue(before.getJsonObject(Long.toString(muted)).getBoolean("muting"));
    assertFalse(before.getJsonObject(Long.toString(muted)).getBoolean("hidden_from"));
    assertTrue(before.getJsonObject(Long.toString(hider)).getBoolean("hidden_from"));
    assertFalse(before.getJsonObject(Long.toString(hider)).getBoolean("muting"));

    drop(HotSets.BLOCKS, viewer);
    drop(HotSets.HIDDEN_BY, viewer);
    assertEquals(before, await(relationsInternal.ties(viewer, ids)), "two sets rebuilt");
    for (String set : List.of(HotSets.FOLLOWING, HotSets.FRIENDS, HotSets.BLOCKS, HotSets.BLOCKED_BY, HotSets.MUTES,
        HotSets.HIDDEN_BY)) {
      drop(set, viewer);
    }
    assertEquals(before, await(relationsInternal.ties(viewer, ids)), "all six rebuilt");
    assertTrue(present(HotSets.BLOCKED_BY, viewer) && present(HotSets.MUTES, viewer), "stored again");

    // a change while the set is missing is what the rebuild finds
    drop(HotSets.BLOCKED_BY, viewer);
    await(relations.unblock(blocker, viewer));
    assertFalse(await(relationsInternal.ties(viewer, List.of(blocker))).getJsonObject(Long.toString(blocker))
        .getBoolean("blocked_by"));
  }

  private void drop(String set, long user) throws Exception {
    await(platform.redisApi().del(List.of(HotSets.key(set, user))));
    assertFalse(present(set, user));
  }

  private boolean present(String set, long user) throws Exception {
    return await(platform.redisApi().exists(List.of(HotSets.key(set, user)))).toInteger() > 0;
  }

  private JsonObject relation(long viewer, long other) throws Exception {
    return await(relations.relationships(viewer, List.of(other))).getJsonObject(Long.toString(other));
  }
}
