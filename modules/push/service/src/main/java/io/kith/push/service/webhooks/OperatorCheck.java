package io.kith.push.service.webhooks;

import io.kith.platform.error.Failures;
import io.kith.platform.token.Sessions;
import io.kith.push.api.WebhooksErrors;
import io.vertx.core.Future;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may administer webhooks: the holder of the operator's admin token, whose SHA-256 is
 * {@code push.admin-token-hash} (compared in constant time; the token itself is never stored). There are no roles
 * yet: issue 22 replaces this one check with a role check of the caller, and the admin API keeps its shape.
 */
final class OperatorCheck {

  private final String hash;

  OperatorCheck(String hash) {
    this.hash = hash;
  }

  /** Succeeds when {@code credential} is the operator's; otherwise fails with the reason. */
  Future<Void> check(String credential) {
    if (credential == null || credential.isBlank()) {
      return Failures.fail(WebhooksErrors.OPERATOR_REQUIRED,
          "this operation needs the operator's admin token: Authorization: Bearer <admin token>");
    }
    if (hash.isEmpty() || !MessageDigest.isEqual(hash.getBytes(StandardCharsets.US_ASCII),
        Sessions.sha256(credential).getBytes(StandardCharsets.US_ASCII))) {
      return Failures.fail(WebhooksErrors.OPERATOR_INVALID, "this credential may not administer webhooks");
    }
    return Future.succeededFuture();
  }
}
