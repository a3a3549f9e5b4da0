package io.kith.moderation.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * What other modules (not clients) may ask of moderation: appending their operators' actions to the audit log, so
 * that admins read one log of every admin action (the push module's API-key and webhook changes, for one).
 */
@ProxyGen
@VertxGen
public interface ModerationInternal {

  /** Event-bus address of the internal service. */
  String ADDRESS = "kith.moderation.internal";

  /** A proxy to the internal service (on any node of the cluster that runs moderation). */
  @GenIgnore
  static ModerationInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, ModerationInternal.class, ADDRESS);
  }

  /**
   * Appends an entry {@code {actor, action, target: {type, id}, details}} to the audit log, listed with the
   * moderation ones ({@link ModerationService#audit}). {@code actor} is the acting user (0 when an API key acted:
   * {@code details} then names it); {@code targetType} null for an action without a target.
   */
  Future<Void> recordAudit(long actor, String action, String targetType, long targetId, JsonObject details);
}
