package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Direct sends that arrive together are written to MongoDB in batches ({@link DirectCommits}); these tests send
 * bursts through the service proxy, so that sends wait for the batch in flight and go together, and check what a
 * client sees: answers, sequences, history and pushes.
 */
@DisplayName("Direct messages written in batches")
class DirectBatchesTest extends MessagingTestBase {

  @Test
  @DisplayName("a send the store refuses inside a burst (a retry of a stored message) is answered with the first, and "
      + "the sends of every conversation around it land without gaps")
  void refusedInsideBatch() throws Exception {
    List<Long> u = newUsers(6);
    JsonObject stored = send(u.get(0), u.get(1), "first");
    JsonObject retry = text("again").put("client_id", stored.getString("client_id"));
    List<Future<JsonObject>> sends = new ArrayList<>();
    Future<JsonObject> retried = null;
    for (int i = 0; i < 45; i++) {
      int pair = i % 3;
      sends.add(messaging.send(u.get(2 * pair), u.get(2 * pair + 1), text("n" + i)));
      if (i == 20) {
        retried = messaging.send(u.get(0), u.get(1), retry);
      }
    }
    await(Future.all(sends));
    JsonObject answer = await(retried);
    assertTrue(answer.getBoolean("duplicate"));
    assertEquals(stored.getLong("id"), answer.getJsonObject("message").getLong("id"));
    assertEquals(1L, answer.getJsonObject("message").getLong("seq"));
    for (int pair = 0; pair < 3; pair++) {
      Set<Long> seqs = new HashSet<>();
      long conversation = 0;
      for (int i = pair; i < sends.size(); i += 3) {
        JsonObject message = sends.get(i).result().getJsonObject("message");
        assertFalse(sends.get(i).result().getBoolean("duplicate"));
        seqs.add(message.getLong("seq"));
        conversation = message.getLong("conversation");
      }
      List<Long> expected = pair == 0 ? range(2, 16) : range(1, 15);
      assertEquals(new HashSet<>(expected), seqs, "pair " + pair + ": distinct sequences without gaps");
      List<Long> all = history(u.get(2 * pair + 1), conversation);
      assertEquals(pair == 0 ? range(1, 16) : range(1, 15), all, "pair " + pair + ": history holds each once");
    }
  }

  @Test
  @DisplayName("one client id sent many times at once is stored once, answered with the same message each time, and "
      + "uses no sequence of its own more than once")
  void duplicateInsideBatch() throws Exception {
    List<Long> u = newUsers(2);
    send(u.get(0), u.get(1), "opening");
    JsonObject same = text("the same one");
    List<Future<JsonObject>> repeats = new ArrayList<>();
    List<Future<JsonObject>> others = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      others.add(messaging.send(u.get(0), u.get(1), text("other " + i)));
      repeats.add(messaging.send(u.get(0), u.get(1), same.copy()));
    }
    await(Future.all(repeats));
    await(Future.all(others));
    Set<Long> ids = new HashSet<>();
    int firsts = 0;
    for (Future<JsonObject> f : repeats) {
      ids.add(f.result().getJsonObject("message").getLong("id"));
      firsts += f.result().getBoolean("duplicate") ? 0 : 1;
    }
    assertEquals(1, ids.size(), "every answer is the same message");
    assertEquals(1, firsts, "exactly one answer is the new message, the others say duplicate");
    Set<Long> seqs = new HashSet<>();
    others.forEach(f -> seqs.add(f.result().getJsonObject("message").getLong("seq")));
    seqs.add(repeats.get(0).result().getJsonObject("message").getLong("seq"));
    assertEquals(new HashSet<>(range(2, 12)), seqs, "eleven messages after the opening one, without gaps");
    long conversation = repeats.get(0).result().getJsonObject("message").getLong("conversation");
    assertEquals(range(1, 12), history(u.get(1), conversation));
  }

  @Test
  @DisplayName("messages sent at once reach the recipient in sequence order, and their ids follow the same order")
  void pushesInSequenceOrder() throws Exception {
    List<Long> u = newUsers(2);
    List<JsonObject> pushed = Collections.synchronizedList(new ArrayList<>());
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.user(u.get(1)), m -> {
      if (Messaging.PUSH_MESSAGE.equals(m.body().getString("kind"))) {
        pushed.add(m.body().getJsonObject("message"));
      }
    });
    await(consumer.completion());
    try {
      List<Future<JsonObject>> sends = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        sends.add(messaging.send(u.get(0), u.get(1), text("n" + i)));
      }
      await(Future.all(sends));
      await(Poll.until(vertx, Duration.ofSeconds(30), "every push received",
          () -> Future.succeededFuture(pushed.size() >= 40)));
      List<Long> seqs = new ArrayList<>();
      List<Long> ids = new ArrayList<>();
      synchronized (pushed) {
        pushed.forEach(m -> {
          seqs.add(m.getLong("seq"));
          ids.add(m.getLong("id"));
        });
      }
      assertEquals(range(1, 40), seqs, "pushed in sequence order, each once");
      List<Long> sorted = new ArrayList<>(ids);
      Collections.sort(sorted);
      assertEquals(sorted, ids, "ids grow with the sequence");
    } finally {
      await(consumer.unregister());
    }
  }

  /** Every sequence of the conversation, by after_seq paging as a reconnecting client reads it. */
  private List<Long> history(long reader, long conversation) throws Exception {
    return await(TestPages.allMessages(messaging, reader, conversation)).stream().map(m -> m.getLong("seq")).toList();
  }
}
