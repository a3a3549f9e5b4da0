package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Users were invited to a friend group (only users newly invited; at most one invitation per user and group is
 * pending).
 *
 * @param group the group (also its conversation id)
 * @param name the group's name
 * @param kind the group's kind
 * @param by the inviter
 * @param invited the invited users
 */
public record GroupInvited(long group, String name, String kind, long by, List<Long> invited)
    implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.GROUP_INVITED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("group", group).put("name", name).put("kind", kind).put("by", by)
        .put("invited", new JsonArray(new ArrayList<>(invited)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static GroupInvited fromJson(JsonObject json) {
    return new GroupInvited(json.getLong("group", 0L), json.getString("name"), json.getString("kind"),
        json.getLong("by", 0L), Event.longs(json.getJsonArray("invited")));
  }
}
