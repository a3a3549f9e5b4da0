package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A content filter with action {@code hold} matched a new post or comment: it is stored but shown only to its author
 * (and moderators) until a moderator releases or removes it.
 *
 * @param type   {@code post} or {@code comment}
 * @param id     the post or comment
 * @param author its author
 * @param post   the post (the comment's post; the post itself for a post)
 * @param filter the filter that held it
 */
public record ContentHeld(String type, long id, long author, long post, long filter) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.CONTENT_HELD;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("type", type).put("id", id).put("author", author).put("post", post)
        .put("filter", filter);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static ContentHeld fromJson(JsonObject json) {
    return new ContentHeld(json.getString("type"), json.getLong("id", 0L), json.getLong("author", 0L),
        json.getLong("post", 0L), json.getLong("filter", 0L));
  }
}
