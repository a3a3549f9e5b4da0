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
 * @param held a content filter holds it for review: stored {@code private} and shown to its author only until a
 *             moderator releases it ({@link PostEdited#released}), which is when it is published to its readers
 */
public record PostPublished(long post, long author, String visibility, long repostOf, List<Long> mentions,
    boolean held) implements FeedsEvent {

  /** A post published to its readers at once (not held). */
  public PostPublished(long post, long author, String visibility, long repostOf, List<Long> mentions) {
    this(post, author, visibility, repostOf, mentions, false);
  }

  @Override
  public String eventType() {
    return FeedsEvents.POST_PUBLISHED;
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("post", post).put("author", author).put("visibility", visibility)
        .put("repost_of", repostOf).put("mentions", new JsonArray(new ArrayList<>(mentions)));
    // only a held post writes the member: other payloads stay as the stream has always held them
    return held ? json.put("held", true) : json;
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostPublished fromJson(JsonObject json) {
    return new PostPublished(json.getLong("post", 0L), json.getLong("author", 0L), json.getString("visibility"),
        json.getLong("repost_of", 0L), Event.longs(json.getJsonArray("mentions")), json.getBoolean("held", false));
  }
}
