package io.kith.platform.token;

import io.vertx.core.json.JsonObject;

/**
 * What a login or a refresh returns.
 *
 * @param accessToken  short-lived bearer token for API calls and the bridge
 * @param refreshToken single-use token that yields the next pair
 * @param expiresIn    access token lifetime in seconds
 * @param sessionId    the session both tokens belong to
 * @param userId       the user
 */
public record TokenPair(String accessToken, String refreshToken, int expiresIn, String sessionId, long userId) {

  /** The OAuth-style JSON body. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("access_token", accessToken)
        .put("refresh_token", refreshToken)
        .put("token_type", "Bearer")
        .put("expires_in", expiresIn)
        .put("session_id", sessionId)
        .put("user_id", userId);
  }
}
