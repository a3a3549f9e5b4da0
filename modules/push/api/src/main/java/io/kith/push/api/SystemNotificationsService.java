package io.kith.push.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * System notifications from the app's own backend: notifications of the app-defined types
 * ({@code notifications.custom-types}) to listed users, and announcements to everyone, made through the
 * notifications store (so lists, filters, unread counts and pushes treat them like the built-in types).
 */
@ProxyGen
@VertxGen
public interface SystemNotificationsService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.push.system-notifications";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static SystemNotificationsService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, SystemNotificationsService.class, ADDRESS);
  }

  /**
   * Sends {@code {user_ids: [1..1,000 ids] | all: true, type, fields: {...}, key?}} on behalf of {@code apiKey} (the
   * authenticated key's view, {@code {id, scopes}}). To {@code user_ids} it needs
   * {@link ApiKeys#NOTIFICATIONS_WRITE} and answers once stored: {@code {users: n}}, the recipients that exist
   * (unknown, pending-deletion and deleted accounts get nothing). To {@code all} it needs
   * {@link ApiKeys#ANNOUNCEMENTS_WRITE}, checks the fields, and answers {@code {announcement: id}} at once: every
   * active account is told in the background, in batches of {@code push.announcements.batch}. {@code key} (up to 100
   * characters) makes a retried request notify each user once.
   */
  Future<JsonObject> send(JsonObject apiKey, JsonObject request);
}
