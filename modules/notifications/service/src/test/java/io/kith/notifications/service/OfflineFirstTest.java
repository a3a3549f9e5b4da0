package io.kith.notifications.service;

import io.kith.accounts.service.AccountsModule;
import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.KithModule;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A direct message's notification asks presence before any other rule. Relations is not deployed here, so asking it
 * whether a block stands between two users fails: a handler that asks it fails, stays pending, and (one delivery
 * allowed) is dead-lettered; a handler that never asks it succeeds and is acknowledged.
 */
@DisplayName("Direct messages: presence is asked first, and online recipients cost no other check")
class OfflineFirstTest extends NotificationsTestBase {

  private static final String DOMAIN = MessagingEvents.DOMAIN;

  @Override
  protected List<KithModule> otherModules() {
    return List.of(new AccountsModule());
  }

  @Override
  protected JsonObject extraConfig() {
    // a failed entry is claimed (and, after one delivery, dead-lettered) after 3 s instead of 30 s; 3 s is far more
    // than handling an entry takes, so a handled entry is acknowledged before the claim timer looks at it
    return new JsonObject().put("eventlog", new JsonObject().put("claim-after-ms", 3_000).put("max-deliveries", 1));
  }

  private static JsonObject direct(long from, List<Long> to) {
    return new JsonObject().put("message", KithTestKit.newUserId()).put("conversation", KithTestKit.newUserId())
        .put("seq", 1).put("kind", "direct").put("from", from).put("to", new JsonArray(List.copyOf(to)))
        .put("mentions", new JsonArray()).put("preview", "hi");
  }

  @Test
  @DisplayName("with relations unreachable, a message to online recipients is handled without asking it, while one to "
      + "an offline recipient fails on the block check")
  void onlineRecipientsSkipTheRules() throws Exception {
    long alice = KithTestKit.newUserId();
    long bob = KithTestKit.newUserId();
    long carol = KithTestKit.newUserId();
    long dave = KithTestKit.newUserId();
    await(accountsInternal.connectionChanged(bob, "conn-" + UUID.randomUUID(), true));
    await(accountsInternal.connectionChanged(carol, "conn-" + UUID.randomUUID(), true));

    // one consumer handles the stream's entries in order: the offline one is delivered after the online one is done
    String toOnline = rawEntry(DOMAIN, KithTestKit.newUserId(), MessagingEvents.MESSAGE_SENT,
        direct(alice, List.of(bob, carol)).encode());
    String toOffline = rawEntry(DOMAIN, KithTestKit.newUserId(), MessagingEvents.MESSAGE_SENT,
        direct(alice, List.of(dave)).encode());
    await(Poll.until(vertx, WAIT, "the message to the offline recipient to fail and be dead-lettered",
        () -> vertx.executeBlocking(() -> deadLettered(DOMAIN, MessagingProducers.GROUP, toOffline))));

    assertFalse(pending(DOMAIN, MessagingProducers.GROUP, toOnline), "the message to online recipients is handled");
    assertFalse(deadLettered(DOMAIN, MessagingProducers.GROUP, toOnline), "and did not fail");
    assertEquals(List.of(), all(bob));
    assertEquals(List.of(), all(carol));
    assertEquals(List.of(), all(dave), "the block check could not be made: nothing is made without it");
  }
}
