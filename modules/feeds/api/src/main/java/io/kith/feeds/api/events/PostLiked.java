package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A like was really added.
 *
 * @param post the post
 * @param postAuthor the post's author
 * @param from who liked it
 */
public record PostLiked(long post, long postAuthor, long from) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.POST_LIKED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("post", post).put("post_author", postAuthor).put("from", from);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostLiked fromJson(JsonObject json) {
    return new PostLiked(json.getLong("post", 0L), json.getLong("post_author", 0L), json.getLong("from", 0L));
  }
}
