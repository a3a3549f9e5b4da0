package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The owner dissolved a group.
 *
 * @param group the group (also its conversation id)
 * @param name the group's name
 * @param kind the group's kind
 * @param by the owner
 * @param members the members it had
 */
public record GroupDissolved(long group, String name, String kind, long by, List<Long> members)
    implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.GROUP_DISSOLVED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("group", group).put("name", name).put("kind", kind).put("by", by)
        .put("members", new JsonArray(new ArrayList<>(members)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static GroupDissolved fromJson(JsonObject json) {
    return new GroupDissolved(json.getLong("group", 0L), json.getString("name"), json.getString("kind"),
        json.getLong("by", 0L), Event.longs(json.getJsonArray("members")));
  }
}
