package io.kith.gateway.http;

import io.kith.gateway.GatewayVerticle;
import io.kith.gateway.bridge.RoomAccess;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.Platform;
import io.kith.platform.store.GuardedRedis;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.StallingProxy;
import io.kith.platform.token.TokenPair;
import io.vertx.circuitbreaker.CircuitBreakerState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.util.List;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** A gateway whose Redis stops answering (a proxy in front of the test Redis stalls), seen through HTTP. */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("A store that stops answering costs a quick 503, not a hung request or a 500")
class StoreOutageTest {

  private StallingProxy proxy;
  private Platform platform;
  private WebClient client;

  @AfterEach
  void tearDown() {
    if (proxy != null) {
      proxy.stall(false);
    }
    if (client != null) {
      client.close();
    }
    if (platform != null) {
      Await.result(platform.close());
    }
    if (proxy != null) {
      proxy.close();
    }
  }

  private void start(Vertx vertx, JsonObject overrides) {
    assumeFalse(KithTestKit.onCluster(),
        "a proxy in front of one server: a cluster client learns the nodes' own addresses and goes around it");
    URI redis = URI.create(KithTestKit.redisUrl());
    proxy = Await.result(StallingProxy.start(vertx, redis.getHost(), redis.getPort()));
    platform = Await.result(Platform.start(vertx, KithTestKit.config(overrides),
        "redis://127.0.0.1:" + proxy.port(), KithTestKit.mongoUrl()));
    Await.result(vertx.deployVerticle(() -> new GatewayVerticle(platform,
        List.of(new SystemRoutes(), TestGateway.authRoutes(platform)), RoomAccess.NONE), new DeploymentOptions()));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("localhost")
        .setDefaultPort(TestGateway.httpPort(vertx)));
  }

  private HttpResponse<Buffer> refresh(TokenPair pair) {
    return Await.result(client.post(API + "/auth/refresh")
        .sendJsonObject(new JsonObject().put("refresh_token", pair.refreshToken())));
  }

  @Test
  @DisplayName("while Redis does not answer, requests needing it get 503 unavailable with Retry-After after the "
      + "command deadline, and once the circuit opens Redis is not asked until it resets")
  void stalledRedisIs503AndTripsTheCircuit(Vertx vertx) {
    // a deadline generous enough for a loaded machine before the stall; during it every command meets it
    start(vertx, new JsonObject().put("redis", new JsonObject().put("command-timeout-ms", 1_000)
        .put("breaker-max-failures", 3).put("breaker-reset-ms", 600_000)));
    TokenPair pair = Await.result(KithTestKit.newSession(platform));

    proxy.stall(true);
    for (int i = 0; i < 5; i++) {
      HttpResponse<Buffer> response = refresh(pair);
      assertProblem(response, 503, "unavailable");
      assertEquals("2", response.getHeader("Retry-After"), "Retry-After of answer " + i);
    }
    assertEquals(CircuitBreakerState.OPEN, ((GuardedRedis) platform.redis()).state());
    proxy.stall(false);
    assertProblem(refresh(pair), 503, "unavailable");
  }

  @Test
  @DisplayName("a request still waiting for a store at http.request-timeout-seconds is answered 503 unavailable "
      + "with Retry-After, and the node serves again once the store answers")
  void requestDeadlineAnswers503(Vertx vertx) {
    start(vertx, new JsonObject()
        .put("redis", new JsonObject().put("command-timeout-ms", 600_000))
        .put("http", new JsonObject().put("request-timeout-seconds", 2)));
    TokenPair pair = Await.result(KithTestKit.newSession(platform));

    proxy.stall(true);
    HttpResponse<Buffer> response = refresh(pair);
    assertProblem(response, 503, "unavailable");
    assertEquals("2", response.getHeader("Retry-After"));

    proxy.stall(false);
    TokenPair fresh = Await.result(KithTestKit.newSession(platform));
    assertEquals(200, refresh(fresh).statusCode(), "served again once Redis answers");
  }

  @Test
  @DisplayName("/ready answers 503 naming the redis check, not 500, when Redis does not answer")
  void readyIs503WhenRedisStalls(Vertx vertx) {
    start(vertx, new JsonObject().put("redis", new JsonObject().put("command-timeout-ms", 600_000)));
    assertEquals(200, Await.result(client.get("/ready").send()).statusCode());

    proxy.stall(true);
    HttpResponse<Buffer> response = Await.result(client.get("/ready").send());

    assertEquals(503, response.statusCode(), response.bodyAsString());
    JsonArray checks = response.bodyAsJsonObject().getJsonArray("checks");
    assertTrue(checks.stream().map(c -> (JsonObject) c)
        .anyMatch(c -> "redis".equals(c.getString("id")) && "DOWN".equals(c.getString("status"))),
        response.bodyAsString());
    TestGateway.assertNoInternals(response.bodyAsString());
  }
}
