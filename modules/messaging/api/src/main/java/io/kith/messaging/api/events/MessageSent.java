package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A message was persisted; appended after the MongoDB write, once per message.
 *
 * @param message the message id
 * @param conversation its conversation
 * @param seq its sequence in the conversation
 * @param kind {@code direct} or {@code group}
 * @param from the sender
 * @param to the recipients: the peer, or every member of the group but the sender at the time of sending
 * @param preview up to 100 characters of the text; empty for media
 * @param group the group (group messages), else null
 * @param groupName the group's name (group messages; written whenever {@code group} is), else null
 * @param mentions the members the message mentions (group messages only, else empty)
 */
public record MessageSent(long message, long conversation, long seq, String kind, long from, List<Long> to,
                          String preview, Long group, String groupName, List<Long> mentions)
    implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.MESSAGE_SENT;
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    json.put("message", message).put("conversation", conversation).put("seq", seq).put("kind", kind)
        .put("from", from).put("to", new JsonArray(new ArrayList<>(to))).put("preview", preview);
    // a group message names its group (and the name, even a missing one); a direct message has neither member
    if (group != null) {
      json.put("group", group).put("group_name", groupName);
    }
    json.put("mentions", new JsonArray(new ArrayList<>(mentions)));
    return json;
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static MessageSent fromJson(JsonObject json) {
    return new MessageSent(json.getLong("message", 0L), json.getLong("conversation", 0L), json.getLong("seq", 0L),
        json.getString("kind"), json.getLong("from", 0L), Event.longs(json.getJsonArray("to")),
        json.getString("preview"), json.getLong("group"), json.getString("group_name"),
        Event.longs(json.getJsonArray("mentions")));
  }
}
