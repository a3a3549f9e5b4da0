package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SIGSTOP of a node for longer than the member timeout, then SIGCONT. */
class StallFaultTest extends FaultTestBase {

  /** The stall: well past the member timeout (cluster.member-timeout-seconds, 10 s by default). */
  private static final Duration STALL = Duration.ofSeconds(45);
  /**
   * Calls started this long after the SIGSTOP must all succeed: the member timeout, plus one service deadline for a
   * call already sent to the stalled node, with room for a busy machine.
   */
  private static final Duration FAILOVER = Duration.ofSeconds(20);
  /**
   * After SIGCONT the resumed node, which lost the others during its stall, is a cluster of its own until Hazelcast's
   * split-brain merge joins it back (cluster.merge-first-delay-seconds 10, then every merge-next-delay-seconds 5):
   * well within this on a busy machine, where Hazelcast's own delays (300 s, then 120 s) would not be.
   */
  private static final Duration MERGE = Duration.ofSeconds(120);

  /** One call: when it started (ms after the SIGSTOP) and its answer. */
  record Call(long startedMs, Api.Reply reply) {
  }

  @Test
  @DisplayName("SIGSTOP of a node past the member timeout: calls through the healthy gateways fail over within "
      + "seconds and keep succeeding for the rest of the stall, the stalled node is evicted, and after SIGCONT the "
      + "split heals (every node's /ready counts three members) and every gateway answers again; bridge clients on "
      + "both sides are told to resync, and the resumed node keeps its connection")
  void stallThenResume() throws Exception {
    start("stall", Map.of());
    Api api = cluster.api;
    List<KithNode> healthy = cluster.nodes().subList(0, 2);
    KithNode stalled = cluster.node(2);
    Api.User alice = api.register(healthy.get(0));
    Api.User bob = api.register(healthy.get(1));
    // the calls spread over every node's services before the fault
    for (int i = 0; i < 6; i++) {
      api.get(healthy.get(i % 2), "/me", alice).expect(200);
    }
    Vertx vertx = Vertx.vertx();
    try {
      // alice's app is connected to a healthy node, bob's to the one that will stall
      Pushes onHealthy = Pushes.open(vertx, api, healthy.get(0), alice, bob);
      Pushes onStalled = Pushes.open(vertx, api, stalled, bob, alice);
      stallAndResume(healthy, stalled, alice, bob, onHealthy, onStalled);
    } finally {
      vertx.close();
    }
  }

  private void stallAndResume(List<KithNode> healthy, KithNode stalled, Api.User alice, Api.User bob,
                              Pushes onHealthy, Pushes onStalled) throws Exception {
    Api api = cluster.api;

    List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stalling = new AtomicBoolean(true);
    int logAtStop = Files.readString(healthy.get(0).log()).length();
    long stoppedAt = System.nanoTime();
    stalled.pause();
    ExecutorService clients = Executors.newFixedThreadPool(4);
    List<Future<?>> running = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      KithNode gateway = healthy.get(t % 2);
      boolean sends = t >= 2;
      running.add(clients.submit(() -> {
        while (stalling.get()) {
          long started = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
          Api.Reply reply = sends
              ? api.post(gateway, "/direct/" + bob.id() + "/messages", alice, new JsonObject()
                  .put("client_id", UUID.randomUUID().toString()).put("text", "during the stall"))
              : api.get(gateway, "/me", alice);
          calls.add(new Call(started, reply));
          Thread.sleep(reply.status() / 100 == 2 ? 100 : 200);
        }
        return null;
      }));
    }
    Thread.sleep(STALL.toMillis()); // the fault's length, not a wait for a result
    stalling.set(false);
    for (Future<?> f : running) {
      f.get(2, TimeUnit.MINUTES);
    }
    clients.shutdown();
    // the healthy nodes evicted it (Hazelcast logged the new member list during the stall)
    String logged = Files.readString(healthy.get(0).log()).substring(logAtStop);
    assertTrue(logged.contains("Members {size:2"), "node-1 evicted the stalled node:\n" + logged);
    // pushes published on the stalled side meanwhile never reached alice's node: her app must catch up
    onHealthy.awaitResync("node 1 lost node 3");
    stalled.resume();

    List<String> wrong = calls.stream().filter(c -> c.reply().status() / 100 != 2 && !c.reply().isAllowedRefusal())
        .map(Call::toString).toList();
    assertEquals(List.of(), wrong, "through a healthy gateway every failure is 503/429 problem+json");
    List<Call> late = calls.stream().filter(c -> c.startedMs() > FAILOVER.toMillis()).toList();
    assertTrue(late.size() >= 10, "calls went on during the stall: " + late.size());
    List<String> lateFailures = late.stream().filter(c -> c.reply().status() / 100 != 2).map(Call::toString).toList();
    assertEquals(List.of(), lateFailures, "calls started " + FAILOVER + " after the SIGSTOP ("
        + calls.stream().filter(c -> c.reply().status() / 100 != 2).count() + " of " + calls.size()
        + " calls failed in all)");

    // after SIGCONT the two sides merge: every node, the resumed one included, counts three members again
    long mergeDeadline = System.nanoTime() + MERGE.toNanos();
    for (KithNode node : cluster.nodes()) {
      while (members(api, node) != 3) {
        assertTrue(System.nanoTime() < mergeDeadline, node + " counts three cluster members within " + MERGE
            + " of SIGCONT: " + api.root(node, "/ready"));
        Thread.sleep(500);
      }
    }

    // the resumed node lost the others for a while (and got them back): bob's app, connected to it, must catch up,
    // on the connection it kept through the stall
    onStalled.awaitResync("node 3 lost the other members");
    assertTrue(onStalled.open(), "the resumed node kept bob's bridge connection");

    // after SIGCONT every gateway, the resumed one included, answers again without a restart
    for (KithNode node : cluster.nodes()) {
      new Load().acknowledged(List.of(node), 0, n -> api.get(n, "/me", alice));
    }
  }

  /** The cluster members {@code node}'s /ready check counts; 0 when it gives no count. */
  private static int members(Api api, KithNode node) {
    Api.Reply ready = api.root(node, "/ready");
    if (!ready.contentType().startsWith("application/json")) {
      return 0;
    }
    for (Object c : ready.json().getJsonArray("checks", new JsonArray())) {
      JsonObject check = (JsonObject) c;
      if ("cluster".equals(check.getString("id"))) {
        return check.getJsonObject("data", new JsonObject()).getInteger("members", 0);
      }
    }
    return 0;
  }
}
