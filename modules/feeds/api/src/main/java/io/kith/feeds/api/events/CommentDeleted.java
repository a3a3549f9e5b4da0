package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A comment was deleted.
 *
 * @param comment the comment
 * @param post the post
 * @param postAuthor the post's author
 * @param from the commenter
 * @param by who deleted it: the commenter or the post author
 */
public record CommentDeleted(long comment, long post, long postAuthor, long from, long by) implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.COMMENT_DELETED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("comment", comment).put("post", post).put("post_author", postAuthor).put("from", from)
        .put("by", by);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static CommentDeleted fromJson(JsonObject json) {
    return new CommentDeleted(json.getLong("comment", 0L), json.getLong("post", 0L), json.getLong("post_author", 0L),
        json.getLong("from", 0L), json.getLong("by", 0L));
  }
}
