package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A post was published: fan-out starts from here.
 *
 * @param post the post
 * @param author its author
 * @param visibility its visibility
 * @param repostOf the reposted post, 0 if none
 * @param mentions the users it mentions
 */
public record PostPublished(long post, long author, String visibility, long repostOf, List<Long> mentions)
    implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.POST_PUBLISHED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("post", post).put("author", author).put("visibility", visibility)
        .put("repost_of", repostOf).put("mentions", new JsonArray(new ArrayList<>(mentions)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostPublished fromJson(JsonObject json) {
    return new PostPublished(json.getLong("post", 0L), json.getLong("author", 0L), json.getString("visibility"),
        json.getLong("repost_of", 0L), Event.longs(json.getJsonArray("mentions")));
  }
}
