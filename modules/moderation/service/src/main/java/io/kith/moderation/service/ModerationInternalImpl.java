package io.kith.moderation.service;

import io.kith.moderation.api.ModerationInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Other modules' entries in the audit log; they decided the action, so nothing is checked but its form. */
final class ModerationInternalImpl implements ModerationInternal {

  private final AuditLog audit;

  ModerationInternalImpl(AuditLog audit) {
    this.audit = audit;
  }

  @Override
  public Future<Void> recordAudit(long actor, String action, String targetType, long targetId, JsonObject details) {
    return audit.append(actor, action, targetType, targetId, details == null ? new JsonObject() : details);
  }
}
