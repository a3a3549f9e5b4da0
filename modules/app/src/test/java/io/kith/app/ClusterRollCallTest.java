package io.kith.app;

import io.kith.platform.bus.NodeRollCall;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operators' roll call ({@link NodeRollCall}, behind {@code GET /api/v1/admin/system}) across two clustered nodes
 * in this JVM on loopback: each node answers with the modules it runs, and a node that left is no longer counted.
 */
@ExtendWith(KithTestKit.class)
class ClusterRollCallTest {

  private final String clusterName = "kith-test-" + UUID.randomUUID();
  private final int portA = FreePorts.pick();
  private final int portB = FreePorts.pick();
  private final List<Kith> nodes = new ArrayList<>();

  @AfterEach
  void stop() {
    for (Kith node : nodes) {
      Await.result(node.stop());
    }
  }

  private Kith start(int hzPort, String... modules) {
    JsonObject cluster = new JsonObject().put("enabled", true).put("name", clusterName).put("host", "127.0.0.1")
        .put("port", hzPort).put("members", new JsonArray().add("127.0.0.1:" + portA).add("127.0.0.1:" + portB))
        .put("join-wait-seconds", 0);
    JsonObject config = new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray(List.of(modules))))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("cluster", cluster);
    Kith node = Await.result(Kith.start(KithTestKit.config(config)));
    nodes.add(node);
    return node;
  }

  /** The modules of each answering node, polled until {@code expected} nodes answered (the cluster's view settles). */
  private Set<List<String>> rollCall(Kith caller, int expected) {
    AtomicReference<List<JsonObject>> last = new AtomicReference<>(List.of());
    Await.result(Poll.until(caller.vertx(), Duration.ofSeconds(60), expected + " nodes answering the roll call",
        () -> NodeRollCall.call(caller.vertx(), expected, 10_000).map(answers -> {
          last.set(answers);
          return answers.size() == expected;
        })));
    return last.get().stream().map(a -> a.getJsonArray("modules").stream().map(String::valueOf).toList())
        .collect(Collectors.toSet());
  }

  @Test
  @DisplayName("every node of the cluster answers with the modules it runs, and a stopped node no longer answers")
  void eachNodeAnswers() {
    Kith a = start(portA, "accounts", "gateway");
    Kith b = start(portB, "echo");
    assertEquals(Set.of(List.of("accounts", "gateway"), List.of("echo")), rollCall(a, 2));
    List<JsonObject> answers = Await.result(NodeRollCall.call(b.vertx(), 2, 10_000));
    assertTrue(answers.stream().allMatch(n -> n.getBoolean("clustered")), answers.toString());

    Await.result(b.stop());
    nodes.remove(b);
    // asked for two, the roll call waits out its deadline and answers the one node left
    List<JsonObject> left = Await.result(NodeRollCall.call(a.vertx(), 2, 10_000));
    assertEquals(1, left.size(), left.toString());
    assertEquals(List.of("accounts", "gateway"), left.get(0).getJsonArray("modules").getList());
  }
}
