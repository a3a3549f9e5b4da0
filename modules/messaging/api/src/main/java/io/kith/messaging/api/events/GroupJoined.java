package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.vertx.core.json.JsonObject;

/**
 * A user became a member.
 *
 * @param group the group (also its conversation id)
 * @param name the group's name
 * @param kind the group's kind
 * @param user the new member
 * @param via {@code created}, {@code join}, {@code invitation} or {@code managed}
 */
public record GroupJoined(long group, String name, String kind, long user, String via) implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.GROUP_JOINED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("group", group).put("name", name).put("kind", kind).put("user", user).put("via", via);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static GroupJoined fromJson(JsonObject json) {
    return new GroupJoined(json.getLong("group", 0L), json.getString("name"), json.getString("kind"),
        json.getLong("user", 0L), json.getString("via"));
  }
}
