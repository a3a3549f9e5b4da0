package io.kith.push.service.keys;

import io.kith.moderation.api.Moderation;
import io.kith.moderation.api.ModerationInternal;
import io.kith.moderation.api.ModerationService;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.push.api.ApiKeysErrors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may administer push (API keys, webhooks): a user whose moderation role is {@code admin}, asked of moderation on
 * every call (so a demotion takes effect at once, as on moderation's own admin routes), and for an operation with a
 * scope, an API key the gateway authenticated that holds it. Moderators are refused too: these operations hand out
 * credentials and send data out of Kith. Also records the changes in moderation's audit log.
 */
public final class OperatorCheck {

  private static final Logger LOG = LoggerFactory.getLogger(OperatorCheck.class);

  private final ModerationService moderation;
  private final ModerationInternal audit;

  /** The check over the moderation module's services (on any node running it). */
  public OperatorCheck(Vertx vertx) {
    this.moderation = ModerationService.proxy(vertx);
    this.audit = ModerationInternal.proxy(vertx);
  }

  /**
   * Succeeds when {@code apiKey} (an authenticated key's view, or null) holds {@code scope}, or else when
   * {@code actor} (a verified user, 0 when none) is an admin; otherwise fails {@code insufficient_scope},
   * {@code unauthenticated} or {@code role_required}.
   */
  public Future<Void> check(long actor, JsonObject apiKey, String scope) {
    if (apiKey != null) {
      if (scope != null && apiKey.getJsonArray("scopes", new JsonArray()).contains(scope)) {
        return Future.succeededFuture();
      }
      String needs = scope == null ? "an admin user" : "the scope " + scope;
      return Future.failedFuture(Failures.withExtra(ApiKeysErrors.INSUFFICIENT_SCOPE,
          "this operation needs " + needs, new JsonObject().put("scope", scope)));
    }
    if (actor <= 0) {
      return Failures.fail(KithErrors.UNAUTHENTICATED, "this operation needs an admin's Authorization: Bearer token");
    }
    return moderation.myRole(actor).compose(r -> Moderation.ADMIN.equals(r.getString("role"))
        ? Future.succeededFuture()
        : Failures.fail(Moderation.ROLE_REQUIRED, "only an admin may administer API keys and webhooks"));
  }

  /**
   * Appends a change to the moderation audit log ({@code actor} 0 and {@code details.api_key} when a key acted). The
   * change is already made: a failed append is logged, not returned, so that the caller does not retry a done change.
   */
  public Future<Void> record(long actor, JsonObject apiKey, String action, String targetType, long targetId,
                             JsonObject details) {
    JsonObject all = details.copy();
    if (apiKey != null) {
      all.put("api_key", apiKey.getLong("id"));
    }
    return audit.recordAudit(apiKey != null ? 0 : actor, action, targetType, targetId, all).recover(e -> {
      LOG.error("audit entry {} of {} {} not recorded: {}", action, targetType, targetId, e.getMessage());
      return Future.succeededFuture();
    });
  }
}
