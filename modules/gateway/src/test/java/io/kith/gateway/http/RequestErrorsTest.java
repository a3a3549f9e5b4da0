package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.function.Supplier;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("HTTP request failures")
class RequestErrorsTest {

  private static final String REFRESH = API + "/auth/refresh";
  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  @Test
  @DisplayName("a body over http.body-limit is 413 payload_too_large")
  void bodyTooLarge(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http", new JsonObject().put("body-limit", 1024)));

    HttpResponse<Buffer> response = gateway.postJson(REFRESH, null,
        new JsonObject().put("refresh_token", "x".repeat(2048)));

    assertProblem(response, 413, "payload_too_large");
  }

  @Test
  @DisplayName("a body over http.body-limit sent chunked, without a Content-Length, is 413 payload_too_large")
  void chunkedBodyTooLarge(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http", new JsonObject().put("body-limit", 1024)));
    Buffer big = new JsonObject().put("refresh_token", "x".repeat(4096)).toBuffer();

    HttpClient client = vertx.createHttpClient();
    JsonObject[] answer = new JsonObject[1];
    int status = Await.result(client.request(HttpMethod.POST, gateway.port(), "localhost", REFRESH)
        .compose(request -> request.setChunked(true).putHeader("Content-Type", "application/json").send(big))
        .compose(response -> {
          assertEquals("application/problem+json", response.getHeader("Content-Type"));
          return response.body().map(body -> {
            answer[0] = body.toJsonObject();
            return response.statusCode();
          });
        }));

    assertEquals(413, status, String.valueOf(answer[0]));
    assertEquals("payload_too_large", answer[0].getString("code"));
  }

  @Test
  @DisplayName("a body just under http.body-limit is accepted and reaches validation")
  void bodyUnderLimit(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http", new JsonObject().put("body-limit", 1024)));

    HttpResponse<Buffer> response = gateway.postJson(REFRESH, null,
        new JsonObject().put("refresh_token", "1.abc.def"));

    assertProblem(response, 401, "refresh_token_invalid");
  }

  @Test
  @DisplayName("a body that is not JSON is 400 malformed_json")
  void malformedJson(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    assertProblem(gateway.postRaw(REFRESH, null, "{\"refresh_token\": "), 400, "malformed_json");
    assertProblem(gateway.postRaw(REFRESH, null, "not json at all"), 400, "malformed_json");
  }

  @Test
  @DisplayName("a body missing a required member is 400 validation_failed naming the field")
  void missingField(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    JsonObject problem = assertProblem(gateway.postJson(REFRESH, null, new JsonObject()), 400, "validation_failed");

    assertEquals("refresh_token", problem.getString("field"), problem.encode());
  }

  @Test
  @DisplayName("a body with a member the contract does not know is 400 validation_failed naming it")
  void unknownField(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    JsonObject problem = assertProblem(gateway.postJson(REFRESH, null,
        new JsonObject().put("refresh_token", "1.abc.def").put("is_admin", true)), 400, "validation_failed");

    String named = problem.getString("field", "") + " " + problem.getString("detail", "");
    assertTrue(named.contains("is_admin"), "the problem names the unknown member: " + problem.encode());
  }

  @Test
  @DisplayName("a member of the wrong type is 400 validation_failed naming the field")
  void wrongType(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    JsonObject problem = assertProblem(gateway.postJson(REFRESH, null, new JsonObject().put("refresh_token", 42)),
        400, "validation_failed");

    assertEquals("refresh_token", problem.getString("field"), problem.encode());
  }

  @Test
  @DisplayName("an unknown route is 404 not_found problem+json, inside and outside the API")
  void unknownRoute(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();

    assertProblem(gateway.get(API + "/no-such-thing", null), 404, "not_found");
    assertProblem(gateway.get(API + "/no-such-thing", session.accessToken()), 404, "not_found");
    assertProblem(gateway.get("/no-such-thing", null), 404, "not_found");
  }

  @Test
  @DisplayName("a method the path does not support is 405 method_not_allowed problem+json")
  void wrongMethod(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    assertProblem(gateway.call(HttpMethod.DELETE, API + "/ping", null), 405, "method_not_allowed");
    assertProblem(gateway.call(HttpMethod.GET, API + "/auth/refresh", null), 405, "method_not_allowed");
  }

  @Test
  @DisplayName("a body sent as another media type than JSON is 415 unsupported_media_type")
  void wrongMediaType(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = Await.result(gateway.request(HttpMethod.POST, REFRESH, null)
        .putHeader("Content-Type", "text/plain").sendBuffer(Buffer.buffer("{\"refresh_token\": \"1.abc.def\"}")));

    assertProblem(response, 415, "unsupported_media_type");
  }

