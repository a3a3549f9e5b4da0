package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.vertx.core.json.JsonObject;

/**
 * The author changed who may see a post, or a moderator released a post a content filter held.
 *
 * @param post the post
 * @param author its author
 * @param visibility its visibility now
 * @param released a moderator released the held post: to its readers it is published only now, so its mentions are
 *                 told now (never while it was held)
 * @param repostOf for a release, the post it reposts (0 if none); 0 for an author's edit
 */
public record PostEdited(long post, long author, String visibility, boolean released, long repostOf)
    implements FeedsEvent {

  /** An author's edit (not a release). */
  public PostEdited(long post, long author, String visibility) {
    this(post, author, visibility, false, 0L);
  }

  @Override
  public String eventType() {
    return FeedsEvents.POST_EDITED;
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("post", post).put("author", author).put("visibility", visibility);
    // only a release writes the member: an edit's payload stays as the stream has always held it
    return released ? json.put("released", true).put("repost_of", repostOf) : json;
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static PostEdited fromJson(JsonObject json) {
    return new PostEdited(json.getLong("post", 0L), json.getLong("author", 0L), json.getString("visibility"),
        json.getBoolean("released", false), json.getLong("repost_of", 0L));
  }
}
