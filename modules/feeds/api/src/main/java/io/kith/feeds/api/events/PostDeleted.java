package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A post was deleted.
 *
 * @param post the post
 * @param author its author
 * @param repostOf the reposted post, 0 if none
 */
public record PostDeleted(long post, long author, long repostOf) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.POST_DELETED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("post", post).put("author", author).put("repost_of", repostOf);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostDeleted fromJson(JsonObject json) {
    return new PostDeleted(json.getLong("post", 0L), json.getLong("author", 0L), json.getLong("repost_of", 0L));
  }
}
