package io.kith.platform.bus;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.probe.Probe;
import io.kith.platform.testkit.probe.ProbeService;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a node's service calls reach its own instance of a service (the node-local binding) and what the caller sees
 * when it fails, answers late or goes away. Which node answers in a cluster is checked in the app's
 * {@code ClusterLocalCallsTest}.
 */
class NodeLocalCallsTest {

  private Vertx vertx;
  private String address;
  /** The address of every service call this node sends (replies left out). */
  private final List<String> sentTo = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    address = "kith.test.probe." + UUID.randomUUID();
    ServicePing.install(vertx);
    vertx.eventBus().addOutboundInterceptor(delivery -> {
      if (delivery.message().address().startsWith(address)) {
        sentTo.add(delivery.message().address());
      }
      delivery.next();
    });
  }

  @AfterEach
  void stop() {
    Await.result(vertx.close());
  }

  private ProbeService proxy(long timeoutMs) {
    return ServiceProxies.proxy(vertx, ProbeService.class, address, timeoutMs);
  }

  private ServiceBindings bind(Probe probe) {
    ServiceBindings bindings = new ServiceBindings(vertx);
    Await.result(bindings.bind(ProbeService.class, probe, address));
    return bindings;
  }

  @Test
  @DisplayName("a proxy made before the service was bound calls the node's own instance on its node-local address")
  void callsGoToTheLocalBinding() {
    ProbeService proxy = proxy(ServiceProxies.SEND_TIMEOUT_MS);
    Probe probe = new Probe("here");
    bind(probe);
    for (int i = 0; i < 5; i++) {
      assertEquals("here", Await.result(proxy.where()));
    }
    assertEquals(5, probe.served());
    assertEquals(List.of(address + ":local"), sentTo.stream().distinct().toList());
  }

  @Test
  @DisplayName("a refusal by the node's own instance reaches the caller with its status and code unchanged")
  void refusalPassesThrough() {
    bind(new Probe("here"));
    Throwable refused = Await.failure(proxy(ServiceProxies.SEND_TIMEOUT_MS).refuse("probe"));
    assertTrue(Failures.is(refused, KithErrors.NOT_FOUND), String.valueOf(refused));
    assertEquals(404, ((ServiceException) refused).failureCode());
  }

  @Test
  @DisplayName("the node's own instance that does not answer in time fails the call as unavailable (503), as any node's")
  void localTimeoutIsUnavailable() {
    Probe probe = new Probe("here");
    bind(probe);
    Throwable late = Await.failure(proxy(200).stall());
    assertTrue(Failures.is(late, KithErrors.UNAVAILABLE), String.valueOf(late));
    assertEquals(1, probe.served(), "the call reached the local instance");
  }

  @Test
  @DisplayName("after the last binding on the node is unregistered, calls go to the cluster address and fail with "
      + "NO_HANDLERS where no node serves it, once sent again a moment later")
  void unregisteredFallsBackToCluster() {
    ServiceBindings bindings = bind(new Probe("here"));
    Await.result(bindings.unregister());
    Throwable nowhere = Await.failure(proxy(ServiceProxies.SEND_TIMEOUT_MS).where());
    assertInstanceOf(ReplyException.class, nowhere);
    assertEquals(ReplyFailure.NO_HANDLERS, ((ReplyException) nowhere).failureType());
    // the one retry of a call that found no handler (the cluster's view right after an unbinding may lag)
    assertEquals(List.of(address, address), sentTo);
    assertTrue(ServicePing.runsNowhere(Await.failure(ServicePing.ping(vertx, address, 5_000))));
  }

  @Test
  @DisplayName("calls stay on the node while one of its bindings lives, and leave it as soon as the last one starts "
      + "unregistering, before its consumers are gone")
  void preferenceEndsBeforeUnbinding() {
    ProbeService proxy = proxy(ServiceProxies.SEND_TIMEOUT_MS);
    ServiceBindings first = bind(new Probe("first"));
    Probe second = new Probe("second");
    ServiceBindings last = bind(second);
    Await.result(first.unregister());
    assertEquals("second", Await.result(proxy.where()));
    assertEquals(List.of(address + ":local"), sentTo);
    sentTo.clear();
    var unbinding = last.unregister();
    // not awaited: the call is made while the consumers may still be registered
    proxy.where();
    assertEquals(address, sentTo.get(0), "sent to " + sentTo);
    Await.result(unbinding);
  }

  @Test
  @DisplayName("a readiness ping to a bound service is answered on the cluster address without reaching the service")
  void pingStillAnswered() {
    Probe probe = new Probe("here");
    bind(probe);
    Await.result(ServicePing.ping(vertx, address, 5_000));
    assertEquals(0, probe.served());
    assertEquals(List.of(address), sentTo);
  }
}
