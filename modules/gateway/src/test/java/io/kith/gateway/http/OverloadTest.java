package io.kith.gateway.http;

import com.mongodb.MongoTimeoutException;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Overload: bounded in-flight requests and busy dependencies answer 503, never 500")
class OverloadTest {

  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  /** A ping handler that holds each request until the test releases it. */
  private static final class Held {
    final List<Map.Entry<Context, RoutingContext>> requests = new CopyOnWriteArrayList<>();

    ApiRoutes routes() {
      return builder -> builder.getRoute("ping").addHandler(rc ->
          requests.add(Map.entry(Vertx.currentContext(), rc)));
    }

    void releaseAll() {
      requests.forEach(e -> e.getKey().runOnContext(v -> Http.ok(e.getValue(), new JsonObject().put("pong", true))));
    }
  }

  @Test
  @DisplayName("beyond http.max-in-flight API requests on a node a new one is answered 503 unavailable with "
      + "Retry-After at once, operational endpoints still answer, and requests are served again once others finish")
  void inFlightBound(Vertx vertx) {
    Held held = new Held();
    gateway = TestGateway.start(vertx, new JsonObject().put("http", new JsonObject().put("max-in-flight", 2)),
        platform -> { }, platform -> List.of(held.routes()));
    List<Future<HttpResponse<Buffer>>> first = List.of(
        gateway.request(io.vertx.core.http.HttpMethod.GET, API + "/ping", null).send(),
        gateway.request(io.vertx.core.http.HttpMethod.GET, API + "/ping", null).send());
    Await.result(Poll.until(vertx, Duration.ofSeconds(20), "two requests held",
        () -> Future.succeededFuture(held.requests.size() == 2)));

    HttpResponse<Buffer> refused = gateway.get(API + "/ping", null);
    assertProblem(refused, 503, "unavailable");
    assertEquals("2", refused.getHeader("Retry-After"));
    assertEquals("nosniff", refused.getHeader("X-Content-Type-Options"), "security headers on a refusal");
    assertEquals(2, held.requests.size(), "the refused request reached no handler");
    assertEquals(200, gateway.get("/health", null).statusCode(), "operational endpoints are not counted");

    held.releaseAll();
    for (Future<HttpResponse<Buffer>> f : first) {
      assertEquals(200, Await.result(f).statusCode());
    }
    Await.result(Poll.until(vertx, Duration.ofSeconds(20), "the count to return to zero",
        () -> Future.succeededFuture(InFlightLimit.inFlight(vertx) == 0)));
    Future<HttpResponse<Buffer>> again = gateway.request(io.vertx.core.http.HttpMethod.GET, API + "/ping", null).send();
    Await.result(Poll.until(vertx, Duration.ofSeconds(20), "the next request to be served",
        () -> Future.succeededFuture(held.requests.size() == 3)));
    held.releaseAll();
    assertEquals(200, Await.result(again).statusCode());
  }

  @Test
  @DisplayName("a busy, unreachable or timed-out dependency that reaches the gateway uncoded (pool wait queue full, "
      + "reply timeout, no handlers, open circuit, MongoDB timeout, connection refused) is 503 unavailable with "
      + "Retry-After; a bug is still 500")
  void busyDependenciesAre503(Vertx vertx) {
    List<Supplier<Throwable>> failures = List.of(
        () -> new ConnectionPoolTooBusyException("Connection pool reached max wait queue size of 4096"),
        () -> new ReplyException(ReplyFailure.TIMEOUT, "Timed out after waiting 15000(ms) for a reply"),
        () -> new ReplyException(ReplyFailure.NO_HANDLERS, "No handlers for address kith.relations"),
        () -> OpenCircuitException.INSTANCE,
        () -> new MongoTimeoutException("Timed out while waiting for a server"),
        () -> new java.net.ConnectException("Connection refused"));
    AtomicInteger next = new AtomicInteger();
    ApiRoutes failing = builder -> builder.getRoute("ping").addHandler(rc -> {
      int i = next.getAndIncrement();
      rc.fail(i < failures.size() ? failures.get(i).get() : new IllegalStateException("a bug"));
    });
    gateway = TestGateway.start(vertx, new JsonObject(), platform -> { }, platform -> List.of(failing));

    for (int i = 0; i < failures.size(); i++) {
      HttpResponse<Buffer> response = gateway.get(API + "/ping", null);
      assertProblem(response, 503, "unavailable");
      assertEquals("2", response.getHeader("Retry-After"), "Retry-After of failure " + i);
    }
    HttpResponse<Buffer> bug = gateway.get(API + "/ping", null);
    assertProblem(bug, 500, "internal_error");
    assertNull(bug.getHeader("Retry-After"));
  }
}
