package io.kith.platform.error;

/** Failure codes shared by every domain and the gateway. */
public final class KithErrors {

  /** The request is malformed or a value is invalid; {@code field} names the culprit when known. */
  public static final ErrorCode VALIDATION_FAILED = ErrorCode.of(400, "validation_failed", "Invalid request");
  /** The body is not parseable JSON. */
  public static final ErrorCode MALFORMED_JSON = ErrorCode.of(400, "malformed_json", "Malformed JSON body");
  /** No credentials were presented. */
  public static final ErrorCode UNAUTHENTICATED = ErrorCode.of(401, "unauthenticated", "Authentication required");
  /** The access token is not valid (signature, algorithm, issuer, audience or format). */
  public static final ErrorCode TOKEN_INVALID = ErrorCode.of(401, "token_invalid", "Invalid token");
  /** The access token has expired; refresh it. */
  public static final ErrorCode TOKEN_EXPIRED = ErrorCode.of(401, "token_expired", "Token expired");
  /** The session behind the token was revoked or has ended. */
  public static final ErrorCode SESSION_REVOKED = ErrorCode.of(401, "session_revoked", "Session revoked");
  /** A refresh token was presented that is unknown, expired or already used. */
  public static final ErrorCode REFRESH_INVALID = ErrorCode.of(401, "refresh_token_invalid", "Invalid refresh token");
  /** The acting user may not do this. */
  public static final ErrorCode FORBIDDEN = ErrorCode.of(403, "forbidden", "Forbidden");
  /** The object does not exist or is not visible to the acting user. */
  public static final ErrorCode NOT_FOUND = ErrorCode.of(404, "not_found", "Not found");
  /** The HTTP method is not supported on this path. */
  public static final ErrorCode METHOD_NOT_ALLOWED = ErrorCode.of(405, "method_not_allowed", "Method not allowed");
  /** The request conflicts with the current state (a duplicate, a concurrent change). */
  public static final ErrorCode CONFLICT = ErrorCode.of(409, "conflict", "Conflict");
  /** The request body is larger than allowed. */
  public static final ErrorCode PAYLOAD_TOO_LARGE = ErrorCode.of(413, "payload_too_large", "Payload too large");
  /** The request body has a content type the operation does not accept. */
  public static final ErrorCode UNSUPPORTED_MEDIA_TYPE =
      ErrorCode.of(415, "unsupported_media_type", "Unsupported media type");
  /** Too many requests; {@code retry_after} says when to come back (seconds). */
  public static final ErrorCode RATE_LIMITED = ErrorCode.of(429, "rate_limited", "Too many requests");
  /** A bug: the body carries no internals; the log has them. */
  public static final ErrorCode INTERNAL = ErrorCode.of(500, "internal_error", "Internal error");
  /** A dependency (store, service on another node) is unavailable or timed out; retry later. */
  public static final ErrorCode UNAVAILABLE = ErrorCode.of(503, "unavailable", "Service unavailable");

  private KithErrors() {
  }
}
