package io.kith.accounts.service;

import io.kith.accounts.api.events.PresenceChanged;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.events.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** Tells a user's own connections and the event log that their presence changed. */
final class PresencePush {

  private final Platform platform;
  private final PresenceStore presence;
  private final EventPublisher events;

  PresencePush(Platform platform, PresenceStore presence, EventPublisher events) {
    this.platform = platform;
    this.presence = presence;
    this.events = events;
  }

  /** Tells the user's own connections and the event log that presence changed. */
  Future<Void> presenceChanged(long userId, String mode) {
    return presence.online(List.of(userId)).map(online -> {
      boolean isOnline = online.get(userId);
      platform.vertx().eventBus().publish(Addresses.user(userId), new JsonObject()
          .put("type", "presence").put("user_id", userId).put("online", isOnline).put("mode", mode));
      events.publish(new PresenceChanged(userId, isOnline, mode));
      return null;
    });
  }
}
