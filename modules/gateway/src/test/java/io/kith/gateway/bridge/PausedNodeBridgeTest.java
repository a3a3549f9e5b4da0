package io.kith.gateway.bridge;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The SockJS bridge's ping check on a node that was paused (SIGSTOP then SIGCONT): the pause is simulated by telling
 * the node's {@link PauseClock} about one, as its timer would on resuming, so nothing depends on the machine's speed.
 * The client here never pings, and the ping timeout is short.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
class PausedNodeBridgeTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  // long enough that the pause is recorded well before the bridge's first ping check
  private static final long PING_TIMEOUT_MS = 4_000;

  private Platform platform;
  private BridgeGuard guard;
  private HttpServer server;
  private BridgeClient client;

  @BeforeEach
  void start(Vertx vertx) {
    platform = Await.result(KithTestKit.platform(vertx));
    guard = new BridgeGuard(vertx, platform.sessions(), List.of("kith\\.bridge\\.whoami"), RoomAccess.NONE);
    Router router = Router.router(vertx);
    Bridges.mountSockJs(vertx, router, guard, new JsonObject().put("ping-timeout-ms", PING_TIMEOUT_MS));
    server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    Await.result(server.close());
    Await.result(guard.close());
    Await.result(platform.close());
  }

  private void awaitClosed(Vertx vertx) {
    Await.result(Poll.until(vertx, WAIT, "the bridge to close the silent connection",
        () -> Future.succeededFuture(client.isClosed())));
  }

  @Test
  @DisplayName("a connection whose client sends no ping within the ping timeout is closed")
  void silentConnectionClosed(Vertx vertx) {
    client = SockJsClient.connect(vertx, server.actualPort(), null);

    awaitClosed(vertx);
    assertEquals(0, guard.sparedIdle(), "no pause, nothing spared");
  }

  @Test
  @DisplayName("after the node was paused, a connection that looks idle is kept through one more ping check, and "
      + "closed at the next if its client stays silent")
  void resumedNodeSparesConnectionsOnce(Vertx vertx) {
    client = SockJsClient.connect(vertx, server.actualPort(), null);
    PauseClock.of(vertx).paused(Duration.ofMinutes(1));

    Await.result(Poll.until(vertx, WAIT, "the ping check to spare the connection",
        () -> Future.succeededFuture(guard.sparedIdle() == 1)));
    awaitClosed(vertx);
    assertEquals(1, guard.sparedIdle(), "spared once, not again without a new pause");
  }
}
