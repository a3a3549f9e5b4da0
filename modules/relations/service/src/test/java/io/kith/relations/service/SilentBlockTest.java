package io.kith.relations.service;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A blocked user's follow looks exactly like an unanswered request to a private account, from their side. */
class SilentBlockTest extends RelationsTestBase {

  @Test
  @DisplayName("the blocked follower sees a pending request; the blocker never sees it and cannot accept it")
  void blockedFollowLooksPending() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(relations.block(blocker, blocked));
    assertEquals("requested", await(relations.follow(blocked, blocker)).getString("state"));
    assertEquals(1, await(relations.outgoingRequests(blocked, 10, null)).getJsonArray("items").size());
    assertTrue(await(relations.relationships(blocked, List.of(blocker))).getJsonObject(Long.toString(blocker))
        .getBoolean("requested"));
    assertEquals(0, await(relations.incomingRequests(blocker, 10, null)).getJsonArray("items").size());
    failsWith("request_not_found", relations.acceptRequest(blocker, blocked));
    assertEquals(0, await(relations.counts(blocker)).getLong("follower_count"));
  }

  @Test
  @DisplayName("unblocking drops the requests made while blocked instead of surfacing them")
  void unblockDropsHiddenRequests() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(relations.block(blocker, blocked));
    await(relations.follow(blocked, blocker));
    await(relations.unblock(blocker, blocked));
    assertEquals(0, await(relations.incomingRequests(blocker, 10, null)).getJsonArray("items").size());
    assertEquals(0, await(relations.outgoingRequests(blocked, 10, null)).getJsonArray("items").size());
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
