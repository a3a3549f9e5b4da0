package io.kith.faults;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kill -9 of a node while three conversations chat through all three gateways. */
class ChatKillFaultTest {

  private static final int PAIRS = 3;
  private static final int MESSAGES_PER_PAIR = 80;

  private FaultCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @DisplayName("kill -9 of a node during chat: every acknowledged message is in history once, caught up by sequence, "
      + "and sends fail over to the surviving gateways")
  void killDuringChat() throws Exception {
    cluster = FaultCluster.start("chat-kill", Map.of());
    Api api = cluster.api;
    List<KithNode> gateways = cluster.nodes();
    List<Api.User[]> pairs = new ArrayList<>();
    for (int i = 0; i < PAIRS; i++) {
      pairs.add(new Api.User[] {api.register(gateways.get(i)), api.register(gateways.get((i + 1) % 3))});
    }
    Load load = new Load();
    // per pair: client_id -> the acknowledged message
    List<Map<String, JsonObject>> acknowledged = new ArrayList<>();
    AtomicInteger sent = new AtomicInteger();
    ExecutorService senders = Executors.newFixedThreadPool(PAIRS);
    List<Future<?>> running = new ArrayList<>();
    for (int p = 0; p < PAIRS; p++) {
      Api.User from = pairs.get(p)[0];
      Api.User to = pairs.get(p)[1];
      Map<String, JsonObject> acks = new ConcurrentHashMap<>();
      acknowledged.add(acks);
      int offset = p;
      running.add(senders.submit(() -> {
        for (int k = 0; k < MESSAGES_PER_PAIR; k++) {
          String clientId = UUID.randomUUID().toString();
          JsonObject body = new JsonObject().put("client_id", clientId).put("text", "m" + k);
          Api.Reply ack = load.acknowledged(gateways, k + offset,
              node -> api.post(node, "/direct/" + to.id() + "/messages", from, body));
          acks.put(clientId, ack.json().getJsonObject("message"));
          sent.incrementAndGet();
        }
        return null;
      }));
    }
    KithNode victim = cluster.node(2);
    while (sent.get() < PAIRS * MESSAGES_PER_PAIR / 4) {
      Thread.sleep(20);
    }
    load.faulted(victim);
    victim.kill();
    for (Future<?> f : running) {
      f.get(10, TimeUnit.MINUTES); // each send has its own deadline (Load.ACK_DEADLINE): this only catches a hang
    }
    senders.shutdown();

    load.assertRefusalsAllowed();
    for (int p = 0; p < PAIRS; p++) {
      assertHistoryHoldsEach(api, gateways.get(p % 2), pairs.get(p)[1], acknowledged.get(p));
    }
  }

  // Catch-up by sequence as the receiver (after_seq from 0, pages of 50): each acknowledged message once, in order.
  private static void assertHistoryHoldsEach(Api api, KithNode through, Api.User reader,
                                             Map<String, JsonObject> acks) throws Exception {
    assertEquals(MESSAGES_PER_PAIR, acks.size(), "one acknowledgement per send");
    long conversation = acks.values().iterator().next().getLong("conversation");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<JsonObject> history;
    // history stops before a sequence number still being written (messaging.settle-millis): poll until it settles
    while (true) {
      history = catchUp(api, through, reader, conversation);
      Set<Long> ids = new HashSet<>();
      history.forEach(m -> ids.add(m.getLong("id")));
      boolean complete = acks.values().stream().allMatch(m -> ids.contains(m.getLong("id")));
      if (complete || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(500);
    }
    List<Long> seqs = history.stream().map(m -> m.getLong("seq")).toList();
    for (int i = 1; i < seqs.size(); i++) {
      assertTrue(seqs.get(i) > seqs.get(i - 1), "sequence numbers strictly increase: " + seqs);
    }
    Set<String> clientIds = new HashSet<>();
    history.forEach(m -> assertTrue(clientIds.add(m.getString("client_id")), "no duplicate: " + m));
    Set<Long> ids = new HashSet<>();
    history.forEach(m -> ids.add(m.getLong("id")));
    List<JsonObject> missing = acks.values().stream().filter(m -> !ids.contains(m.getLong("id"))).toList();
    assertEquals(List.of(), missing, "acknowledged messages missing from history");
    assertEquals(acks.keySet(), clientIds, "history holds exactly the acknowledged messages");
  }

  private static List<JsonObject> catchUp(Api api, KithNode through, Api.User reader, long conversation) {
    List<JsonObject> out = new ArrayList<>();
    long after = 0;
    for (int pages = 0; pages < 1000; pages++) {
      JsonObject page = api.get(through, "/conversations/" + conversation + "/messages?after_seq=" + after
          + "&limit=50", reader).expect(200);
      if (page.getJsonArray("items").isEmpty()) {
        return out;
      }
      page.getJsonArray("items").forEach(m -> out.add((JsonObject) m));
      after = out.get(out.size() - 1).getLong("seq");
    }
    throw new AssertionError("paging never ended");
  }
}
