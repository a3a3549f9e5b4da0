package io.kith.gateway.bridge;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.AccessTokens;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A SockJS connection whose access token expired hears nothing, so presence does not count it either. */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Presence of a bridge connection whose token expired")
class ExpiredTokenPresenceTest {

  private static final String SECRET = "a-known-test-secret-of-at-least-32-bytes";

  private Platform platform;
  private BridgeGuard guard;
  private HttpServer server;
  private BridgeClient client;

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      Await.result(server.close());
    }
    if (guard != null) {
      Await.result(guard.close());
    }
    if (platform != null) {
      Await.result(platform.close());
    }
  }

  @Test
  @DisplayName("at expiry the connection is reported closed and left out of heartbeats; a fresh token reports it "
      + "bound again")
  void expiredConnectionIsNotOnline(Vertx vertx) {
    // five seconds: long enough for the first round trip on a loaded machine
    platform = Await.result(KithTestKit.platform(vertx,
        new JsonObject().put("tokens", new JsonObject().put("secret", SECRET).put("access-ttl", 5))));
    List<String> events = new CopyOnWriteArrayList<>();
    List<Map<Long, List<String>>> reports = new CopyOnWriteArrayList<>();
    ConnectionListener listener = new ConnectionListener() {
      @Override
      public void bound(long userId, String connectionId) {
        events.add("bound " + userId);
      }

      @Override
      public void closed(long userId, String connectionId) {
        events.add("closed " + userId);
      }

      @Override
      public Future<Void> alive(Map<Long, List<String>> connections) {
        reports.add(connections);
        return Future.succeededFuture();
      }
    };
    guard = new BridgeGuard(vertx, platform.sessions(), List.of("kith\\.bridge\\.whoami"), RoomAccess.NONE, listener);
    Await.result(vertx.eventBus().consumer(Addresses.BRIDGE_WHOAMI, msg -> msg.reply(new JsonObject()
        .put("user_id", Long.parseLong(msg.headers().get(Addresses.SENDER_HEADER))))).completion());
    Router router = Router.router(vertx);
    Bridges.mountSockJs(vertx, router, guard, new JsonObject());
    server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    String lasting = new AccessTokens(vertx, SECRET, "kith", "kith-api", 900).issue(me.userId(), me.sessionId());
    client = SockJsClient.connect(vertx, server.actualPort(), null);

    client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject());
    guard.heartbeat();
    assertEquals(Set.of(me.userId()), reports.get(0).keySet());

    client.take("the token_expired error", f -> "err".equals(f.getString("type")));
    guard.heartbeat();
    assertEquals(1, reports.size(), "an expired connection was reported alive: " + reports);
    assertEquals(List.of("bound " + me.userId(), "closed " + me.userId()), events);

    client.call(Addresses.BRIDGE_WHOAMI, lasting, null, new JsonObject());
    guard.heartbeat();
    assertEquals(Set.of(me.userId()), reports.get(1).keySet());
    assertEquals(List.of("bound " + me.userId(), "closed " + me.userId(), "bound " + me.userId()), events);
  }
}
