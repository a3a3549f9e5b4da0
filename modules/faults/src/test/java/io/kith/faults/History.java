package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A conversation's history as a client catches up on it: by sequence (after_seq from 0, pages of 50). */
final class History {

  private History() {
  }

  /**
   * Asserts that catching up on the conversation of {@code acknowledged} as {@code reader} gives each acknowledged
   * message exactly once, in strictly increasing sequence, and nothing else. History stops before a sequence number
   * still being written (messaging.settle-millis), so it is read until it holds them all or 60 s have passed.
   */
  static void assertHoldsEach(Api api, KithNode through, Api.User reader, Collection<JsonObject> acknowledged)
      throws InterruptedException {
    long conversation = acknowledged.iterator().next().getLong("conversation");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<JsonObject> history;
    Set<Long> ids = new HashSet<>();
    do {
      history = catchUp(api, through, reader, conversation);
      ids.clear();
      history.forEach(m -> ids.add(m.getLong("id")));
      if (acknowledged.stream().allMatch(m -> ids.contains(m.getLong("id"))) || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(500);
    } while (true);
    List<Long> seqs = history.stream().map(m -> m.getLong("seq")).toList();
    for (int i = 1; i < seqs.size(); i++) {
      assertTrue(seqs.get(i) > seqs.get(i - 1), "sequence numbers strictly increase: " + seqs);
    }
    Set<String> clientIds = new HashSet<>();
    history.forEach(m -> assertTrue(clientIds.add(m.getString("client_id")), "no duplicate: " + m));
    assertEquals(List.of(), acknowledged.stream().filter(m -> !ids.contains(m.getLong("id"))).toList(),
        "acknowledged messages missing from history");
    Set<String> acknowledgedClientIds = new HashSet<>();
    acknowledged.forEach(m -> acknowledgedClientIds.add(m.getString("client_id")));
    assertTrue(clientIds.containsAll(acknowledgedClientIds), "history holds every acknowledged message");
  }

  private static List<JsonObject> catchUp(Api api, KithNode through, Api.User reader, long conversation)
      throws InterruptedException {
    List<JsonObject> out = new ArrayList<>();
    long after = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (int pages = 0; pages < 1000; pages++) {
      String path = "/conversations/" + conversation + "/messages?after_seq=" + after + "&limit=50";
      Api.Reply reply = api.get(through, path, reader);
      // a node whose Redis circuit is still open after a store fault answers 503 unavailable for a few seconds, as
      // a client is told to expect (Retry-After): come back, as a client does
      while (reply.status() == 503 && System.nanoTime() < deadline) {
        Thread.sleep(500);
        reply = api.get(through, path, reader);
      }
      JsonObject page = reply.expect(200);
      if (page.getJsonArray("items").isEmpty()) {
        return out;
      }
      page.getJsonArray("items").forEach(m -> out.add((JsonObject) m));
      after = out.get(out.size() - 1).getLong("seq");
    }
    throw new AssertionError("paging never ended");
  }
}
