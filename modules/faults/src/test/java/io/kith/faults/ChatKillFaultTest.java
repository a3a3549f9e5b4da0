package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** kill -9 of a node while three conversations chat through all three gateways. */
class ChatKillFaultTest extends FaultTestBase {

  private static final int PAIRS = 3;
  private static final int MESSAGES_PER_PAIR = 80;

  @Test
  @DisplayName("kill -9 of a node during chat: every acknowledged message is in history once, caught up by sequence, "
      + "and sends fail over to the surviving gateways")
  void killDuringChat() throws Exception {
    start("chat-kill", Map.of());
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
      assertEquals(MESSAGES_PER_PAIR, acknowledged.get(p).size(), "one acknowledgement per send");
      History.assertHoldsEach(api, gateways.get(p % 2), pairs.get(p)[1], acknowledged.get(p).values());
    }
  }
}
