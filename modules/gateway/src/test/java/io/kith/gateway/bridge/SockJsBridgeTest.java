package io.kith.gateway.bridge;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("SockJS event-bus bridge (/eventbus)")
class SockJsBridgeTest extends BridgeContractTest {

  private String query;

  @Override
  protected JsonObject transportConfig() {
    return new JsonObject();
  }

  @Override
  protected BridgeClient connect() {
    return SockJsClient.connect(vertx, gateway.port(), query);
  }

  private BridgeClient clientWithQuery(String query) {
    this.query = query;
    try {
      return client();
    } finally {
      this.query = null;
    }
  }

  @Test
  @DisplayName("?access_token= on the WebSocket URL authenticates the connection")
  void queryToken(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = clientWithQuery("access_token=" + URLEncoder.encode(me.accessToken(), StandardCharsets.UTF_8));

    assertEquals(me.userId(), whoami(client, null));
    client.register(Addresses.user(me.userId()), null);
    publishUntilReceived(client, Addresses.user(me.userId()), new JsonObject().put("text", "pushed"));
  }

  @Test
  @DisplayName("a URL token binds the connection to its user: another user's token is then refused")
  void queryTokenBinds(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair other = gateway.newSession();
    BridgeClient client = clientWithQuery("x=1&access_token=" + me.accessToken());

    client.register(Addresses.user(other.userId()), other.accessToken());

    assertEquals(DENIED, client.takeError());
    assertEquals(me.userId(), whoami(client, null));
  }

  @Test
  @DisplayName("an invalid URL token leaves the connection anonymous but open; a header token then works")
  void badQueryToken(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = clientWithQuery("access_token=forged.token.value");

    client.register(Addresses.user(me.userId()), null);
    assertEquals(DENIED, client.takeError());
    assertFalse(client.isClosed());

    assertEquals(me.userId(), whoami(client, me.accessToken()));
  }

  @Test
  @DisplayName("a URL token of a revoked session does not authenticate")
  void revokedQueryToken(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    Await.result(gateway.platform().sessions().revoke(me.userId(), me.sessionId()));
    BridgeClient client = clientWithQuery("access_token=" + me.accessToken());

    client.register(Addresses.user(me.userId()), null);

    assertEquals(DENIED, client.takeError());
  }
}
