package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Blocks, mutes ("don't see his posts") and hides ("don't let him see mine"). */
class BlocksMutesHidesTest extends RelationsTestBase {

  @Test
  @DisplayName("a block removes follows both ways, the friendship and its counts")
  void blockRemovesFollows() throws Exception {
    List<Long> users = newUsers(3);
    long me = users.get(0);
    long them = users.get(1);
    long bystander = users.get(2);
    befriend(me, them);
    befriend(me, bystander);

    await(relations.block(me, them));

    JsonObject rel = relation(me, them);
    assertFalse(rel.getBoolean("following"));
    assertFalse(rel.getBoolean("followed_by"));
    assertFalse(rel.getBoolean("friend"));
    assertTrue(rel.getBoolean("blocking"));
    assertEquals(List.of(bystander), userIds(await(relations.friends(me, PageRequest.first(10)).map(Page::toJson))));
    assertTrue(await(relations.friends(them, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    JsonObject mine = await(relationsInternal.counts(me));
    assertEquals(1, mine.getLong("following_count"));
    assertEquals(1, mine.getLong("follower_count"));
    assertEquals(1, mine.getLong("friend_count"));
    JsonObject theirs = await(relationsInternal.counts(them));
    assertEquals(0, theirs.getLong("following_count"));
    assertEquals(0, theirs.getLong("follower_count"));
    assertEquals(0, theirs.getLong("friend_count"));
    assertEquals(List.of(bystander), userIds(await(relations.followers(me, me, PageRequest.first(10))
        .map(Page::toJson))));
  }

  @Test
  @DisplayName("a block removes pending requests both ways")
  void blockRemovesRequests() throws Exception {
    List<Long> users = newPrivateUsers(2);
    long me = users.get(0);
    long them = users.get(1);
    assertEquals("requested", await(relations.follow(me, them)).getString("state"));
    assertEquals("requested", await(relations.follow(them, me)).getString("state"));

    await(relations.block(me, them));

    assertTrue(await(relations.incomingRequests(me, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.outgoingRequests(me, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.incomingRequests(them, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.outgoingRequests(them, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertFalse(relation(me, them).getBoolean("requested"));
    assertFalse(relation(them, me).getBoolean("requested"));
    failsWith("request_not_found", relations.acceptRequest(me, them));
    failsWith("request_not_found", relations.acceptRequest(them, me));
  }

  @Test
  @DisplayName("the blocked user's follow of the blocker is user_not_found exactly as for a missing user, and stores nothing")
  void blockedFollowLooksMissing() throws Exception {
    long publicBlocker = newUser();
    long privateBlocker = newPrivateUser();
    long blocked = newUser();
    await(relations.block(publicBlocker, blocked));
    await(relations.block(privateBlocker, blocked));
    Throwable missing = failsWith("user_not_found", relations.follow(blocked, 8_999_999_999_995L));

    for (long blocker : List.of(publicBlocker, privateBlocker)) {
      Throwable refused = failsWith("user_not_found", relations.follow(blocked, blocker));
      assertEquals(missing.getMessage(), refused.getMessage());
      JsonObject rel = relation(blocked, blocker);
      assertFalse(rel.getBoolean("following"));
      assertFalse(rel.getBoolean("requested"));
      assertTrue(await(relations.incomingRequests(blocker, PageRequest.first(10))
          .map(Page::toJson)).getJsonArray("items").isEmpty());
      assertTrue(await(relations.followers(blocker, blocker, PageRequest.first(10))
          .map(Page::toJson)).getJsonArray("items").isEmpty());
      assertEquals(0, await(relationsInternal.counts(blocker)).getLong("follower_count"));
    }
    assertTrue(await(relations.outgoingRequests(blocked, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertEquals(0, await(relationsInternal.counts(blocked)).getLong("following_count"));
    // a stranger's follow of the same users is an ordinary one
    long stranger = newUser();
    assertEquals("following", await(relations.follow(stranger, publicBlocker)).getString("state"));
    assertEquals("requested", await(relations.follow(stranger, privateBlocker)).getString("state"));
  }

  @Test
  @DisplayName("muting, hiding from or tagging a user who blocks the actor answers as for a missing user; blocking back works")
  void blockerLooksMissingToWrites() throws Exception {
    List<Long> users = newUsers(3);
    long blocker = users.get(0);
    long blocked = users.get(1);
    long stranger = users.get(2);
    long missing = 8_999_999_999_994L;
    await(relations.block(blocker, blocked));
    for (long target : List.of(blocker, missing)) {
      assertEquals("no such user", failsWith("user_not_found", relations.mute(blocked, target)).getMessage());
      assertEquals("no such user", failsWith("user_not_found", relations.hide(blocked, target)).getMessage());
      assertEquals("no such user", failsWith("user_not_found", relations.tagUser(blocked, target, "x")).getMessage());
    }
    assertTrue(await(relations.mutes(blocked, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.hides(blocked, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    // the blocker may still mute the user they block, and anyone else may mute the blocker
    await(relations.mute(blocker, blocked));
    await(relations.mute(stranger, blocker));
    assertEquals(List.of(blocked), userIds(await(relations.mutes(blocker, PageRequest.first(10)).map(Page::toJson))));
    assertEquals(List.of(blocker), userIds(await(relations.mutes(stranger, PageRequest.first(10)).map(Page::toJson))));
    await(relations.block(blocked, blocker));
    assertEquals(List.of(blocker), userIds(await(relations.blocks(blocked, PageRequest.first(10)).map(Page::toJson))));
  }

  @Test
  @DisplayName("the blocker cannot follow the user they block until they unblock; unblocking restores nothing")
  void blockerCannotFollow() throws Exception {
    List<Long> users = newUsers(2);
    long me = users.get(0);
    long them = users.get(1);
    befriend(me, them);
    await(relations.block(me, them));
    failsWith("blocking_user", relations.follow(me, them));

    await(relations.unblock(me, them));
    await(relations.unblock(me, them));

    JsonObject rel = relation(me, them);
    assertFalse(rel.getBoolean("blocking"));
    assertFalse(rel.getBoolean("following"));
    assertFalse(rel.getBoolean("followed_by"));
    assertFalse(relation(them, me).getBoolean("blocked_by"));
    assertEquals("following", await(relations.follow(me, them)).getString("state"));
    assertEquals("following", await(relations.follow(them, me)).getString("state"));
    assertTrue(relation(me, them).getBoolean("friend"));
  }

  @Test
  @DisplayName("blocks are listed newest first; blocking twice lists once; self and missing users are refused")
  void blockList() throws Exception {
    List<Long> users = newUsers(4);
    long me = users.get(0);
    for (long u : users.subList(1, 4)) {
      await(relations.block(me, u));
    }
    await(relations.block(me, users.get(2)));

    JsonObject first = await(relations.blocks(me, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(users.get(3), users.get(2)), userIds(first));
    assertNotNull(first.getString("next"));
    assertEquals(List.of(users.get(3), users.get(2), users.get(1)),
        allPages((limit, cursor) -> relations.blocks(me, PageRequest.after(cursor, limit)).map(Page::toJson), 2));
    assertTrue(await(relations.blocks(users.get(1), PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty(),
        "the blocked user's list shows nothing of it");

    await(relations.unblock(me, users.get(2)));
    assertEquals(List.of(users.get(3), users.get(1)), userIds(await(relations.blocks(me, PageRequest.first(10))
        .map(Page::toJson))));
    failsWith("self_relation", relations.block(me, me));
    failsWith("user_not_found", relations.block(me, 8_999_999_999_996L));
  }

  @Test
  @DisplayName("muting changes no follow edge and is invisible to the muted user")
  void mute() throws Exception {
    List<Long> users = newUsers(2);
    long me = users.get(0);
    long them = users.get(1);
    befriend(me, them);

    await(relations.mute(me, them));
    await(relations.mute(me, them));

    JsonObject mine = relation(me, them);
    assertTrue(mine.getBoolean("muting"));
    assertTrue(mine.getBoolean("friend"));
    assertFalse(mine.getBoolean("hidden_from"));
    JsonObject theirs = relation(them, me);
    assertFalse(theirs.getBoolean("muting"));
    assertFalse(theirs.getBoolean("hidden_from"));
    assertFalse(theirs.getBoolean("blocked_by"));
    assertTrue(theirs.getBoolean("friend"));
    assertEquals(List.of(them), userIds(await(relations.mutes(me, PageRequest.first(10)).map(Page::toJson))));
    assertTrue(await(relations.mutes(them, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertEquals(1, await(relationsInternal.counts(me)).getLong("friend_count"));
    assertEquals(List.of(me), userIds(await(relations.followers(them, them, PageRequest.first(10)).map(Page::toJson))));

    await(relations.unmute(me, them));
    assertFalse(relation(me, them).getBoolean("muting"));
    assertTrue(await(relations.mutes(me, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    failsWith("self_relation", relations.mute(me, me));
    failsWith("user_not_found", relations.mute(me, 8_999_999_999_995L));
  }

  @Test
  @DisplayName("hiding changes no follow edge; only the hidden-from user's answer says hidden_from, never a list of theirs")
  void hide() throws Exception {
    List<Long> users = newUsers(2);
    long me = users.get(0);
    long them = users.get(1);
    befriend(me, them);

    await(relations.hide(me, them));

    // for viewer V, hidden_from means "that user hides from V"
    JsonObject theirs = relation(them, me);
    assertTrue(theirs.getBoolean("hidden_from"));
    assertFalse(theirs.getBoolean("muting"));
    assertTrue(theirs.getBoolean("friend"));
    JsonObject mine = relation(me, them);
    assertFalse(mine.getBoolean("hidden_from"));
    assertFalse(mine.getBoolean("muting"));
    assertTrue(mine.getBoolean("friend"));
    assertEquals(List.of(them), userIds(await(relations.hides(me, PageRequest.first(10)).map(Page::toJson))));
    assertTrue(await(relations.hides(them, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.mutes(them, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertEquals(1, await(relationsInternal.counts(them)).getLong("friend_count"));

    await(relations.unhide(me, them));
    assertFalse(relation(them, me).getBoolean("hidden_from"));
    assertTrue(await(relations.hides(me, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    failsWith("self_relation", relations.hide(me, me));
    failsWith("user_not_found", relations.hide(me, 8_999_999_999_994L));
  }

  @Test
  @DisplayName("mutes and hides page newest first")
  void muteAndHideLists() throws Exception {
    List<Long> users = newUsers(4);
    long me = users.get(0);
    for (long u : users.subList(1, 4)) {
      await(relations.mute(me, u));
      await(relations.hide(me, u));
    }
    List<Long> newestFirst = List.of(users.get(3), users.get(2), users.get(1));
    assertEquals(newestFirst, allPages((limit, cursor) -> relations.mutes(me, PageRequest.after(cursor, limit))
        .map(Page::toJson), 2));
    assertEquals(newestFirst, allPages((limit, cursor) -> relations.hides(me, PageRequest.after(cursor, limit))
        .map(Page::toJson), 2));
    JsonObject last = await(relations.hides(me, PageRequest.after(await(relations.hides(me, PageRequest.first(2))
        .map(Page::toJson)).getString("next"), 2)).map(Page::toJson));
    assertNull(last.getString("next"));
  }

  private JsonObject relation(long viewer, long other) throws Exception {
    return await(relations.relationships(viewer, List.of(other))).getJsonObject(Long.toString(other));
  }
}
