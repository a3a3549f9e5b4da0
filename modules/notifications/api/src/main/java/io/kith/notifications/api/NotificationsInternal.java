package io.kith.notifications.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * What other modules (not clients) may ask of notifications: system notifications of the app-defined types declared
 * in {@code notifications.custom-types}, made by the app's backend through the push module's server-to-server API.
 */
@ProxyGen
@VertxGen
public interface NotificationsInternal {

  /** Event-bus address of the internal service. */
  String ADDRESS = "kith.notifications.internal";

  /** A proxy to the internal service (on any node of the cluster). */
  @GenIgnore
  static NotificationsInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, NotificationsInternal.class, ADDRESS);
  }

  /**
   * Makes a notification of the app-defined {@code type} with {@code fields} (under {@link Notifications#DATA}) for
   * each of {@code users} (0..1,000; an empty list only validates), through the same store, counts and pushes as the
   * built-in types; a user who muted the type gets none. {@code key} (1..100 characters) makes it once per user
   * whatever the retries. Fails with {@code validation_failed} naming {@code type}, {@code fields.<name>} (every
   * declared field is required, of its declared type; no other field) or {@code user_ids}.
   *
   * @return {@code {users: n}}, the recipients asked
   */
  Future<JsonObject> notifySystem(List<Long> users, String type, JsonObject fields, String key);
}
