package io.kith.gateway.bridge;

import io.kith.gateway.GatewayVerticle;
import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.TcpClient;
import io.kith.platform.config.KithConfig;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
