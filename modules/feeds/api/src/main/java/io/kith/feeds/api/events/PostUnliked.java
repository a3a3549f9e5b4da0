package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A like was really removed.
 *
 * @param post the post
 * @param postAuthor the post's author
 * @param from who unliked it
 */
public record PostUnliked(long post, long postAuthor, long from) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.POST_UNLIKED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("post", post).put("post_author", postAuthor).put("from", from);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostUnliked fromJson(JsonObject json) {
    return new PostUnliked(json.getLong("post", 0L), json.getLong("post_author", 0L), json.getLong("from", 0L));
  }
}
