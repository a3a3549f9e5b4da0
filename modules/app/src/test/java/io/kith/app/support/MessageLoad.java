package io.kith.app.support;

import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Direct messages sent one after another from one user to another on a thread of their own while a store fails
 * over: a 201 is an acknowledged message (its id kept), a 503 {@code unavailable} a refusal while the store is away;
 * anything else is kept as unexpected. {@link #assertAllInHistory} then checks that no acknowledged message was lost.
 */
public final class MessageLoad implements Runnable {

  /** The acknowledged messages' ids. */
  public final List<Long> acknowledged = new CopyOnWriteArrayList<>();
  /** Replies that were neither a 201 nor a coded 503. */
  public final List<String> unexpected = new CopyOnWriteArrayList<>();
  private final TestKith kith;
  private final User from;
  private final User to;
  private final Duration patience;
  private volatile boolean stopped;
  private Thread thread;

  /** Messages from {@code from} to {@code to} on {@code kith}; waits end after {@code patience}. */
  public MessageLoad(TestKith kith, User from, User to, Duration patience) {
    this.kith = kith;
    this.from = from;
    this.to = to;
    this.patience = patience;
  }

  /** Starts sending. */
  public MessageLoad start() {
    thread = new Thread(this, "message-load");
    thread.start();
    return this;
  }

  /** Stops sending and waits for the last send to be answered. */
  public void stop() throws InterruptedException {
    stopped = true;
    if (thread != null) {
      thread.join(TimeUnit.MINUTES.toMillis(3));
    }
  }

  /** Waits until {@code count} sends were acknowledged, failing at once on an unexpected reply. */
  public void awaitAcknowledged(int count) {
    Await.result(Poll.until(kith.client(), patience, count + " acknowledged sends",
        () -> Future.succeededFuture(acknowledged.size() >= count || !unexpected.isEmpty())));
    assertEquals(List.of(), unexpected, "an unexpected reply while sending");
  }

  /**
   * Checks that every acknowledged message is in the receiver's history of {@code conversation} (waiting for the
   * store to catch up) and that no sequence number appears twice.
   */
  public void assertAllInHistory(long conversation) {
    assertEquals(List.of(), unexpected, "every send answered 201, or 503 unavailable while the store failed over");
    Set<Long> all = new TreeSet<>(acknowledged);
    Await.result(Poll.until(kith.client(), patience, "every acknowledged message in the receiver's history",
        () -> Future.succeededFuture(new TreeSet<>(page(conversation, "id")).containsAll(all))));
    List<Long> seqs = page(conversation, "seq");
    assertEquals(new TreeSet<>(seqs).size(), seqs.size(), "no sequence twice: " + seqs);
  }

  // every message of the conversation as the receiver reads it, following after_seq
  private List<Long> page(long conversation, String member) {
    List<Long> out = new ArrayList<>();
    long after = 0;
    while (true) {
      JsonObject page = kith.get("/conversations/" + conversation + "/messages?after_seq=" + after + "&limit=100",
          to).expect(200);
      if (page.getJsonArray("items").isEmpty()) {
        return out;
      }
      for (Object m : page.getJsonArray("items")) {
        out.add(((JsonObject) m).getLong(member));
        after = ((JsonObject) m).getLong("seq");
      }
    }
  }

  @Override
  public void run() {
    while (!stopped && unexpected.isEmpty()) {
      JsonObject body = new JsonObject().put("text", "load").put("client_id", UUID.randomUUID().toString());
      try {
        // the request deadline (http.request-timeout-seconds) answers long before this wait ends
        Reply reply = kith.send(HttpMethod.POST, "/api/v1/direct/" + to.path() + "/messages", from.access(), body)
            .toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
        if (reply.status() == 201) {
          acknowledged.add(reply.json().getJsonObject("message").getLong("id"));
        } else if (reply.status() != 503 || !"unavailable".equals(reply.json().getString("code"))) {
          unexpected.add(reply.status() + " " + reply.text());
        }
      } catch (Exception e) {
        unexpected.add(e.toString());
      }
    }
  }
}