  @Test
  @DisplayName("a JSON body declared with a charset parameter is accepted")
  void jsonWithCharset(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();

    HttpResponse<Buffer> response = Await.result(gateway.request(HttpMethod.POST, REFRESH, null)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .sendBuffer(new JsonObject().put("refresh_token", session.refreshToken()).toBuffer()));

    assertEquals(200, response.statusCode(), response.bodyAsString());
  }

  @Test
  @DisplayName("a bug in a route becomes a 500 internal_error that says nothing about it")
  void bugIsOpaque(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject(), platform -> { }, platform -> List.of(
        builder -> builder.getRoute("ping").addHandler(rc -> {
          throw new IllegalStateException("secret table kith_users at io.kith.Secret.method(Secret.java:42)");
        }),
        builder -> builder.getRoute("whoami").addHandler(rc -> Http.reply(rc,
            Future.failedFuture(new RuntimeException("db password is hunter2")), x -> new JsonObject()))));
    TokenPair session = gateway.newSession();

    for (HttpResponse<Buffer> response : List.of(gateway.get(API + "/ping", null),
        gateway.whoami(session.accessToken()))) {
      JsonObject problem = assertProblem(response, 500, "internal_error");
      assertTrue(!response.bodyAsString().contains("secret") && !response.bodyAsString().contains("hunter2"),
          response.bodyAsString());
      assertEquals("an unexpected error occurred; it has been logged", problem.getString("detail"));
    }
  }

  @Test
  @DisplayName("a service that does not answer becomes 503 unavailable")
  void serviceMissing(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject(), platform -> { }, platform -> List.of(
        builder -> builder.getRoute("ping").addHandler(rc -> Http.reply(rc,
            vertx.eventBus().<JsonObject>request("kith.test.nobody-home", new JsonObject()).map(m -> m.body()),
            body -> body))));

    assertProblem(gateway.get(API + "/ping", null), 503, "unavailable");
  }

  @Test
  @DisplayName("an operation of the contract that no route group handles is 501 problem+json")
  void unhandledOperation(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject(), platform -> { },
        platform -> List.of(TestGateway.authRoutes(platform)));

    JsonObject problem = assertProblem(gateway.get(API + "/ping", null), 501, "not_implemented");

    assertTrue(problem.getString("detail").length() > 0);
  }

  @Test
  @DisplayName("every error is application/problem+json with a stable code and no stack trace or class names")
  void errorsNeverLeakInternals(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http", new JsonObject().put("body-limit", 256)));
    TokenPair session = gateway.newSession();
    List<Supplier<HttpResponse<Buffer>>> failures = List.of(
        () -> gateway.whoami(null),
        () -> gateway.whoami("x.y.z"),
        () -> gateway.whoami(session.accessToken() + "tampered"),
        () -> gateway.postRaw(REFRESH, null, "{]"),
        () -> gateway.postRaw(REFRESH, null, "[1, 2, 3]"),
        () -> gateway.postRaw(REFRESH, null, "\"just a string\""),
        () -> gateway.postRaw(REFRESH, null, "null"),
        () -> gateway.postRaw(REFRESH, null, ""),
        () -> gateway.postJson(REFRESH, null, new JsonObject().put("refresh_token", "y".repeat(201))),
        () -> gateway.postJson(REFRESH, null, new JsonObject().put("refresh_token", "y".repeat(300))),
        () -> Await.result(gateway.request(HttpMethod.POST, REFRESH, null)
            .putHeader("Content-Type", "text/plain").sendBuffer(Buffer.buffer("refresh_token=abc"))),
        () -> gateway.call(HttpMethod.DELETE, API + "/auth/sessions/%2e%2e", session.accessToken()),
        () -> gateway.call(HttpMethod.PUT, API + "/whoami", session.accessToken()),
        () -> gateway.get(API + "/nope", null));

    for (Supplier<HttpResponse<Buffer>> failure : failures) {
      HttpResponse<Buffer> response = failure.get();
      String text = response.bodyAsString();
      assertTrue(response.statusCode() >= 400 && response.statusCode() < 500,
          "a client error, not " + response.statusCode() + ": " + text);
      JsonObject body = assertProblem(response, response.statusCode(), new JsonObject(text).getString("code"));
      assertTrue(body.getString("code").matches("[a-z][a-z0-9_]*"), text);
      assertTrue(body.containsKey("title") && body.containsKey("detail"), text);
    }
  }
}
