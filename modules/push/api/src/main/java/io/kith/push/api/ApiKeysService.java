package io.kith.push.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Server-to-server API keys of the app's own backend: made, listed and revoked by an admin (a user with the moderation
 * role {@code admin}, the {@code actor} of a verified token; a key cannot make keys: {@code role_required} 403 for
 * anyone else, each change recorded in the moderation audit log), and checked by the gateway on the server-to-server
 * routes. A key is {@code kith_sk_} and 32 random bytes; only its SHA-256 is stored, so it is
 * shown once, when made.
 *
 * <p><b>Key view</b>: {@code {id, name, scopes: [...], created, last_used?, revoked?}}.
 */
@ProxyGen
@VertxGen
public interface ApiKeysService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.push.keys";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static ApiKeysService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, ApiKeysService.class, ADDRESS);
  }

  /**
   * Makes a key: {@code {name (1..100 characters), scopes: [1.. of ApiKeys.SCOPES]}}. Returns its view and
   * {@code key}, the only time the key is shown.
   */
  Future<JsonObject> create(long actor, JsonObject request);

  /** Every key, oldest first: {@code {items: [views]}}. */
  Future<JsonObject> list(long actor);

  /** Revokes a key at once (idempotent); {@link ApiKeysErrors#API_KEY_NOT_FOUND} for an unknown id. */
  Future<JsonObject> revoke(long actor, long id);

  /**
   * Checks a presented key for {@code scope} (null: any valid key) and records its use: the key's view, or
   * {@link ApiKeysErrors#API_KEY_REQUIRED} (not a key at all), {@link ApiKeysErrors#API_KEY_INVALID},
   * {@link ApiKeysErrors#API_KEY_REVOKED}, {@link ApiKeysErrors#INSUFFICIENT_SCOPE}.
   */
  Future<JsonObject> authenticate(String key, String scope);
}
