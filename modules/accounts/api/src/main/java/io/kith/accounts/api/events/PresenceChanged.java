package io.kith.accounts.api.events;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * The user came online, went offline, or changed presence mode.
 *
 * @param userId whose presence
 * @param online whether the user is online now
 * @param mode the presence mode
 */
public record PresenceChanged(long userId, boolean online, String mode) implements Event {

  @Override
  public String eventType() {
    return AccountsEvents.PRESENCE_CHANGED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("user_id", userId).put("online", online).put("mode", mode);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PresenceChanged fromJson(JsonObject json) {
    return new PresenceChanged(json.getLong("user_id", 0L), json.getBoolean("online", false), json.getString("mode"));
  }
}
