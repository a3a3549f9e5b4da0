package io.kith.notifications.api.events;

import io.kith.notifications.api.NotificationsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A new notification was stored; appended after its record and its Redis side, once per notification.
 *
 * @param userId       the recipient
 * @param notification the recipient's view of it (see {@code NotificationsService}: the same as the bridge push)
 * @param replaces     the ids of the recipient's notifications it took the place of (its slot), possibly empty
 * @param unreadTotal  the recipient's unread notifications with it (the badge)
 */
public record NotificationStored(long userId, JsonObject notification, List<Long> replaces, long unreadTotal)
    implements Event {

  @Override
  public String eventType() {
    return NotificationsEvents.NOTIFICATION_STORED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("user_id", userId).put("notification", notification)
        .put("replaces", new JsonArray(new ArrayList<>(replaces))).put("unread_total", unreadTotal);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static NotificationStored fromJson(JsonObject json) {
    return new NotificationStored(json.getLong("user_id", 0L), json.getJsonObject("notification", new JsonObject()),
        Event.longs(json.getJsonArray("replaces")), json.getLong("unread_total", 0L));
  }
}
