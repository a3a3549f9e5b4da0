package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.UpdateOptions;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Direct messages through the service proxy")
class MessagingServiceTest extends MessagingTestBase {

  private JsonObject conversationOf(long user, long conversation) throws Exception {
    for (Object item : await(messaging.conversations(user, PageRequest.first(100))
        .map(Page::toJson)).getJsonArray("items")) {
      if (((JsonObject) item).getLong("id") == conversation) {
        return (JsonObject) item;
      }
    }
    throw new AssertionError("conversation " + conversation + " is not in " + user + "'s list");
  }

  @Test
  @DisplayName("the same client id sent twice is one message: the retry answers the first")
  void idempotentRetry() throws Exception {
    List<Long> u = newUsers(2);
    JsonObject body = text("hello once");
    JsonObject first = await(messaging.send(u.get(0), u.get(1), body));
    JsonObject again = await(messaging.send(u.get(0), u.get(1), body.copy().put("text", "changed on retry")));
    assertFalse(first.getBoolean("duplicate"));
    assertTrue(again.getBoolean("duplicate"));
    JsonObject m = first.getJsonObject("message");
    assertEquals(m.getLong("id"), again.getJsonObject("message").getLong("id"));
    assertEquals("hello once", again.getJsonObject("message").getString("text"));
    assertEquals(1L, m.getLong("seq"));
    // concurrent retries of one new client id still make one message
    JsonObject burst = text("burst");
    List<Future<JsonObject>> tries = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      tries.add(messaging.send(u.get(0), u.get(1), burst));
    }
    await(Future.all(tries));
    assertEquals(1, tries.stream().map(f -> f.result().getJsonObject("message").getLong("id")).distinct().count());
    JsonObject page = await(messaging.history(u.get(1), m.getLong("conversation"), new JsonObject(), TestPages.FIRST)
        .map(Page::toJson));
    assertEquals(List.of(1L, 2L), seqs(page), page.encode());
    // the retries queued behind the first attempt gave their sequences back: the next message leaves no hole
    assertEquals(3L, send(u.get(1), u.get(0), "next").getLong("seq"));
  }

  @Test
  @DisplayName("a retry of a message that went through is answered even after the recipient blocked the sender")
  void retryAfterBlock() throws Exception {
    List<Long> u = newUsers(2);
    JsonObject body = text("sent before the block");
    JsonObject first = await(messaging.send(u.get(0), u.get(1), body)).getJsonObject("message");
    await(relations.block(u.get(1), u.get(0)));
    JsonObject again = await(messaging.send(u.get(0), u.get(1), body));
    assertTrue(again.getBoolean("duplicate"));
    assertEquals(first.getLong("id"), again.getJsonObject("message").getLong("id"));
    // a new message is refused: the retry answer is no way around the block
    failsWith("user_not_found", "to", messaging.send(u.get(0), u.get(1), text("after the block")));
  }

  @Test
  @DisplayName("a change of settings made on any node applies to the next send at once")
  void settingsChangeAppliesAtOnce() throws Exception {
    List<Long> u = newUsers(3);
    long a = u.get(0);
    long b = u.get(1);
    send(a, b, "while b takes messages from everyone");
    await(messaging.updateSettings(b, new JsonObject().put("messages_from", "friends")));
    failsWith("message_not_allowed", null, messaging.send(a, b, text("after b chose friends only")));
    // a change saved by another node: this node hears of it on the bus and reads the settings again
    long c = u.get(2);
    send(a, c, "while c takes messages from everyone");
    await(platform.mongo().updateCollectionWithOptions(ConversationStore.SETTINGS, new JsonObject().put("user", c),
        new JsonObject().put("$set", new JsonObject().put("messages_from", "friends")),
        new UpdateOptions().setUpsert(true)));
    vertx.eventBus().publish(SettingsCache.CHANGED, new JsonObject().put("user", c));
    // well within the cache's 30 s: without the notice the next sends would still be let through
    await(Poll.until(vertx, Duration.ofSeconds(10), "the change heard", () -> messaging.send(a, c,
        text("probe " + UUID.randomUUID())).transform(sent -> Future.succeededFuture(sent.failed()
        && "message_not_allowed".equals(Failures.codeOf(sent.cause()))))));
  }

  @Test
  @DisplayName("concurrent sends from both sides get distinct, gap-free sequences and history returns them in order")
  void concurrentOrder() throws Exception {
    List<Long> u = newUsers(2);
    long conversation = send(u.get(0), u.get(1), "first").getLong("conversation");
    List<Future<JsonObject>> sends = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      sends.add(messaging.send(u.get(i % 2), u.get((i + 1) % 2), text("n" + i)));
    }
    await(Future.all(sends));
    Set<Long> seen = new HashSet<>();
    sends.forEach(f -> seen.add(f.result().getJsonObject("message").getLong("seq")));
    assertEquals(new HashSet<>(range(2, 41)), seen);
    List<Long> all = new ArrayList<>();
    long after = 0;
    while (true) {
      JsonObject page = await(messaging.history(u.get(0), conversation, new JsonObject(),
          PageRequest.after(String.valueOf(after), 7)).map(Page::toJson));
      if (page.getJsonArray("items").isEmpty()) {
        break;
      }
      List<Long> s = seqs(page);
      all.addAll(s);
      after = s.get(s.size() - 1);
    }
    assertEquals(range(1, 41), all);
  }

  @Test
  @DisplayName("history pages by sequence both ways, from the Redis window and, when it is gone, from MongoDB")
  void paging() throws Exception {
    List<Long> u = newUsers(2);
    long conversation = 0;
    for (int i = 1; i <= 25; i++) {
      conversation = send(u.get(i % 2), u.get((i + 1) % 2), "m" + i).getLong("conversation");
    }
    for (int round = 0; round < 2; round++) {
      JsonObject newest = await(messaging.history(u.get(0), conversation, new JsonObject(), PageRequest.first(5))
          .map(Page::toJson));
      assertEquals(range(21, 25), seqs(newest));
      assertEquals(25L, newest.getLong("last_seq"));
      assertEquals("m25", newest.getJsonArray("items").getJsonObject(4).getString("text"));
      assertEquals(range(16, 20), seqs(await(messaging.history(u.get(1), conversation,
          new JsonObject().put("before_seq", 21), PageRequest.first(5)).map(Page::toJson))));
      // the window holds 10: this page is older than it
      assertEquals(range(1, 4), seqs(await(messaging.history(u.get(1), conversation,
          new JsonObject().put("before_seq", 5), PageRequest.first(100)).map(Page::toJson))));
      assertEquals(range(1, 5), seqs(await(messaging.history(u.get(1), conversation, new JsonObject(),
          new PageRequest(5, 0, 0, "0")).map(Page::toJson))));
      assertEquals(range(23, 25), seqs(await(messaging.history(u.get(1), conversation, new JsonObject(),
          new PageRequest(100, 0, 0, "22")).map(Page::toJson))));
      assertEquals(List.of(), seqs(await(messaging.history(u.get(1), conversation, new JsonObject(),
          new PageRequest(null, 0, 0, "25")).map(Page::toJson))));
      await(platform.redisApi().del(List.of(RecentWindow.key(conversation))));
    }
    failsWith("validation_failed", "limit", messaging.history(u.get(0), conversation, new JsonObject(),
        PageRequest.first(101)));
    failsWith("validation_failed", "after_seq", messaging.history(u.get(0), conversation,
        new JsonObject().put("before_seq", 5), new PageRequest(null, 0, 0, "1")));
  }

  @Test
  @DisplayName("a user who blocked, or was blocked by, the other can neither send nor receive a message, and is "
      + "answered as for a missing user")
  void blocked() throws Exception {
    List<Long> u = newUsers(3);
    long a = u.get(0);
    long b = u.get(1);
    send(a, b, "before the block");
    await(relations.block(b, a));
    ServiceException blocked = failsWith("user_not_found", "to", messaging.send(a, b, text("blocked")));
    failsWith("user_not_found", "to", messaging.send(b, a, text("blocker writes")));
    await(relations.unblock(b, a));
    send(a, b, "after the unblock");
    ServiceException missing = failsWith("user_not_found", "to", messaging.send(a, KithTestKit.newUserId(),
        text("nobody")));
    assertEquals(missing.getMessage(), blocked.getMessage());
    assertEquals(missing.getDebugInfo(), blocked.getDebugInfo());
    failsWith("self_message", "to", messaging.send(a, a, text("me")));
  }

  @Test
  @DisplayName("a recipient who takes messages from friends only refuses others with message_not_allowed")
  void friendsOnly() throws Exception {
    List<Long> u = newUsers(2);
    long a = u.get(0);
    long b = u.get(1);
    JsonObject prefs = await(messaging.updateSettings(b, new JsonObject().put("messages_from", "friends")));
    assertEquals("friends", prefs.getString("messages_from"));
    assertTrue(prefs.getBoolean("read_receipts"));
    ServiceException refused = failsWith("message_not_allowed", null, messaging.send(a, b, text("hi stranger")));
    await(relations.follow(a, b));
    failsWith("message_not_allowed", null, messaging.send(a, b, text("a follower only")));
    await(relations.follow(b, a));
    send(a, b, "now friends");
    assertEquals("this user does not accept messages from you", refused.getMessage());
    failsWith("validation_failed", "messages_from", messaging.updateSettings(b,
        new JsonObject().put("messages_from", "nobody")));
    failsWith("validation_failed", "colour", messaging.updateSettings(b, new JsonObject().put("colour", "red")));
  }

  @Test
  @DisplayName("someone not part of a conversation cannot read it, mark it or type in it: it does not exist for them")
  void notAParty() throws Exception {
    List<Long> u = newUsers(3);
    JsonObject m = send(u.get(0), u.get(1), "private words");
    long conversation = m.getLong("conversation");
    long carol = u.get(2);
    failsWith("conversation_not_found", null, messaging.history(carol, conversation, new JsonObject(),
        TestPages.FIRST));
    failsWith("conversation_not_found", null, messaging.conversation(carol, conversation));
    failsWith("conversation_not_found", null, messaging.markRead(carol, conversation, 1));
    failsWith("conversation_not_found", null, messaging.typing(carol, conversation));
    failsWith("conversation_not_found", null, messaging.history(carol, conversation + 1_000_000, new JsonObject(),
        TestPages.FIRST));
    failsWith("message_not_found", null, messaging.recall(carol, m.getLong("id")));
  }

  @Test
  @DisplayName("text over 4,000 characters, an empty message, a missing client id and a media that is no id are refused")
  void validation() throws Exception {
    List<Long> u = newUsers(2);
    String max = "x".repeat(Messaging.MAX_TEXT);
    assertEquals(max, send(u.get(0), u.get(1), max).getString("text"));
    // counted in characters (code points), not UTF-16 units: 4,000 emoji are allowed
    String emoji = "\uD83D\uDE00".repeat(Messaging.MAX_TEXT);
    assertEquals(emoji, send(u.get(0), u.get(1), emoji).getString("text"));
    failsWith("validation_failed", "text", messaging.send(u.get(0), u.get(1), text(max + "y")));
    failsWith("validation_failed", "text", messaging.send(u.get(0), u.get(1),
        new JsonObject().put("client_id", "c1")));
    failsWith("validation_failed", "client_id", messaging.send(u.get(0), u.get(1),
        new JsonObject().put("text", "no id")));
    failsWith("validation_failed", "client_id", messaging.send(u.get(0), u.get(1),
        new JsonObject().put("text", "long id").put("client_id", "c".repeat(65))));
    // a media is an upload's id (ChatMediaHttpTest sends one); a free-form reference is refused
    failsWith("validation_failed", "media", messaging.send(u.get(0), u.get(1),
        new JsonObject().put("client_id", UUID.randomUUID().toString()).put("media", "media:12345")));
  }

  @Test
  @DisplayName("a sender recalls their own message within the window; not someone else's, not after the window")
  void recall() throws Exception {
    List<Long> u = newUsers(2);
    long a = u.get(0);
    long b = u.get(1);
    JsonObject mine = send(a, b, "oops");
    JsonObject theirs = send(b, a, "reply");
    failsWith("not_your_message", null, messaging.recall(a, theirs.getLong("id")));
    JsonObject recalled = await(messaging.recall(a, mine.getLong("id")));
    assertTrue(recalled.getBoolean("recalled"));
    assertNull(recalled.getString("text"));
    for (long viewer : List.of(a, b)) {
      JsonObject first = await(messaging.history(viewer, mine.getLong("conversation"), new JsonObject(),
          TestPages.FIRST).map(Page::toJson))
          .getJsonArray("items").getJsonObject(0);
      assertEquals(mine.getLong("id"), first.getLong("id"));
      assertTrue(first.getBoolean("recalled"), first.encode());
      assertFalse(first.containsKey("text"), first.encode());
    }
    JsonObject late = send(a, b, "too late to take back");
    await(Poll.until(vertx, Duration.ofSeconds(10), "the recall window to pass", () -> Future.succeededFuture(
        System.currentTimeMillis() - late.getLong("created") > RECALL_SECONDS * 1000L + 50)));
    failsWith("recall_window_passed", null, messaging.recall(a, late.getLong("id")));
    failsWith("message_not_found", null, messaging.recall(a, KithTestKit.newUserId()));
  }

  @Test
  @DisplayName("unread counts are exact: the peer's messages after my read marker, not mine, not recalled ones")
  void unreadCounts() throws Exception {
    List<Long> u = newUsers(2);
    long a = u.get(0);
    long b = u.get(1);
    JsonObject m1 = send(a, b, "one");
    long conversation = m1.getLong("conversation");
    send(a, b, "two");
    JsonObject m3 = send(a, b, "three");
    send(b, a, "b writes");
    JsonObject ofB = conversationOf(b, conversation);
    assertEquals(3L, ofB.getLong("unread"), ofB.encode());
    assertEquals(a, ofB.getJsonObject("peer").getLong("id"));
    assertEquals("b writes", ofB.getJsonObject("last_message").getString("text"));
    assertEquals(1L, conversationOf(a, conversation).getLong("unread"));

    JsonObject marked = await(messaging.markRead(b, conversation, 2));
    assertEquals(2L, marked.getLong("read_seq"));
    assertEquals(1L, marked.getLong("unread"));
    // never backwards
    assertEquals(2L, await(messaging.markRead(b, conversation, 1)).getLong("read_seq"));
    await(messaging.recall(a, m3.getLong("id")));
    assertEquals(0L, conversationOf(b, conversation).getLong("unread"));
    send(a, b, "five");
    assertEquals(1L, conversationOf(b, conversation).getLong("unread"));
    // beyond the end is clamped to the last sequence
    JsonObject all = await(messaging.markRead(b, conversation, 1_000));
    assertEquals(5L, all.getLong("read_seq"));
    assertEquals(0L, all.getLong("unread"));
  }

  @Test
  @DisplayName("a read marker that moves forward appends ConversationRead; one that stays or would go back does not")
  void conversationReadEvent() throws Exception {
    List<Long> u = newUsers(2);
    long a = u.get(0);
    long b = u.get(1);
    long conversation = send(a, b, "one").getLong("conversation");
    send(a, b, "two");
    List<io.kith.platform.events.DomainEvent> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    io.kith.platform.events.EventConsumer consumer = await(platform.events().consume(
        io.kith.messaging.api.MessagingEvents.DOMAIN, "test-" + UUID.randomUUID().toString().substring(0, 8), e -> {
          if (io.kith.messaging.api.MessagingEvents.CONVERSATION_READ.equals(e.type())
              && e.payload().getLong("conversation") == conversation) {
            seen.add(e);
          }
          return Future.succeededFuture();
        }));
    try {
      await(messaging.markRead(b, conversation, 2));
      await(messaging.markRead(b, conversation, 2));
      await(messaging.markRead(b, conversation, 1));
      send(a, b, "three");
      await(messaging.markRead(b, conversation, 99));
      await(Poll.until(vertx, Duration.ofSeconds(20), "two ConversationRead events", () -> Future.succeededFuture(
          seen.size() >= 2)));
      assertEquals(List.of(2L, 3L), seen.stream().map(e -> e.payload().getLong("seq")).toList(), seen.toString());
      JsonObject first = seen.get(0).payload();
      assertEquals(b, first.getLong("user"));
      assertEquals("direct", first.getString("kind"));
    } finally {
      await(consumer.stop());
    }
  }

  @Test
  @DisplayName("a stored message appends one MessageSent event with its ids and a preview")
  void messageSentEvent() throws Exception {
    List<Long> u = newUsers(2);
    List<io.kith.platform.events.DomainEvent> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    io.kith.platform.events.EventConsumer consumer = await(platform.events().consume(
        io.kith.messaging.api.MessagingEvents.DOMAIN, "test-" + UUID.randomUUID().toString().substring(0, 8), e -> {
          seen.add(e);
          return Future.succeededFuture();
        }));
    try {
      JsonObject body = text("x".repeat(150));
      JsonObject m = await(messaging.send(u.get(0), u.get(1), body)).getJsonObject("message");
      await(messaging.send(u.get(0), u.get(1), body));
      await(Poll.until(vertx, Duration.ofSeconds(20), "the MessageSent event", () -> Future.succeededFuture(
          seen.stream().anyMatch(e -> m.getLong("id").equals(e.payload().getLong("message"))))));
      // the retry appended nothing: a marker message sent after it arrives with no second event before it
      JsonObject marker = send(u.get(0), u.get(1), "marker");
      await(Poll.until(vertx, Duration.ofSeconds(20), "the marker event", () -> Future.succeededFuture(
          seen.stream().anyMatch(e -> marker.getLong("id").equals(e.payload().getLong("message"))))));
      List<JsonObject> mine = seen.stream().map(io.kith.platform.events.DomainEvent::payload)
          .filter(p -> m.getLong("id").equals(p.getLong("message"))).toList();
      assertEquals(1, mine.size(), mine.toString());
      JsonObject p = mine.get(0);
      assertEquals(u.get(0), p.getLong("from"));
      assertEquals(new JsonArray().add(u.get(1)), p.getJsonArray("to"));
      assertEquals(m.getLong("conversation"), p.getLong("conversation"));
      assertEquals(m.getLong("seq"), p.getLong("seq"));
      assertEquals(100, p.getString("preview").length());
      assertEquals(io.kith.messaging.api.MessagingEvents.MESSAGE_SENT,
          seen.stream().filter(e -> m.getLong("id").equals(e.payload().getLong("message"))).findFirst().get().type());
    } finally {
      await(consumer.stop());
    }
  }

  @Test
  @DisplayName("the bridge addresses act as the stamped sender header only: without it nothing is sent")
  void bridgeAddressNeedsSender() throws Exception {
    List<Long> u = newUsers(2);
    JsonObject body = text("no header").put("to", u.get(1)).put("sender", u.get(0));
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(vertx.eventBus()
        .request(Messaging.BRIDGE_SEND, body)));
    assertEquals(401, ((ReplyException) e.getCause()).failureCode());
    assertEquals("unauthenticated", e.getCause().getMessage());
    JsonObject sent = (JsonObject) await(vertx.eventBus().request(Messaging.BRIDGE_SEND, text("with header")
        .put("to", u.get(1)), new DeliveryOptions().addHeader(Addresses.SENDER_HEADER, Long.toString(u.get(0)))))
        .body();
    assertEquals(u.get(0), sent.getJsonObject("message").getLong("sender"));
    ExecutionException refused = assertThrows(ExecutionException.class, () -> await(vertx.eventBus()
        .request(Messaging.BRIDGE_SEND, text("to myself").put("to", u.get(0)),
            new DeliveryOptions().addHeader(Addresses.SENDER_HEADER, Long.toString(u.get(0))))));
    assertEquals(400, ((ReplyException) refused.getCause()).failureCode());
    assertEquals("self_message", refused.getCause().getMessage());
  }

  @Test
  @DisplayName("the conversations list is newest first with the peer's summary and pages with next")
  void conversationsList() throws Exception {
    List<Long> u = newUsers(4);
    long me = u.get(0);
    List<Long> convs = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      convs.add(send(u.get(i), me, "hi from " + i).getLong("conversation"));
    }
    send(me, u.get(1), "back to the first");
    JsonObject page = await(messaging.conversations(me, PageRequest.first(2)).map(Page::toJson));
    JsonArray items = page.getJsonArray("items");
    assertEquals(List.of(convs.get(0), convs.get(2)), List.of(items.getJsonObject(0).getLong("id"),
        items.getJsonObject(1).getLong("id")));
    assertEquals(u.get(1), items.getJsonObject(0).getJsonObject("peer").getLong("id"));
    assertTrue(items.getJsonObject(0).getJsonObject("peer").containsKey("username"));
    JsonObject rest = await(messaging.conversations(me, new PageRequest(2, 0, 0, page.getString("next")))
        .map(Page::toJson));
    assertEquals(1, rest.getJsonArray("items").size());
    assertEquals(convs.get(1), rest.getJsonArray("items").getJsonObject(0).getLong("id"));
    assertNull(rest.getString("next"));
    failsWith("validation_failed", "before", messaging.conversations(me, new PageRequest(null, 0, 0, "x")));
  }
}
