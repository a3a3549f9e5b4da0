package io.kith.push.service.keys;

import io.kith.platform.error.Failures;
import io.kith.platform.token.Sessions;
import io.kith.push.api.ApiKeys;
import io.kith.push.api.ApiKeysErrors;
import io.vertx.core.Future;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may administer: the holder of the operator's admin token, whose SHA-256 is {@code push.admin-token-hash}
 * (compared in constant time; the token itself is never stored), and for an operation with a scope, an API key with
 * that scope. There are no roles yet: issue 22 replaces this one check with a role check of the caller, and the admin
 * API keeps its shape.
 */
public final class OperatorCheck {

  private final String hash;
  private final ApiKeysServiceImpl keys;

  OperatorCheck(String hash, ApiKeysServiceImpl keys) {
    this.hash = hash;
    this.keys = keys;
  }

  /**
   * Succeeds when {@code credential} is the operator's admin token, or (with a {@code scope}) an API key holding it;
   * otherwise fails with the reason.
   */
  public Future<Void> check(String credential, String scope) {
    if (credential == null || credential.isBlank()) {
      return Failures.fail(ApiKeysErrors.OPERATOR_REQUIRED,
          "this operation needs the operator's credential: Authorization: Bearer <admin token>");
    }
    if (scope != null && credential.startsWith(ApiKeys.PREFIX)) {
      return keys.authenticate(credential, scope).mapEmpty();
    }
    if (hash.isEmpty() || !MessageDigest.isEqual(hash.getBytes(StandardCharsets.US_ASCII),
        Sessions.sha256(credential).getBytes(StandardCharsets.US_ASCII))) {
      return Failures.fail(ApiKeysErrors.OPERATOR_INVALID, "this credential may not do this");
    }
    return Future.succeededFuture();
  }
}
