package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Operational endpoints, the served contract and CORS")
class OperationalEndpointsTest {

  private static final String ORIGIN = "https://app.example.org";
  private TestGateway gateway;
  private Vertx ownVertx;

  @AfterEach
  void tearDown() {
    try {
      if (gateway != null) {
        gateway.close();
      }
    } finally {
      if (ownVertx != null) {
        Await.result(ownVertx.close());
      }
    }
  }

  private static Map<String, String> checks(JsonObject health) {
    JsonArray checks = health.getJsonArray("checks", new JsonArray());
    return checks.stream().map(o -> (JsonObject) o)
        .collect(Collectors.toMap(c -> c.getString("id"), c -> c.getString("status")));
  }

  @Test
  @DisplayName("/health answers 200 UP")
  void health(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = gateway.get("/health", null);

    assertEquals(200, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertEquals("UP", body.getString("status"), body.encode());
  }

  @Test
  @DisplayName("/ready answers 200 UP with passing redis and mongo checks")
  void ready(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = gateway.get("/ready", null);

    assertEquals(200, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertEquals("UP", body.getString("status"), body.encode());
    Map<String, String> checks = checks(body);
    assertEquals("UP", checks.get("redis"), body.encode());
    assertEquals("UP", checks.get("mongo"), body.encode());
  }

  @Test
  @DisplayName("/ready answers 503 DOWN naming the check that fails")
  void notReady(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject(), platform ->
        platform.addReadinessCheck("broken", () -> Future.failedFuture("the broken dependency is down")));

    HttpResponse<Buffer> response = gateway.get("/ready", null);

    assertEquals(503, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertEquals("DOWN", body.getString("status"), body.encode());
    Map<String, String> checks = checks(body);
    assertEquals("DOWN", checks.get("broken"), body.encode());
    assertEquals("UP", checks.get("redis"), body.encode());
    assertEquals("UP", checks.get("mongo"), body.encode());
    TestGateway.assertNoInternals(response.bodyAsString());
  }

  @Test
  @DisplayName("the contract is served at /api/v1/openapi.yaml with every operation")
  void contract(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = gateway.get(API + "/openapi.yaml", null);

    assertEquals(200, response.statusCode());
    assertTrue(response.getHeader("Content-Type").startsWith("application/yaml"), response.getHeader("Content-Type"));
    String text = response.bodyAsString();
    assertTrue(text.startsWith("openapi: 3."), text.substring(0, Math.min(80, text.length())));
    for (String op : new String[] {"ping", "whoami", "refreshTokens", "logout", "logoutEverywhere", "listSessions",
        "revokeSession"}) {
      assertTrue(text.contains("operationId: " + op), "the served contract has operation " + op);
    }
  }

  @Test
  @DisplayName("a configured CORS origin gets Access-Control headers, on requests and on preflights")
  void corsConfigured(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http",
        new JsonObject().put("cors-origins", new JsonArray().add(ORIGIN))));

    HttpResponse<Buffer> simple = Await.result(gateway.request(HttpMethod.GET, API + "/ping", null)
        .putHeader("Origin", ORIGIN).send());
    assertEquals(200, simple.statusCode());
    assertEquals(ORIGIN, simple.getHeader("Access-Control-Allow-Origin"));

    HttpResponse<Buffer> preflight = Await.result(gateway.request(HttpMethod.OPTIONS, API + "/auth/sessions", null)
        .putHeader("Origin", ORIGIN)
        .putHeader("Access-Control-Request-Method", "GET")
        .putHeader("Access-Control-Request-Headers", "Authorization")
        .send());
    assertTrue(preflight.statusCode() == 200 || preflight.statusCode() == 204, "preflight " + preflight.statusCode());
    assertEquals(ORIGIN, preflight.getHeader("Access-Control-Allow-Origin"));
    assertTrue(preflight.getHeader("Access-Control-Allow-Methods").contains("GET"));
    assertTrue(preflight.getHeader("Access-Control-Allow-Headers").toLowerCase().contains("authorization"));

    HttpResponse<Buffer> refused = Await.result(gateway.request(HttpMethod.GET, API + "/whoami", null)
        .putHeader("Origin", ORIGIN).send());
    assertProblem(refused, 401, "unauthenticated");
    assertEquals(ORIGIN, refused.getHeader("Access-Control-Allow-Origin"), "errors carry CORS headers too");
  }

