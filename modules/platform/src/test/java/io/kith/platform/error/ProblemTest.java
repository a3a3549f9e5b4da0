package io.kith.platform.error;

import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.serviceproxy.ServiceException;
import io.vertx.serviceproxy.ServiceExceptionMessageCodec;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class ProblemTest {

  private static final String SECRET_DETAIL = "password=hunter2 at mongodb://admin@db:27017";

  @Test
  @DisplayName("a coded failure naming a field becomes a problem with its status, code, title, detail and field")
  void codedFailureWithField() {
    ServiceException failure = Failures.field(KithErrors.VALIDATION_FAILED, "limit",
        "limit must be between 1 and 100");

    Problem problem = Problem.from(failure);
    JsonObject body = problem.toJson("/api/v1/feeds");

    assertEquals(400, problem.status());
    assertFalse(problem.isInternal());
    assertEquals(Problem.TYPE_BASE + "validation_failed", body.getString("type"));
    assertEquals("Invalid request", body.getString("title"));
    assertEquals(400, body.getInteger("status"));
    assertEquals("validation_failed", body.getString("code"));
    assertEquals("limit must be between 1 and 100", body.getString("detail"));
    assertEquals("limit", body.getString("field"));
    assertEquals("/api/v1/feeds", body.getString("instance"));
  }

  @Test
  @DisplayName("extra members of a failure appear in the body but cannot replace the standard ones")
  void extraMembers() {
    ServiceException failure = Failures.withExtra(KithErrors.RATE_LIMITED, "slow down",
        new JsonObject().put("retry_after", 30).put("status", 200).put("code", "ok").put("type", "about:blank"));

    JsonObject body = Problem.from(failure).toJson(null);

    assertEquals(30, body.getInteger("retry_after"));
    assertEquals(429, body.getInteger("status"));
    assertEquals("rate_limited", body.getString("code"));
    assertEquals(Problem.TYPE_BASE + "rate_limited", body.getString("type"));
    assertFalse(body.containsKey("instance"), "no instance was given");
  }

  @Test
  @DisplayName("a coded failure that crossed the cluster wire renders the same problem")
  void codedFailureSurvivesTheWire() {
    ServiceException sent = Failures.withExtra(KithErrors.CONFLICT, "that username is taken",
        new JsonObject().put("suggestion", "ada2"));
    ServiceExceptionMessageCodec codec = new ServiceExceptionMessageCodec();
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, sent);

    ServiceException received = codec.decodeFromWire(0, wire);

    assertEquals(Problem.from(sent).toJson("/x"), Problem.from(received).toJson("/x"));
    assertEquals("conflict", Failures.codeOf(received));
    assertTrue(Failures.is(received, KithErrors.CONFLICT));
  }

  @Test
  @DisplayName("an unexpected exception becomes a 500 internal_error whose body carries nothing of the exception")
  void unexpectedExceptionIsInternal() {
    Problem problem = Problem.from(new IllegalStateException(SECRET_DETAIL));
    JsonObject body = problem.toJson("/api/v1/me");

    assertEquals(500, problem.status());
    assertTrue(problem.isInternal());
    assertEquals("internal_error", body.getString("code"));
    assertFalse(body.encode().contains("hunter2"), body.encode());
    assertFalse(body.encode().contains("IllegalStateException"), body.encode());
  }

  @Test
  @DisplayName("an uncoded ServiceException (an unhandled error in a service proxy) is internal and hides its message")
  void uncodedServiceExceptionIsInternal() {
    Problem problem = Problem.from(new ServiceException(-1, SECRET_DETAIL,
        new JsonObject().put("causeStackTrace", SECRET_DETAIL)));

    assertEquals(500, problem.status());
    assertEquals("internal_error", problem.code());
    assertFalse(problem.toJson(null).encode().contains("hunter2"));
  }

  @Test
  @DisplayName("a failure from a recipient that is not a coded ServiceException is internal and hides its message")
  void recipientFailureIsInternal() {
    Problem problem = Problem.from(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, 404, SECRET_DETAIL));

    assertEquals(500, problem.status());
    assertFalse(problem.toJson(null).encode().contains("hunter2"));
  }

  @Test
  @DisplayName("an event-bus request that times out becomes a 503 unavailable")
  void timeoutIsUnavailable(Vertx vertx) {
    String address = "test.silent." + UUID.randomUUID();
    Await.result(vertx.eventBus().consumer(address, msg -> {
      // never replies
    }).completion());

    Throwable failure = Await.failure(vertx.eventBus().request(address, "ping",
        new DeliveryOptions().setSendTimeout(200)));

    Problem problem = Problem.from(failure);
    assertEquals(503, problem.status());
    assertEquals("unavailable", problem.code());
    assertEquals(ReplyFailure.TIMEOUT, ((ReplyException) failure).failureType());
  }

  @Test
  @DisplayName("an event-bus request to an address nobody serves becomes a 503 unavailable")
  void noHandlersIsUnavailable(Vertx vertx) {
    Throwable failure = Await.failure(vertx.eventBus().request("test.nobody." + UUID.randomUUID(), "ping"));

    assertEquals(503, Problem.from(failure).status());
  }

  @Test
  @DisplayName("a coded failure replied over the event bus reaches the caller as the same problem")
  void codedFailureOverTheEventBus(Vertx vertx) {
    vertx.eventBus().registerDefaultCodec(ServiceException.class, new ServiceExceptionMessageCodec());
    String address = "test.failing." + UUID.randomUUID();
    Await.result(vertx.eventBus().consumer(address, msg ->
        msg.reply(Failures.field(KithErrors.NOT_FOUND, "post_id", "no such post"))).completion());

    Throwable failure = Await.failure(vertx.eventBus().request(address, "get"));

    Problem problem = Problem.from(failure);
    assertEquals(404, problem.status());
    assertEquals("not_found", problem.code());
    assertEquals("post_id", problem.field());
    assertEquals("no such post", problem.detail());
  }

  @Test
  @DisplayName("codeOf and is recognise coded failures and nothing else")
  void codeOfAndIs() {
    ServiceException coded = KithErrors.FORBIDDEN.failure("not yours");

    assertEquals("forbidden", Failures.codeOf(coded));
    assertTrue(Failures.is(coded, KithErrors.FORBIDDEN));
    assertFalse(Failures.is(coded, KithErrors.NOT_FOUND));
    assertNull(Failures.codeOf(new RuntimeException("x")));
    assertNull(Failures.codeOf(new ServiceException(500, "x")));
    assertFalse(Failures.is(null, KithErrors.FORBIDDEN));
  }

  @Test
  @DisplayName("an error code must have an HTTP error status and a lower snake case code")
  void errorCodeRefusals() {
    assertThrows(IllegalArgumentException.class, () -> ErrorCode.of(200, "fine", "Fine"));
    assertThrows(IllegalArgumentException.class, () -> ErrorCode.of(600, "weird", "Weird"));
    assertThrows(IllegalArgumentException.class, () -> ErrorCode.of(400, "Bad-Code", "Bad"));
    assertEquals(418, ErrorCode.of(418, "teapot", "I'm a teapot").status());
  }
}
