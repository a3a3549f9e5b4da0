package io.kith.gateway.bridge;

import io.kith.gateway.GatewayVerticle;
import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.TcpClient;
import io.kith.platform.bus.Addresses;
import io.kith.platform.config.KithConfig;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.AccessTokens;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("TCP event-bus bridge")
class TcpBridgeTest extends BridgeContractTest {

  private final int port = FreePorts.pick();

  @Override
  protected JsonObject transportConfig() {
    return new JsonObject().put("tcp-port", port).put("tcp-host", "127.0.0.1");
  }

  @Override
  protected BridgeClient connect() {
    return TcpClient.connect(vertx, port);
  }

  @Test
  @DisplayName("with the shipped defaults the TCP bridge is off, and turned on it binds to loopback")
  void offByDefault() {
    JsonObject defaults = KithConfig.load(null, Map.of()).section("bridge");

    assertEquals(0, defaults.getInteger("tcp-port"));
    assertEquals("127.0.0.1", defaults.getString("tcp-host"));
  }

  @Test
  @DisplayName("the gateway records the TCP bridge port and answers pings")
  void portAndPing(Vertx vertx) {
    start(vertx);
    assertEquals(port, vertx.sharedData().getLocalMap(GatewayVerticle.PORTS_MAP).get("tcp"));
    BridgeClient client = client();

    client.write(new JsonObject().put("type", "ping"));

    client.take("a pong", f -> "pong".equals(f.getString("type")));
    TokenPair me = gateway.newSession();
    assertEquals(me.userId(), whoami(client, me.accessToken()));
  }

  @Override
  @Test
  @DisplayName("when the access token expires the TCP connection is closed, unless a fresh token came before")
  void expiredBinding(Vertx vertx) {
    String secret = "a-known-test-secret-of-at-least-32-bytes";
    // the TCP bridge reports no deliveries to withhold: the connection is closed instead
    start(vertx, new JsonObject().put("tokens", new JsonObject().put("secret", secret).put("access-ttl", 5)));
    TokenPair me = gateway.newSession();
    String lasting = new AccessTokens(vertx, secret, "kith", "kith-api", 900).issue(me.userId(), me.sessionId());
    BridgeClient expiring = client();
    BridgeClient renewed = client();

    expiring.register(Addresses.user(me.userId()), me.accessToken());
    assertEquals(me.userId(), whoami(renewed, me.accessToken()));
    assertEquals(me.userId(), whoami(renewed, lasting));

    expiring.awaitClosed();
    assertEquals(me.userId(), whoami(renewed, null), "the renewed connection still works");
    assertFalse(renewed.isClosed());
  }
}
