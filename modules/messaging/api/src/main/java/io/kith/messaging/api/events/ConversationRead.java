package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.vertx.core.json.JsonObject;

/**
 * A user read a conversation up to a sequence (appended when a read marker moves forward).
 *
 * @param conversation the conversation
 * @param user the reader
 * @param seq the new read marker
 * @param kind {@code direct} or {@code group}
 */
public record ConversationRead(long conversation, long user, long seq, String kind) implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.CONVERSATION_READ;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("conversation", conversation).put("user", user).put("seq", seq).put("kind", kind);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ConversationRead fromJson(JsonObject json) {
    return new ConversationRead(json.getLong("conversation", 0L), json.getLong("user", 0L), json.getLong("seq", 0L),
        json.getString("kind"));
  }
}