  @Test
  @DisplayName("a cross-origin request from an origin that is not configured is 403 forbidden without CORS headers")
  void corsOtherOrigin(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http",
        new JsonObject().put("cors-origins", new JsonArray().add(ORIGIN))));

    HttpResponse<Buffer> simple = Await.result(gateway.request(HttpMethod.GET, API + "/ping", null)
        .putHeader("Origin", "https://evil.example.com").send());
    HttpResponse<Buffer> preflight = Await.result(gateway.request(HttpMethod.OPTIONS, API + "/ping", null)
        .putHeader("Origin", "https://evil.example.com")
        .putHeader("Access-Control-Request-Method", "GET").send());

    for (HttpResponse<Buffer> response : List.of(simple, preflight)) {
      assertProblem(response, 403, "forbidden");
      assertNull(response.getHeader("Access-Control-Allow-Origin"), response.headers().toString());
    }
    assertEquals(200, gateway.get(API + "/ping", null).statusCode(), "a same-origin request (no Origin) is served");
  }

  @Test
  @DisplayName("without configured origins no CORS headers are sent")
  void corsOff(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = Await.result(gateway.request(HttpMethod.GET, API + "/ping", null)
        .putHeader("Origin", ORIGIN).send());

    assertEquals(200, response.statusCode());
    assertNull(response.getHeader("Access-Control-Allow-Origin"), response.headers().toString());
  }

  @Test
  @DisplayName("/metrics serves Prometheus text with vertx_http_server series when metrics are enabled, openly without a metrics token")
  void metrics() {
    ownVertx = Vertx.builder()
        .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)
            .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true))))
        .withMetrics(new MicrometerMetricsFactory())
        .build();
    gateway = TestGateway.start(ownVertx);
    assertEquals(200, gateway.get(API + "/ping", null).statusCode());
    HttpResponse<Buffer>[] last = new HttpResponse[1];

    // the request metrics of the ping are recorded when its response has been written
    Await.result(Poll.until(ownVertx, Duration.ofSeconds(10), "vertx_http_server series in /metrics", () ->
        gateway.request(HttpMethod.GET, "/metrics", null).send().map(r -> {
          last[0] = r;
          return r.statusCode() == 200 && r.bodyAsString().contains("vertx_http_server_requests_total");
        })));

    assertTrue(last[0].getHeader("Content-Type").startsWith("text/plain"), last[0].getHeader("Content-Type"));
    assertTrue(last[0].bodyAsString().contains("vertx_http_server"));
  }

  @Test
  @DisplayName("with http.metrics-token set, /metrics needs Authorization: Bearer <metrics-token>; anything else is 401")
  void metricsToken() {
    ownVertx = Vertx.builder()
        .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)
            .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true))))
        .withMetrics(new MicrometerMetricsFactory())
        .build();
    String secret = "scrape-secret-0123456789";
    gateway = TestGateway.start(ownVertx, new JsonObject().put("http", new JsonObject().put("metrics-token", secret)));

    for (String wrong : new String[] {null, "wrong", secret + "x", secret.substring(1)}) {
      HttpResponse<Buffer> refused = gateway.get("/metrics", wrong);
      assertProblem(refused, 401, "unauthenticated");
      assertEquals("Bearer", refused.getHeader("WWW-Authenticate"));
    }
    HttpResponse<Buffer> basic = Await.result(gateway.request(HttpMethod.GET, "/metrics", null)
        .putHeader("Authorization", "Basic " + secret).send());
    assertProblem(basic, 401, "unauthenticated");

    HttpResponse<Buffer> allowed = gateway.get("/metrics", secret);
    assertEquals(200, allowed.statusCode(), allowed.bodyAsString());
    assertTrue(allowed.getHeader("Content-Type").startsWith("text/plain"), allowed.getHeader("Content-Type"));
  }

  @Test
  @DisplayName("/metrics answers 503 unavailable when metrics are not enabled")
  void metricsOff(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    assertProblem(gateway.get("/metrics", null), 503, "unavailable");
  }

  @Test
  @DisplayName("every response carries the security headers")
  void securityHeaders(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    for (HttpResponse<Buffer> response : new HttpResponse[] {gateway.get(API + "/ping", null),
        gateway.whoami(null), gateway.get(API + "/nope", null)}) {
      assertEquals("nosniff", response.getHeader("X-Content-Type-Options"), "status " + response.statusCode());
      assertEquals("DENY", response.getHeader("X-Frame-Options"), "status " + response.statusCode());
    }
  }
}
