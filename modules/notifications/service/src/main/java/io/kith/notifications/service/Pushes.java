package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Real-time pushes to a user's connections ({@code kith.user.<id>}, published cluster-wide): a new notification
 * ({@link Notifications#PUSH_NOTIFICATION}) and the unread counts after a change ({@link Notifications#PUSH_UNREAD}).
 * At most once, like the event bus: the counts a client shows are re-read from the service when it reconnects.
 */
final class Pushes {

  private final Platform platform;

  Pushes(Platform platform) {
    this.platform = platform;
  }

  /** Pushes a new notification (its client view), naming the one it replaced in its slot, then the new counts. */
  void notification(long to, JsonObject view, List<Long> replaced, JsonObject counts) {
    var bus = platform.vertx().eventBus();
    JsonObject envelope = new JsonObject().put("kind", Notifications.PUSH_NOTIFICATION)
        .put("notification", view);
    if (!replaced.isEmpty()) {
      envelope.put("replaces", new JsonArray(replaced));
    }
    bus.publish(Addresses.user(to), envelope);
    bus.publish(Addresses.user(to), unreadEnvelope(counts));
  }

  /** Pushes the counts after a change, when it changed something and the user's side was there to count. */
  void counts(long user, HotStore.Change change) {
    if (!change.ids().isEmpty() && change.counts() != null) {
      platform.vertx().eventBus().publish(Addresses.user(user), unreadEnvelope(change.counts()));
    }
  }

  private static JsonObject unreadEnvelope(JsonObject counts) {
    return new JsonObject().put("kind", Notifications.PUSH_UNREAD).put("counts", counts);
  }
}
