package io.kith.app;

import io.kith.app.support.TestNode;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.probe.Probe;
import io.kith.platform.testkit.probe.ProbeService;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which node answers a service call, with two clustered Kith nodes in this JVM on loopback: a node that runs the
 * service answers its own calls, one that does not (or no longer does) has them answered by the other. Each test
 * binds a stand-in service ({@link ProbeService}) on an address of its own, on the nodes it chooses.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterLocalCallsTest {

  private static final int CALLS = 20;
  private static final Duration WAIT = Duration.ofSeconds(30);

  private Kith nodeA;
  private Kith nodeB;
  private final Map<Probe, ServiceBindings> bound = new ConcurrentHashMap<>();

  @BeforeAll
  void startCluster() throws Exception {
    String clusterName = "kith-test-" + UUID.randomUUID();
    int portA = FreePorts.pick();
    int portB = FreePorts.pick();
    JsonArray members = new JsonArray().add("127.0.0.1:" + portA).add("127.0.0.1:" + portB);
    var startA = Kith.start(KithTestKit.config(clustered(clusterName, portA, members)));
    var startB = Kith.start(KithTestKit.config(clustered(clusterName, portB, members)));
    nodeA = startA.toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    nodeB = startB.toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    Await.result(Poll.until(nodeA.vertx(), WAIT, "both nodes in one cluster",
        () -> Future.succeededFuture(nodeA.clusterManager().getNodes().size() == 2)));
  }

  private static JsonObject clustered(String clusterName, int hzPort, JsonArray members) {
    return TestNode.config("echo").put("cluster", new JsonObject().put("enabled", true).put("name", clusterName)
        .put("host", "127.0.0.1").put("port", hzPort).put("members", members).put("join-wait-seconds", 0));
  }

  @AfterAll
  void stopCluster() throws Exception {
    bound.values().forEach(b -> Await.result(b.unregister()));
    for (Kith node : new Kith[] {nodeA, nodeB}) {
      if (node != null) {
        node.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
    }
  }

  /** Binds an instance named {@code name} at {@code address} on {@code node}, unbound after the class. */
  private Probe serve(Kith node, String name, String address) {
    Probe probe = new Probe(name);
    ServiceBindings bindings = new ServiceBindings(node.vertx());
    Await.result(bindings.bind(ProbeService.class, probe, address));
    bound.put(probe, bindings);
    return probe;
  }

  private static ProbeService proxy(Kith node, String address) {
    return ServiceProxies.proxy(node.vertx(), ProbeService.class, address);
  }

  /** The instance names that answered {@link #CALLS} calls in a row through {@code proxy}. */
  private static List<String> answers(ProbeService proxy) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < CALLS; i++) {
      names.add(Await.result(proxy.where()));
    }
    return names;
  }

  /** Waits until the other node's binding of {@code address} is known here and answers a call from {@code node}. */
  private static void awaitAnswerFrom(Kith node, String address, String name) {
    ProbeService proxy = proxy(node, address);
    Await.result(Poll.until(node.vertx(), WAIT, name + " answering " + address,
        () -> proxy.where().map(name::equals).otherwise(false)));
  }

  /**
   * Waits until calls from {@code node} to the cluster address itself, as a proxy sent them before node-local
   * bindings, are answered by both nodes' instances: both bindings are known there, so a proxy that went by the
   * cluster address would spread its calls too.
   */
  private static void awaitSpread(Kith node, String address) {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    DeliveryOptions where = new DeliveryOptions().addHeader("action", "where");
    Await.result(Poll.until(node.vertx(), WAIT, "calls to " + address + " answered by both nodes",
        () -> node.vertx().eventBus().<String>request(address, new JsonObject(), where)
            .map(reply -> {
              seen.add(reply.body());
              return seen.size() == 2;
            }).otherwise(false)));
  }

  private static String newAddress() {
    return "kith.test.probe." + UUID.randomUUID();
  }

  @Test
  @DisplayName("with both nodes running a service, each node's calls are answered by its own instance")
  void eachNodeAnswersItself() {
    String address = newAddress();
    Probe onA = serve(nodeA, "A", address);
    Probe onB = serve(nodeB, "B", address);
    awaitSpread(nodeA, address);
    awaitSpread(nodeB, address);
    int servedA = onA.served();
    int servedB = onB.served();
    assertEquals(List.of("A"), answers(proxy(nodeA, address)).stream().distinct().toList());
    assertEquals(List.of("B"), answers(proxy(nodeB, address)).stream().distinct().toList());
    assertEquals(servedA + CALLS, onA.served(), "A's instance served A's calls");
    assertEquals(servedB + CALLS, onB.served(), "B's instance served B's calls");
  }

  @Test
  @DisplayName("with the service only on the other node, a node's calls are answered there")
  void otherNodeAnswersWhenAlone() {
    String address = newAddress();
    Probe onB = serve(nodeB, "B", address);
    awaitAnswerFrom(nodeA, address, "B");
    int before = onB.served();
    assertEquals(List.of("B"), answers(proxy(nodeA, address)).stream().distinct().toList());
    assertEquals(before + CALLS, onB.served());
  }

  @Test
  @DisplayName("once a node unbinds its instance, its calls are answered by the other node's, none lost")
  void unboundNodeCallsTheOther() {
    String address = newAddress();
    // B's binding known on A first: A's calls have somewhere to go once A stops preferring itself
    serve(nodeB, "B", address);
    awaitAnswerFrom(nodeA, address, "B");
    Probe onA = serve(nodeA, "A", address);
    ProbeService proxy = proxy(nodeA, address);
    assertEquals("A", Await.result(proxy.where()));
    int servedA = onA.served();
    Await.result(bound.get(onA).unregister());
    assertEquals(List.of("B"), answers(proxy).stream().distinct().toList());
    assertEquals(servedA, onA.served(), "A's unbound instance got no call");
  }

  @Test
  @DisplayName("a refusal and a call that gets no answer in time fail the same from the other node's instance as "
      + "from the caller's own")
  void failuresUnchangedAcrossNodes() {
    String address = newAddress();
    serve(nodeB, "B", address);
    awaitAnswerFrom(nodeA, address, "B");
    Throwable refused = Await.failure(proxy(nodeA, address).refuse("probe"));
    assertTrue(Failures.is(refused, KithErrors.NOT_FOUND), String.valueOf(refused));
    assertEquals(404, ((ServiceException) refused).failureCode());
    Throwable late = Await.failure(ServiceProxies.proxy(nodeA.vertx(), ProbeService.class, address, 500).stall());
    assertTrue(Failures.is(late, KithErrors.UNAVAILABLE), String.valueOf(late));
  }
}
