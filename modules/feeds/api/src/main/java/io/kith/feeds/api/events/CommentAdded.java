package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * A comment was added to a post.
 *
 * @param comment the comment
 * @param post the post
 * @param postAuthor the post's author
 * @param from the commenter
 * @param replyTo the answered comment, 0 if none
 * @param replyToAuthor the answered comment's author, 0 if none
 */
public record CommentAdded(long comment, long post, long postAuthor, long from, long replyTo, long replyToAuthor)
    implements FeedsEvent {

  @Override
  public String eventType() {
    return FeedsEvents.COMMENT_ADDED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("comment", comment).put("post", post).put("post_author", postAuthor).put("from", from)
        .put("reply_to", replyTo).put("reply_to_author", replyToAuthor);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static CommentAdded fromJson(JsonObject json) {
    return new CommentAdded(json.getLong("comment", 0L), json.getLong("post", 0L), json.getLong("post_author", 0L),
        json.getLong("from", 0L), json.getLong("reply_to", 0L), json.getLong("reply_to_author", 0L));
  }
}
