package io.kith.gateway.bridge;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.gateway.support.TcpClient;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.FailingRedis;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.Sessions;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When the session store cannot answer (Redis down, its client's wait queue full, a timeout), a bridge frame whose
 * token cannot be checked is answered {@code unavailable}, which a client retries, not {@code access_denied}, which
 * it takes for a bad token. Tokens that do not verify and sessions that have ended stay {@code access_denied}.
 * Both transports, over a guard whose session store runs on a Redis client the test can make fail.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Bridge answers while the session store is unavailable")
class SessionStoreOutageTest {

  private Vertx vertx;
  private Platform platform;
  private FailingRedis redis;
  private Sessions checked;
  private BridgeGuard guard;
  private HttpServer http;
  private TcpEventBusBridge tcp;
  private int tcpPort;
  private final List<BridgeClient> clients = new ArrayList<>();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    platform = Await.result(KithTestKit.platform(vertx));
    redis = new FailingRedis(platform.redis());
    // sessions are opened and revoked through the platform's store; the guard checks them through the failing one
    checked = new Sessions(vertx, redis, platform.sessions().accessTokens(), 3_600);
    guard = new BridgeGuard(vertx, checked, List.of("kith\\.bridge\\.whoami"), RoomAccess.NONE);
    Await.result(vertx.eventBus().consumer(Addresses.BRIDGE_WHOAMI, msg -> msg.reply(new JsonObject()
        .put("user_id", Long.parseLong(msg.headers().get(Addresses.SENDER_HEADER))))).completion());
    Router router = Router.router(vertx);
    Bridges.mountSockJs(vertx, router, guard, new JsonObject());
    http = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    tcpPort = FreePorts.pick();
    tcp = Await.result(Bridges.startTcp(vertx, guard,
        new JsonObject().put("tcp-port", tcpPort).put("tcp-host", "127.0.0.1")));
  }

  @AfterEach
  void stop() {
    clients.forEach(BridgeClient::close);
    if (tcp != null) {
      Await.result(tcp.close());
    }
    if (http != null) {
      Await.result(http.close());
    }
    if (guard != null) {
      Await.result(guard.close());
    }
    if (checked != null) {
      Await.result(checked.close());
    }
    if (platform != null) {
      Await.result(platform.close());
    }
  }

  private BridgeClient track(BridgeClient client) {
    clients.add(client);
    return client;
  }

  private BridgeClient sockJs(String query) {
    return track(SockJsClient.connect(vertx, http.actualPort(), query));
  }

  private BridgeClient tcp() {
    return track(TcpClient.connect(vertx, tcpPort));
  }

  /** Publishes on the user's address until {@code client} receives it (registrations take effect asynchronously). */
  private void receivesOwnAddress(BridgeClient client, long userId) {
    String address = Addresses.user(userId);
    Await.result(Poll.until(vertx, BridgeClient.WAIT, address + " to reach the client", () -> {
      if (client.hasDelivery(address)) {
        return Future.succeededFuture(true);
      }
      vertx.eventBus().publish(address, new JsonObject().put("text", "hello"));
      return Future.succeededFuture(false);
    }));
  }

  private void outageAnsweredUnavailable(Supplier<BridgeClient> connect) {
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    TokenPair revoked = Await.result(KithTestKit.newSession(platform));
    Await.result(platform.sessions().revoke(revoked.userId(), revoked.sessionId()));
    BridgeClient client = connect.get();

    redis.failing(true);
    client.register(Addresses.user(me.userId()), me.accessToken());
    assertEquals(BridgeGuard.UNAVAILABLE, client.takeError(), "a good token whose session cannot be checked");
    client.request(Addresses.BRIDGE_WHOAMI, "whoami-during-outage", me.accessToken(), null, new JsonObject());
    assertEquals(BridgeGuard.UNAVAILABLE, client.takeError());
    // a token that does not verify needs no store to be refused
    client.register(Addresses.user(me.userId()), "not.a.token");
    assertEquals(BridgeGuard.DENIED, client.takeError(), "a bad token is refused whatever the store does");
    // the connection was never authenticated: a tokenless frame is anonymous
    client.register(Addresses.user(me.userId()), null);
    assertEquals(BridgeGuard.DENIED, client.takeError());
    assertFalse(client.isClosed());

    // the store is back: the same frame, sent again, is served on the same connection
    redis.failing(false);
    client.register(Addresses.user(me.userId()), me.accessToken());
    receivesOwnAddress(client, me.userId());
    assertEquals(me.userId(), client.call(Addresses.BRIDGE_WHOAMI, null, null, new JsonObject())
        .getJsonObject("body").getLong("user_id"));

    // a session that has ended is refused as ever
    BridgeClient other = connect.get();
    other.register(Addresses.user(revoked.userId()), revoked.accessToken());
    assertEquals(BridgeGuard.DENIED, other.takeError(), "a revoked session");
    assertTrue(client.pending().stream().noneMatch(f -> "err".equals(f.getString("type"))),
        client.pending().toString());
  }

  @Test
  @DisplayName("SockJS: a frame whose session cannot be checked gets unavailable and is served once sent again; "
      + "bad tokens and revoked sessions get access_denied")
  void sockJsOutage() {
    outageAnsweredUnavailable(() -> sockJs(null));
  }

  @Test
  @DisplayName("TCP: a frame whose session cannot be checked gets unavailable and is served once sent again; "
      + "bad tokens and revoked sessions get access_denied")
  void tcpOutage() {
    outageAnsweredUnavailable(this::tcp);
  }

  @Test
  @DisplayName("SockJS: an ?access_token= that met an unavailable store makes frames unavailable, and is checked "
      + "again with the next frame once the store is back")
  void urlTokenCheckedAgain() {
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    String query = "access_token=" + URLEncoder.encode(me.accessToken(), StandardCharsets.UTF_8);

    redis.failing(true);
    BridgeClient client = sockJs(query);
    client.register(Addresses.user(me.userId()), null);
    assertEquals(BridgeGuard.UNAVAILABLE, client.takeError());

    redis.failing(false);
    client.register(Addresses.user(me.userId()), null);
    receivesOwnAddress(client, me.userId());

    // a forged URL token is refused, store or no store
    redis.failing(true);
    BridgeClient forged = sockJs("access_token=forged.token.value");
    forged.register(Addresses.user(me.userId()), null);
    assertEquals(BridgeGuard.DENIED, forged.takeError());
  }
}
