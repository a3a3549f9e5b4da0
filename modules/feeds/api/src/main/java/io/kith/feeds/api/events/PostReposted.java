package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A post was reposted.
 *
 * @param post the repost
 * @param original the reposted original
 * @param originalAuthor the original's author
 * @param from who reposted
 */
public record PostReposted(long post, long original, long originalAuthor, long from) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.POST_REPOSTED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("post", post).put("original", original).put("original_author", originalAuthor)
        .put("from", from);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostReposted fromJson(JsonObject json) {
    return new PostReposted(json.getLong("post", 0L), json.getLong("original", 0L),
        json.getLong("original_author", 0L), json.getLong("from", 0L));
  }
}
