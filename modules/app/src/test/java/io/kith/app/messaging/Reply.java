package io.kith.app.messaging;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One HTTP response as a test sees it: status, headers and body. */
record Reply(int status, MultiMap headers, Buffer body) {

  /** The body as text, for assertion messages. */
  String text() {
    return body == null ? "" : body.toString();
  }

  /** Asserts the status and returns the JSON body. */
  JsonObject expect(int expected) {
    assertEquals(expected, status, "unexpected status; body: " + text());
    assertTrue(body != null && body.length() > 0, "expected a JSON body, got none (status " + status + ")");
    return body.toJsonObject();
  }

  /** Asserts a 204 with no body. */
  void expectNoContent() {
    assertEquals(204, status, "unexpected status; body: " + text());
  }

  /** Asserts a problem+json answer with this status and code (and this field unless null); returns it. */
  JsonObject problem(int expectedStatus, String code, String field) {
    assertEquals(expectedStatus, status, "unexpected status; body: " + text());
    String type = headers.get("Content-Type");
    assertNotNull(type, "an error carries a Content-Type");
    assertTrue(type.startsWith("application/problem+json"), "error Content-Type is problem+json: " + type);
    JsonObject problem = body.toJsonObject();
    assertEquals(expectedStatus, problem.getInteger("status"), problem.encode());
    assertEquals(code, problem.getString("code"), problem.encode());
    if (field != null) {
      assertEquals(field, problem.getString("field"), problem.encode());
    }
    return problem;
  }

  /** {@link #problem(int, String, String)} without a field check. */
  JsonObject problem(int expectedStatus, String code) {
    return problem(expectedStatus, code, null);
  }

  /**
   * Asserts a rate-limit problem: 429 with this code, a {@code retry_after} member between 1 and {@code maxSeconds}
   * and a Retry-After header saying the same.
   *
   * @return the seconds to wait
   */
  long throttled(String code, long maxSeconds) {
    JsonObject problem = problem(429, code);
    assertNotNull(problem.getValue("retry_after"), "retry_after member: " + problem.encode());
    long retryAfter = problem.getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= maxSeconds, "retry_after within the window: " + problem.encode());
    assertEquals(String.valueOf(retryAfter), headers.get("Retry-After"), "Retry-After header equals retry_after");
    return retryAfter;
  }
}
