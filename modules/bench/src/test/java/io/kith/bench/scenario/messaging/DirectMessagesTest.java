package io.kith.bench.scenario.messaging;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The matching of sends with their pushes, against a sender that records what it was asked to send. */
class DirectMessagesTest {

  private static final DirectMessages.Pair A_TO_B = new DirectMessages.Pair(0, 10, 2, 20);
  private static final DirectMessages.Pair C_TO_D = new DirectMessages.Pair(1, 11, 3, 21);

  /** A send waiting for its reply: which connection, what body, and the reply to give. */
  private record Sent(int connection, JsonObject body, Promise<JsonObject> reply) {
  }

  private final List<Sent> sent = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong();
  private final DirectMessages messages = new DirectMessages((connection, body) -> {
    Promise<JsonObject> reply = Promise.promise();
    sent.add(new Sent(connection, body, reply));
    return reply.future();
  }, List.of(A_TO_B, C_TO_D), "hello", clock::get);

  /** The push the service sends for {@code body} from {@code sender}. */
  private static JsonObject push(long sender, JsonObject body) {
    return new JsonObject().put("kind", "message").put("message", new JsonObject().put("id", 99)
        .put("sender", sender).put("to", body.getLong("to")).put("client_id", body.getString("client_id"))
        .put("text", body.getString("text")));
  }

  private static JsonObject reply(JsonObject pushed, boolean duplicate) {
    return new JsonObject().put("message", pushed.getJsonObject("message")).put("duplicate", duplicate);
  }

  @Test
  @DisplayName("senders take turns, each send goes on its sender's connection with a fresh client id and the text")
  void sendsInTurn() {
    messages.send();
    messages.send();
    messages.send();
    assertEquals(List.of(0, 1, 0), sent.stream().map(Sent::connection).toList());
    assertEquals(List.of(20L, 21L, 20L), sent.stream().map(s -> s.body().getLong("to")).toList());
    Set<String> ids = new HashSet<>();
    sent.forEach(s -> ids.add(s.body().getString("client_id")));
    assertEquals(3, ids.size(), "client ids are unique");
    assertTrue(sent.stream().allMatch(s -> s.body().getString("text").equals("hello")));
  }

  @Test
  @DisplayName("a send completes when the recipient gets the push, before the reply; the sender's copy is counted")
  void completesOnThePush() {
    Future<JsonObject> done = messages.send(A_TO_B);
    JsonObject body = sent.get(0).body();
    messages.onPush(10, push(10, body));
    assertFalse(done.isComplete(), "the sender's own copy is not the delivery");
    assertEquals(1, messages.senderCopies());
    messages.onPush(20, push(10, body));
    assertTrue(done.succeeded());
    assertEquals(body.getString("client_id"), done.result().getString("client_id"));
    sent.get(0).reply().complete(reply(push(10, body), false));
    assertEquals(1, messages.delivered());
    assertEquals(0, messages.waiting());
    assertEquals(0, messages.failedAfterDelivery());
  }

  @Test
  @DisplayName("a failed or wrong reply fails the send; after the push it is counted instead")
  void replyProblems() {
    Future<JsonObject> failed = messages.send(A_TO_B);
    sent.get(0).reply().fail("bridge error: rate_limited (code 429)");
    assertTrue(failed.failed());
    assertTrue(failed.cause().getMessage().contains("rate_limited"), failed.cause().getMessage());

    Future<JsonObject> duplicate = messages.send(A_TO_B);
    sent.get(1).reply().complete(reply(push(10, sent.get(1).body()), true));
    assertTrue(duplicate.failed());

    Future<JsonObject> late = messages.send(A_TO_B);
    JsonObject body = sent.get(2).body();
    messages.onPush(20, push(10, body));
    assertTrue(late.succeeded());
    sent.get(2).reply().fail("bridge error: internal (code 500)");
    assertEquals(1, messages.failedAfterDelivery());
    assertEquals(0, messages.waiting());
  }

  @Test
  @DisplayName("a push naming other users fails the send; a push nobody waits for is late")
  void wrongPushes() {
    Future<JsonObject> misdelivered = messages.send(A_TO_B);
    JsonObject body = sent.get(0).body();
    messages.onPush(21, push(10, body));
    assertTrue(misdelivered.failed());
    assertTrue(misdelivered.cause().getMessage().contains("delivered to 21"), misdelivered.cause().getMessage());
    messages.onPush(20, push(10, body.copy().put("client_id", "not-ours")));
    assertEquals(1, messages.late());
    messages.onPush(20, new JsonObject().put("kind", "typing").put("conversation", 5));
    assertEquals(1, messages.late(), "other kinds are ignored");
  }

  @Test
  @DisplayName("sends whose push does not come are dropped by the sweep once old enough, oldest first")
  void sweepsLostSends() {
    Future<JsonObject> first = messages.send(A_TO_B);
    clock.set(1_000);
    Future<JsonObject> second = messages.send(C_TO_D);
    clock.set(1_500);
    messages.sweep(1_000);
    assertTrue(first.failed());
    assertFalse(second.isComplete());
    assertEquals(1, messages.lost());
    assertEquals(1, messages.waiting());
    messages.onPush(20, push(10, sent.get(0).body()));
    assertEquals(1, messages.late(), "its push, if it comes after all, is late");
  }

  @Test
  @DisplayName("message text has the asked length and never ends blank")
  void text() {
    for (int n : new int[] {1, 4, 44, 45, 100, 4000}) {
      String text = DirectMessages.text(n);
      assertEquals(n, text.length());
      assertFalse(text.isBlank());
      assertFalse(text.endsWith(" "));
    }
    assertNull(DirectMessages.replyProblem(new JsonObject().put("message", new JsonObject().put("client_id", "x"))
        .put("duplicate", false), "x"));
  }
}
