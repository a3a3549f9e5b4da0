package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A user who may see a post is mentioned in it (one event per such user).
 *
 * @param post the post
 * @param from its author
 * @param to the mentioned user
 */
public record UserMentioned(long post, long from, long to) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.USER_MENTIONED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("post", post).put("from", from).put("to", to);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static UserMentioned fromJson(JsonObject json) {
    return new UserMentioned(json.getLong("post", 0L), json.getLong("from", 0L), json.getLong("to", 0L));
  }
}
