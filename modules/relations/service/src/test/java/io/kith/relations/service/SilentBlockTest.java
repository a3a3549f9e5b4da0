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

/** A block is silent: the blocked user meets the blocker as a missing user, and nothing of theirs reaches the blocker. */
class SilentBlockTest extends RelationsTestBase {

  @Test
  @DisplayName("the blocked user's follow answers as for a missing user; nothing is pending on either side")
  void blockedFollowLooksMissing() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(relations.block(blocker, blocked));
    failsWith("user_not_found", relations.follow(blocked, blocker));
    assertEquals(0, await(relations.outgoingRequests(blocked, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
    assertFalse(await(relations.relationships(blocked, List.of(blocker))).getJsonObject(Long.toString(blocker))
        .getBoolean("requested"));
    assertEquals(0, await(relations.incomingRequests(blocker, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
    failsWith("request_not_found", relations.acceptRequest(blocker, blocked));
    assertEquals(0, await(relationsInternal.counts(blocker)).getLong("follower_count"));
  }

  @Test
  @DisplayName("after an unblock the once-blocked user follows as anyone does, with nothing left over from the block")
  void unblockThenFollow() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(relations.block(blocker, blocked));
    failsWith("user_not_found", relations.follow(blocked, blocker));
    await(relations.unblock(blocker, blocked));
    assertEquals(0, await(relations.incomingRequests(blocker, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
    assertEquals(0, await(relations.outgoingRequests(blocked, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
    assertEquals("following", await(relations.follow(blocked, blocker)).getString("state"));
  }

  @Test
  @DisplayName("counts for a viewer: visible normally, not found across a block or for an unknown user")
  void countsForViewer() throws Exception {
    long a = newUser();
    long b = newUser();
    await(relations.follow(a, b));
    JsonObject counts = await(relations.countsFor(a, b));
    assertEquals(1, counts.getLong("follower_count"));
    await(relations.block(b, a));
    failsWith("user_not_found", relations.countsFor(a, b));
    failsWith("user_not_found", relations.countsFor(a, 9_000_000_000_001L));
  }
}
