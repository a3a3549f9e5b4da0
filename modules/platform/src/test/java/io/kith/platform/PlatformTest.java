package io.kith.platform;

import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.AccessClaims;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(60)
class PlatformTest {

  @Test
  @DisplayName("two nodes without a configured secret share the generated one, so either verifies the other's tokens")
  void generatedSecretShared(Vertx vertx) {
    Vertx other = Vertx.vertx();
    Platform a = Await.result(KithTestKit.platform(vertx));
    Platform b = Await.result(KithTestKit.platform(other));
    try {
      TokenPair pair = Await.result(KithTestKit.newSession(a));

      AccessClaims claims = Await.result(b.accessTokens().verify(pair.accessToken()));

      assertEquals(pair.userId(), claims.userId());
      assertTrue(Await.result(b.sessions().isActive(pair.userId(), pair.sessionId())));
      assertNotEquals(a.ids().node(), b.ids().node());
    } finally {
      Await.result(a.close());
      Await.result(b.close());
      Await.result(other.close());
    }
  }

  @Test
  @DisplayName("a configured secret signs the tokens, and a node with another secret refuses them")
  void configuredSecret(Vertx vertx) {
    JsonObject one = new JsonObject().put("tokens", new JsonObject().put("secret", "s".repeat(40)));
    JsonObject two = new JsonObject().put("tokens", new JsonObject().put("secret", "t".repeat(40)));
    Platform a = Await.result(KithTestKit.platform(vertx, one));
    Platform b = Await.result(KithTestKit.platform(vertx, two));
    try {
      TokenPair pair = Await.result(KithTestKit.newSession(a));

      Await.result(a.accessTokens().verify(pair.accessToken()));
      assertEquals("token_invalid", io.kith.platform.error.Failures.codeOf(
          Await.failure(b.accessTokens().verify(pair.accessToken()))));
    } finally {
      Await.result(a.close());
      Await.result(b.close());
    }
  }

  @Test
  @DisplayName("an unreachable Redis fails the start with a message that names the setting and hides the password")
  void unreachableRedis(Vertx vertx) {
    String url = "redis://kith:hunter2@127.0.0.1:" + FreePorts.pick();

    Throwable e = Await.failure(Platform.start(vertx, KithTestKit.config(new JsonObject()), url,
        KithTestKit.mongoUrl()));

    assertTrue(e.getMessage().contains("KITH_REDIS_URL"), e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
  }

  @Test
  @DisplayName("a configured secret shorter than 32 bytes fails the start")
  void shortSecretRefused(Vertx vertx) {
    Throwable e = Await.failure(KithTestKit.platform(vertx,
        new JsonObject().put("tokens", new JsonObject().put("secret", "too-short"))));

    assertTrue(e.getMessage().contains("tokens.secret"), e.getMessage());
  }
}
