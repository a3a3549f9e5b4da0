package io.kith.push.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of server-to-server API keys. */
public final class ApiKeysErrors {

  /**
   * A server-to-server route was called without an API key, or with something else in its place (a user's access
   * token): send {@code Authorization: Bearer kith_sk_...} or {@code X-Api-Key: kith_sk_...}.
   */
  public static final ErrorCode API_KEY_REQUIRED = ErrorCode.of(401, "api_key_required", "API key required");
  /** No such API key. */
  public static final ErrorCode API_KEY_INVALID = ErrorCode.of(401, "api_key_invalid", "Invalid API key");
  /** The API key was revoked. */
  public static final ErrorCode API_KEY_REVOKED = ErrorCode.of(401, "api_key_revoked", "API key revoked");
  /** The API key lacks the scope the operation needs ({@code extra.scope} names it). */
  public static final ErrorCode INSUFFICIENT_SCOPE = ErrorCode.of(403, "insufficient_scope", "Insufficient scope");
  /** No API key with this id. */
  public static final ErrorCode API_KEY_NOT_FOUND = ErrorCode.of(404, "api_key_not_found", "API key not found");

  private ApiKeysErrors() {
  }
}
