package io.kith.bench.scenario;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Checks on response bodies, so that a fast wrong answer never counts as a success. */
public final class Replies {

  /** The path every scenario checks a token with. */
  public static final String WHOAMI = "/api/v1/whoami";

  private Replies() {
  }

  /** The body of {@code GET /api/v1/ping}: {@code {"pong":true,...}}. */
  public static JsonObject pong(JsonObject body) {
    if (!Boolean.TRUE.equals(body.getValue("pong"))) {
      throw new IllegalStateException("unexpected ping body");
    }
    return body;
  }

  /** A token pair {@code {"access_token":"...",...}}: the access token. */
  public static String accessToken(JsonObject tokens) {
    Object token = tokens == null ? null : tokens.getValue("access_token");
    if (!(token instanceof String) || ((String) token).isEmpty()) {
      throw new IllegalStateException("reply has no access_token");
    }
    return (String) token;
  }

  /** A profile body {@code {"id":<id>,"username":...}} of user {@code expected}. */
  public static JsonObject profile(JsonObject body, long expected) {
    Object id = body.getValue("id");
    if (!(id instanceof Number) || ((Number) id).longValue() != expected) {
      throw new IllegalStateException("profile reply is not user " + expected + "'s");
    }
    if (!(body.getValue("username") instanceof String)) {
      throw new IllegalStateException("profile reply has no username");
    }
    return body;
  }

  /** A whoami body {@code {"user_id":<id>}}; when {@code expected} is known (not 0) the id must match. */
  public static JsonObject whoami(JsonObject body, long expected) {
    Object id = body.getValue("user_id");
    if (!(id instanceof Number) || ((Number) id).longValue() <= 0) {
      throw new IllegalStateException("whoami reply has no user_id");
    }
    if (expected != 0 && ((Number) id).longValue() != expected) {
      throw new IllegalStateException("whoami answered user " + id + " instead of " + expected);
    }
    return body;
  }

  /** {@code GET /api/v1/whoami} with {@code token}; the body must be user {@code expected}'s (when not 0). */
  public static Future<JsonObject> whoami(BenchHttpClient http, String token, long expected) {
    return http.getJson(WHOAMI, token).map(body -> whoami(body, expected));
  }

  /**
   * The baseline most scenarios measure against: {@link #whoami(BenchHttpClient, String, long)} as operation
   * {@code name}, described as {@code GET /api/v1/whoami with <whose>}.
   */
  public static Operation whoamiOperation(String name, String whose, BenchHttpClient http, String token,
                                          long expected) {
    return new Operation(name, "GET " + WHOAMI + " with " + whose, () -> whoami(http, token, expected));
  }
}
