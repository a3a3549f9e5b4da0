package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * The author changed who may see a post.
 *
 * @param post the post
 * @param author its author
 * @param visibility its visibility now
 */
public record PostEdited(long post, long author, String visibility) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.POST_EDITED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("post", post).put("author", author).put("visibility", visibility);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostEdited fromJson(JsonObject json) {
    return new PostEdited(json.getLong("post", 0L), json.getLong("author", 0L), json.getString("visibility"));
  }
}
