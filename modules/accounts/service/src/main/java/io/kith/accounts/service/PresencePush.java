package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** Tells a user's own connections and the event log that their presence changed. */
final class PresencePush {

  private final Platform platform;
  private final PresenceStore presence;
  private final Emitter events;

  PresencePush(Platform platform, PresenceStore presence, Emitter events) {
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
      events.emit(AccountsEvents.PRESENCE_CHANGED,
          new JsonObject().put("user_id", userId).put("online", isOnline).put("mode", mode));
      return null;
    });
  }
}
