package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.vertx.core.json.JsonObject;

/**
 * A member was removed by the owner or an admin.
 *
 * @param group the group (also its conversation id)
 * @param name the group's name
 * @param kind the group's kind
 * @param by who removed the member
 * @param user the removed member
 */
public record MemberKicked(long group, String name, String kind, long by, long user) implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.MEMBER_KICKED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("group", group).put("name", name).put("kind", kind).put("by", by).put("user", user);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static MemberKicked fromJson(JsonObject json) {
    return new MemberKicked(json.getLong("group", 0L), json.getString("name"), json.getString("kind"),
        json.getLong("by", 0L), json.getLong("user", 0L));
  }
}
