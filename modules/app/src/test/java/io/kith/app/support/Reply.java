package io.kith.app.support;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One HTTP response as a test sees it: status, headers and body. */
public record Reply(int status, MultiMap headers, Buffer body) {

  /** The body as a JSON object (fails the test when it is not one). */
  public JsonObject json() {
    assertTrue(body != null && body.length() > 0, "expected a JSON body, got none (status " + status + ")");
    return body.toJsonObject();
  }

  /** The body as text, for assertion messages. */
  public String text() {
    return body == null ? "" : body.toString();
  }

  /** The header value or null. */
  public String header(String name) {
    return headers.get(name);
  }

  /** Asserts the status and returns the JSON body. */
  public JsonObject expect(int expected) {
    assertEquals(expected, status, "unexpected status; body: " + text());
    return json();
  }

  /** Asserts a 204 with no body. */
  public void expectNoContent() {
    assertEquals(204, status, "unexpected status; body: " + text());
  }

  /**
   * Asserts a problem+json answer with this status and code (and, when {@code field} is not null, this field).
   *
   * @return the problem body without its {@code request_id}, which is asserted to be the response's
   *     {@code X-Request-Id} and differs on every request (two refusals that must look alike are compared without it)
   */
  public JsonObject problem(int expectedStatus, String code, String field) {
    assertEquals(expectedStatus, status, "unexpected status; body: " + text());
    String type = header("Content-Type");
    assertNotNull(type, "an error carries a Content-Type");
    assertTrue(type.startsWith("application/problem+json"), "error Content-Type is problem+json: " + type);
    JsonObject problem = json();
    assertEquals(expectedStatus, problem.getInteger("status"), problem.encode());
    assertEquals(code, problem.getString("code"), problem.encode());
    if (field != null) {
      assertEquals(field, problem.getString("field"), problem.encode());
    }
    String requestId = header("X-Request-Id");
    if (requestId != null) {
      assertEquals(requestId, problem.getString("request_id"), "the problem names its request: " + problem.encode());
    }
    problem.remove("request_id");
    return problem;
  }

  /** {@link #problem(int, String, String)} without a field check. */
  public JsonObject problem(int expectedStatus, String code) {
    return problem(expectedStatus, code, null);
  }

  /**
   * Asserts a rate-limit problem: 429 with this code, a {@code retry_after} member between 1 and {@code maxSeconds}
   * and a Retry-After header saying the same.
   *
   * @return the seconds to wait
   */
  public long throttled(String code, long maxSeconds) {
    JsonObject problem = problem(429, code);
    assertNotNull(problem.getValue("retry_after"), "retry_after member: " + problem.encode());
    long retryAfter = problem.getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= maxSeconds, "retry_after within the window: " + problem.encode());
    assertEquals(String.valueOf(retryAfter), header("Retry-After"), "Retry-After header equals retry_after");
    return retryAfter;
  }
}
