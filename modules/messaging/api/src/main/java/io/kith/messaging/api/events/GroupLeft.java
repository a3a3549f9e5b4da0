package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.vertx.core.json.JsonObject;

/**
 * A member left a group.
 *
 * @param group the group (also its conversation id)
 * @param name the group's name
 * @param kind the group's kind
 * @param user who left
 */
public record GroupLeft(long group, String name, String kind, long user) implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.GROUP_LEFT;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("group", group).put("name", name).put("kind", kind).put("user", user);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static GroupLeft fromJson(JsonObject json) {
    return new GroupLeft(json.getLong("group", 0L), json.getString("name"), json.getString("kind"),
        json.getLong("user", 0L));
  }
}
