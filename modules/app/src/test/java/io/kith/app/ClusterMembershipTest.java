package io.kith.app;

import io.kith.app.support.BridgeSocket;
import io.kith.platform.bus.Addresses;
import io.kith.platform.config.KithConfig;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a node does when the cluster's membership changes, with two clustered nodes in this JVM on loopback: its
 * readiness counts the members, its bridge clients are told to catch up, and its event consumers take over at once
 * what a departed node's consumers held.
 */
@ExtendWith(KithTestKit.class)
class ClusterMembershipTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  /** Within the bridge socket's own deadline ({@link Await#DEADLINE_SECONDS}). */
  private static final Duration PUSH_WAIT = Duration.ofSeconds(25);

  private final String clusterName = "kith-test-" + UUID.randomUUID();
  private final int portA = FreePorts.pick();
  private final int portB = FreePorts.pick();
  private final List<Kith> nodes = new ArrayList<>();
  private Vertx client;

  @BeforeEach
  void client() {
    client = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    for (Kith node : nodes) {
      Await.result(node.stop());
    }
    Await.result(client.close());
  }

  /** Starts a clustered node on {@code hzPort} (members: both ports) with these modules and extra sections. */
  private Kith start(int hzPort, JsonArray modules, JsonObject extra) {
    JsonObject cluster = new JsonObject().put("enabled", true).put("name", clusterName).put("host", "127.0.0.1")
        .put("port", hzPort).put("members", new JsonArray().add("127.0.0.1:" + portA).add("127.0.0.1:" + portB))
        .put("join-wait-seconds", 0);
    JsonObject config = new JsonObject()
        .put("kith", new JsonObject().put("modules", modules))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("cluster", cluster)
        .mergeIn(extra, true);
    KithConfig merged = KithTestKit.config(config);
    Kith node = Await.result(Kith.start(merged));
    nodes.add(node);
    return node;
  }

  private Kith startPeer() {
    return start(portB, new JsonArray().add("echo"), new JsonObject());
  }

  private Future<JsonObject> ready(Kith node) {
    HttpClient http = client.createHttpClient();
    return (http.request(HttpMethod.GET, node.httpPort(), "127.0.0.1", "/ready")
        .compose(req -> req.send())
        .compose(resp -> resp.body().map(b -> new JsonObject().put("status", resp.statusCode())
            .put("body", new JsonObject(b))))
        .eventually(http::close));
  }

  private static JsonObject check(JsonObject ready, String id) {
    for (Object c : ready.getJsonObject("body").getJsonArray("checks", new JsonArray())) {
      JsonObject check = (JsonObject) c;
      if (id.equals(check.getString("id"))) {
        return check;
      }
    }
    throw new AssertionError("no check " + id + " in " + ready.encode());
  }

  @Test
  @DisplayName("a node alone below cluster.min-members is not ready and says why, and is ready once a peer joins")
  void readinessCountsMembers() {
    Kith alone = start(portA, new JsonArray().add("all"),
        new JsonObject().put("cluster", new JsonObject().put("min-members", 2)));

    JsonObject lone = Await.result(ready(alone));
    assertEquals(503, lone.getInteger("status"), lone.encode());
    JsonObject cluster = check(lone, "cluster");
    assertEquals("DOWN", cluster.getString("status"), lone.encode());
    assertTrue(cluster.getJsonObject("data").getString("reason").contains("1 cluster member(s) seen, "
        + "cluster.min-members is 2"), lone.encode());
    assertEquals("UP", check(lone, "redis").getString("status"), "only the cluster check keeps it out");

    startPeer();

    JsonObject[] last = new JsonObject[1];
    Await.result(Poll.until(client, WAIT, "the node to be ready with two members", () -> {
      return ready(alone).map(r -> {
        last[0] = r;
        return r.getInteger("status") == 200;
      });
    }).recover(e -> Future.failedFuture(new AssertionError(e.getMessage() + ": " + last[0]))));
    JsonObject members = check(last[0], "cluster").getJsonObject("data");
    assertEquals(2, members.getInteger("members"), last[0].encode());
    assertEquals(2, members.getInteger("min_members"), last[0].encode());
  }

  @Test
  @DisplayName("a bridge client is told to resync when a member leaves its node's cluster, and again when it is back")
  void bridgeClientsResyncOnMembershipChanges() {
    Kith hub = start(portA, new JsonArray().add("all"), new JsonObject());
    Kith peer = startPeer();
    Await.result(Poll.until(client, WAIT, "two members", () -> Future.succeededFuture(
        hub.clusterManager().getNodes().size() == 2)));
    TokenPair tokens = Await.result(hub.platform().sessions().open(KithTestKit.newUserId(), "resync test"));
    String address = Addresses.user(tokens.userId());
    BridgeSocket socket = BridgeSocket.connect(client, hub.httpPort(), null);
    socket.register(address, tokens.accessToken());
    String probe = UUID.randomUUID().toString();
    Await.result(Poll.until(client, WAIT, "the registration", () -> {
      hub.vertx().eventBus().publish(address, new JsonObject().put("kind", "probe").put("id", probe));
      return Future.succeededFuture(socket.pending().stream().anyMatch(f -> f.getValue("body") instanceof JsonObject
          && probe.equals(f.getJsonObject("body").getString("id"))));
    }));
    assertTrue(socket.pending().stream().noneMatch(f -> f.getValue("body") instanceof JsonObject
        && "resync".equals(f.getJsonObject("body").getString("kind"))), "a cluster that lost no one sends none");

    nodes.remove(peer);
    Await.result(peer.stop());
    socket.takeDelivery(address, PUSH_WAIT, body -> "resync".equals(body.getString("kind")));

    startPeer();
    socket.takeDelivery(address, PUSH_WAIT, body -> "resync".equals(body.getString("kind")));
    socket.close();
  }

  @Test
  @DisplayName("events a departed node's consumer held are handled by a surviving consumer long before the claim "
      + "timeout")
  void departedConsumersEntriesAreClaimedAtOnce() {
    JsonObject slowClaims = new JsonObject().put("eventlog", new JsonObject().put("claim-after-ms", 600_000));
    Kith survivor = start(portA, new JsonArray().add("echo"), slowClaims);
    Kith leaving = start(portB, new JsonArray().add("echo"), slowClaims);
    Await.result(Poll.until(client, WAIT, "two members", () -> Future.succeededFuture(
        survivor.clusterManager().getNodes().size() == 2)));
    String domain = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String group = "held";
    Set<Long> held = ConcurrentHashMap.newKeySet();
    // the leaving node's handler never finishes: its entries stay pending, unacknowledged, when it goes (three at a
    // time, so that each of them reaches the handler)
    Await.result(leaving.platform().events().consume(domain, group, 3, event -> {
      held.add(event.id());
      return Promise.promise().future();
    }));
    List<Long> appended = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      DomainEvent event = Await.result(survivor.platform().events().append(domain, "Tested",
          new JsonObject().put("n", i)));
      appended.add(event.id());
    }
    Await.result(Poll.until(client, WAIT, "the leaving node to hold the events", () ->
        Future.succeededFuture(held.containsAll(appended))));
    Set<Long> handled = ConcurrentHashMap.newKeySet();
    Await.result(survivor.platform().events().consume(domain, group, event -> {
      handled.add(event.id());
      return Future.succeededFuture();
    }));

    nodes.remove(leaving);
    Await.result(leaving.stop());

    // the claim timeout is ten minutes: only the member-left claim can hand them over within the wait
    Await.result(Poll.until(client, WAIT, "the survivor to handle the departed node's events", () ->
        Future.succeededFuture(handled.containsAll(appended))));
  }
}
