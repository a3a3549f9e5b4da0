package io.kith.app;

import io.kith.platform.config.KithConfig;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two Kith nodes clustered over Hazelcast TCP/IP on loopback: node A runs only the gateway, node B only a service.
 * Requests entering A's gateway are served by B through the clustered event bus.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterTest {

  private Kith gatewayNode;
  private Kith serviceNode;
  private Vertx client;
  private int tcpPort;

  private static JsonObject node(String label, String clusterName, int hzPort, List<Integer> members,
                                 List<String> modules, int tcpPort) {
    JsonArray memberList = new JsonArray();
    members.forEach(p -> memberList.add("127.0.0.1:" + p));
    return new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray(modules)).put("node-label", label))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", tcpPort)
            .put("inbound", new JsonArray().add("kith\\.bridge\\.whoami").add("kith\\.test\\..+")))
        .put("cluster", new JsonObject().put("enabled", true).put("name", clusterName).put("host", "127.0.0.1")
            .put("port", hzPort).put("members", memberList).put("join-wait-seconds", 0));
  }

  @BeforeAll
  void startCluster() throws Exception {
    String clusterName = "kith-test-" + UUID.randomUUID();
    int portA = FreePorts.pick();
    int portB = FreePorts.pick();
    tcpPort = FreePorts.pick();
    KithConfig a = KithTestKit.config(node("A", clusterName, portA, List.of(portA, portB), List.of("gateway"), tcpPort));
    KithConfig b = KithTestKit.config(node("B", clusterName, portB, List.of(portA, portB), List.of("echo"), 0));
    CompletableFuture<Kith> startA = Kith.start(a).toCompletionStage().toCompletableFuture();
    CompletableFuture<Kith> startB = Kith.start(b).toCompletionStage().toCompletableFuture();
    gatewayNode = startA.get(60, TimeUnit.SECONDS);
    serviceNode = startB.get(60, TimeUnit.SECONDS);
    client = Vertx.vertx();
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (client != null) {
      client.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    for (Kith k : new Kith[] {gatewayNode, serviceNode}) {
      if (k != null) {
        k.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  @DisplayName("each node runs only the modules it was given")
  void nodesRunTheirModules() {
    assertEquals(List.of("gateway"), gatewayNode.modules());
    assertEquals(List.of("echo"), serviceNode.modules());
    assertTrue(gatewayNode.vertx().isClustered());
  }

  @Test
  @DisplayName("a bridge request entering the gateway on one node is served by the service on the other node")
  void bridgeRequestCrossesNodes() throws Exception {
    TokenPair tokens = gatewayNode.platform().sessions().open(KithTestKit.newUserId(), "cluster test")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    NetClient net = client.createNetClient();
    NetSocket socket = net.connect(tcpPort, "127.0.0.1").toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    CompletableFuture<JsonObject> reply = new CompletableFuture<>();
    Buffer pending = Buffer.buffer();
    socket.handler(chunk -> {
      pending.appendBuffer(chunk);
      if (pending.length() >= 4) {
        int len = pending.getInt(0);
        if (pending.length() >= 4 + len) {
          reply.complete(new JsonObject(pending.getString(4, 4 + len)));
        }
      }
    });
    JsonObject frame = new JsonObject()
        .put("type", "send")
        .put("address", EchoTestModule.ADDRESS)
        .put("replyAddress", "reply-" + UUID.randomUUID())
        .put("headers", new JsonObject().put("authorization", "Bearer " + tokens.accessToken())
            .put("kith-sender", "1"))
        .put("body", new JsonObject().put("hello", "world"));
    Buffer encoded = frame.toBuffer();
    socket.write(Buffer.buffer().appendInt(encoded.length()).appendBuffer(encoded));
    JsonObject answer = reply.get(15, TimeUnit.SECONDS);
    assertEquals("message", answer.getString("type"), answer.encode());
    JsonObject body = answer.getJsonObject("body");
    assertEquals("B", body.getString("node"), "served by the service node");
    assertEquals(Long.toString(tokens.userId()), body.getString("sender"), "sender stamped by the gateway");
    assertEquals("world", body.getJsonObject("body").getString("hello"));
    socket.close();
  }

  @Test
  @DisplayName("an HTTP request to the gateway node is answered, and its session check uses the shared Redis")
  void httpThroughGatewayNode() throws Exception {
    TokenPair tokens = serviceNode.platform().sessions().open(KithTestKit.newUserId(), "opened on B")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    var http = client.createHttpClient();
    var response = http.request(io.vertx.core.http.HttpMethod.GET, gatewayNode.httpPort(), "127.0.0.1",
            "/api/v1/whoami")
        .compose(req -> req.putHeader("Authorization", "Bearer " + tokens.accessToken()).send())
        .compose(resp -> resp.body().map(b -> new JsonObject().put("status", resp.statusCode()).put("body", b.toString())))
        .toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    assertEquals(200, response.getInteger("status"), response.encode());
    assertEquals(tokens.userId(), new JsonObject(response.getString("body")).getLong("user_id"));
  }

  @Test
  @DisplayName("a session revoked on one node is refused by the gateway on the other at once")
  void revocationReachesOtherNode() throws Exception {
    TokenPair tokens = gatewayNode.platform().sessions().open(KithTestKit.newUserId(), "to revoke")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    var http = client.createHttpClient();
    int first = whoamiStatus(http, tokens.accessToken());
    assertEquals(200, first);
    serviceNode.platform().sessions().revoke(tokens.userId(), tokens.sessionId())
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    long deadline = System.currentTimeMillis() + 5_000;
    int status = whoamiStatus(http, tokens.accessToken());
    while (status != 401 && System.currentTimeMillis() < deadline) {
      Thread.onSpinWait();
      status = whoamiStatus(http, tokens.accessToken());
    }
    assertEquals(401, status);
  }

  private int whoamiStatus(io.vertx.core.http.HttpClient http, String token) throws Exception {
    return http.request(io.vertx.core.http.HttpMethod.GET, gatewayNode.httpPort(), "127.0.0.1", "/api/v1/whoami")
        .compose(req -> req.putHeader("Authorization", "Bearer " + token).send())
        .map(io.vertx.core.http.HttpClientResponse::statusCode)
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
