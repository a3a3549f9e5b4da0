package io.kith.gateway.bridge;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.gateway.support.TcpClient;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Bridge guard bookkeeping and wiring")
class BridgeGuardTest {

  private Platform platform;
  private BridgeGuard guard;
  private final List<BridgeClient> clients = new ArrayList<>();

  @AfterEach
  void tearDown() {
    clients.forEach(BridgeClient::close);
    if (guard != null) {
      Await.result(guard.close());
    }
    if (platform != null) {
      Await.result(platform.close());
    }
  }

  private void authenticate(BridgeClient client) {
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    JsonObject reply = client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject());
    assertEquals(me.userId(), reply.getJsonObject("body").getLong("user_id"));
  }

  private void startGuard(Vertx vertx) {
    platform = Await.result(KithTestKit.platform(vertx));
    guard = new BridgeGuard(vertx, platform.sessions(), List.of("kith\\.bridge\\.whoami"), RoomAccess.NONE);
    Await.result(vertx.eventBus().consumer(Addresses.BRIDGE_WHOAMI, msg -> msg.reply(new JsonObject()
        .put("user_id", Long.parseLong(msg.headers().get(Addresses.SENDER_HEADER))))).completion());
  }

  @Test
  @DisplayName("the guard forgets TCP connections once they close")
  void tcpConnectionsForgotten(Vertx vertx) {
    startGuard(vertx);
    int port = FreePorts.pick();
    TcpEventBusBridge bridge = Await.result(Bridges.startTcp(vertx, guard,
        new JsonObject().put("tcp-port", port).put("tcp-host", "127.0.0.1")));
    try {
      for (int i = 0; i < 3; i++) {
        BridgeClient client = TcpClient.connect(vertx, port);
        clients.add(client);
        authenticate(client);
      }
      assertEquals(3, guard.connectionCount());

      clients.forEach(BridgeClient::close);

      Await.result(Poll.until(vertx, BridgeClient.WAIT, "the guard to forget closed connections",
          () -> Future.succeededFuture(guard.connectionCount() == 0)));
    } finally {
      Await.result(bridge.close());
    }
  }

  @Test
  @DisplayName("the guard forgets SockJS connections once they close")
  void sockJsConnectionsForgotten(Vertx vertx) {
    startGuard(vertx);
    Router router = Router.router(vertx);
    Bridges.mountSockJs(vertx, router, guard, new JsonObject());
    HttpServer server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    try {
      for (int i = 0; i < 3; i++) {
        BridgeClient client = SockJsClient.connect(vertx, server.actualPort(), null);
        clients.add(client);
        authenticate(client);
      }
      assertEquals(3, guard.connectionCount());

      clients.forEach(BridgeClient::close);

      Await.result(Poll.until(vertx, BridgeClient.WAIT, "the guard to forget closed connections",
          () -> Future.succeededFuture(guard.connectionCount() == 0)));
    } finally {
      Await.result(server.close());
    }
  }

  @Test
  @DisplayName("the token is read from the access_token query parameter, URL-decoded, and only from it")
  void queryToken() {
    assertEquals("a.b.c", Bridges.queryToken("/eventbus/websocket?access_token=a.b.c"));
    assertEquals("a+b/c=", Bridges.queryToken("/eventbus/websocket?x=1&access_token=a%2Bb%2Fc%3D&y=2"));
    assertNull(Bridges.queryToken("/eventbus/websocket"));
    assertNull(Bridges.queryToken("/eventbus/websocket?access_token="));
    assertNull(Bridges.queryToken("/eventbus/websocket?my_access_token=abc"));
    assertNull(Bridges.queryToken(null));
  }
}
