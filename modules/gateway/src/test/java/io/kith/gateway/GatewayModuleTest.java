package io.kith.gateway;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.gateway.support.TcpClient;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("The gateway module")
class GatewayModuleTest {

  private Platform platform;
  private final List<BridgeClient> clients = new ArrayList<>();

  @AfterEach
  void tearDown() {
    clients.forEach(BridgeClient::close);
    if (platform != null) {
      Await.result(platform.close());
    }
  }

  private String deploy(Vertx vertx, int instances, int tcpPort) {
    return deploy(vertx, instances, tcpPort, new JsonObject());
  }

  private String deploy(Vertx vertx, int instances, int tcpPort, JsonObject extra) {
    platform = Await.result(KithTestKit.platform(vertx, new JsonObject()
        .put("http", new JsonObject().put("instances", instances))
        .put("bridge", new JsonObject().put("tcp-port", tcpPort).put("tcp-host", "127.0.0.1"))
        .mergeIn(extra)));
    return Await.result(new GatewayModule().deploy(platform));
  }

  private <T extends BridgeClient> T track(T client) {
    clients.add(client);
    return client;
  }

  @Test
  @DisplayName("is found by the service loader, named gateway, and starts after the domain modules")
  void serviceLoader() {
    KithModule module = ServiceLoader.load(KithModule.class).stream().map(ServiceLoader.Provider::get)
        .filter(m -> m instanceof GatewayModule).findFirst().orElseThrow();

    assertEquals("gateway", module.name());
    assertTrue(module.order() >= 1000, "order " + module.order());
  }

  @Test
  @DisplayName("deploys the gateway with the system and auth routes and records its ports")
  void deploys(Vertx vertx) {
    int tcpPort = FreePorts.pick();
    deploy(vertx, 2, tcpPort);
    int port = TestGateway.httpPort(vertx);
    assertEquals(tcpPort, vertx.sharedData().getLocalMap(GatewayVerticle.PORTS_MAP).get("tcp"));
    WebClient http = WebClient.create(vertx);
    TokenPair session = Await.result(KithTestKit.newSession(platform));

    HttpResponse<Buffer> ping = Await.result(http.get(port, "localhost", "/api/v1/ping").send());
    HttpResponse<Buffer> whoami = Await.result(http.get(port, "localhost", "/api/v1/whoami")
        .bearerTokenAuthentication(session.accessToken()).send());
    HttpResponse<Buffer> refresh = Await.result(http.post(port, "localhost", "/api/v1/auth/refresh")
        .sendJsonObject(new JsonObject().put("refresh_token", session.refreshToken())));

    assertEquals(200, ping.statusCode());
    assertEquals(session.userId(), whoami.bodyAsJsonObject().getLong("user_id"));
    assertEquals(200, refresh.statusCode(), refresh.bodyAsString());
    BridgeClient tcp = track(TcpClient.connect(vertx, tcpPort));
    JsonObject reply = tcp.call(Addresses.BRIDGE_WHOAMI, session.accessToken(), null, new JsonObject());
    assertEquals(session.userId(), reply.getJsonObject("body").getLong("user_id"));
  }

  @Test
  @DisplayName("with several instances, revoking a session closes its bridge connections on every instance")
  void revokeAcrossInstances(Vertx vertx) {
    int tcpPort = FreePorts.pick();
    deploy(vertx, 2, tcpPort);
    int port = TestGateway.httpPort(vertx);
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    TokenPair other = Await.result(KithTestKit.newSession(platform));
    List<BridgeClient> mine = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      mine.add(track(SockJsClient.connect(vertx, port, null)));
      mine.add(track(TcpClient.connect(vertx, tcpPort)));
    }
    for (BridgeClient client : mine) {
      assertEquals(me.userId(),
          client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject())
              .getJsonObject("body").getLong("user_id"));
    }
    BridgeClient theirs = track(SockJsClient.connect(vertx, port, null));
    theirs.call(Addresses.BRIDGE_WHOAMI, other.accessToken(), null, new JsonObject());

    Await.result(platform.sessions().revoke(me.userId(), me.sessionId()));

    mine.forEach(BridgeClient::awaitClosed);
    assertEquals(other.userId(), theirs.call(Addresses.BRIDGE_WHOAMI, null, null, new JsonObject())
        .getJsonObject("body").getLong("user_id"));
  }

  @Test
  @DisplayName("undeploying the gateway closes bridge connections at once, without waiting for the drain grace")
  void undeploy(Vertx vertx) {
    int tcpPort = FreePorts.pick();
    // a grace far longer than the test waits: connections must close at the start of the drain, not at its end
    String deployment = deploy(vertx, 1, tcpPort,
        new JsonObject().put("kith", new JsonObject().put("shutdown-grace-seconds", 120)));
    int port = TestGateway.httpPort(vertx);
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    BridgeClient sockJs = track(SockJsClient.connect(vertx, port, null));
    BridgeClient tcp = track(TcpClient.connect(vertx, tcpPort));
    sockJs.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject());
    tcp.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject());

    Future<Void> undeployed = vertx.undeploy(deployment);

    sockJs.awaitClosed();
    tcp.awaitClosed();
    Await.result(undeployed);
    Await.failure(WebClient.create(vertx).get(port, "localhost", "/api/v1/ping").send());
    Await.result(Poll.until(vertx, BridgeClient.WAIT, "the whoami consumer to be gone", () ->
        vertx.eventBus().request(Addresses.BRIDGE_WHOAMI, new JsonObject()).map(r -> false)
            .otherwise(e -> true)));
  }
}
