package io.kith.feeds.api.events;

import io.kith.feeds.api.FeedsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * An event of the feeds stream; every one names a {@link #post}. Consumers read one with {@link #fromJson}, which
 * gives the record of the entry's type, and must check that the recipient may still see the post before showing
 * anything about it.
 */
public sealed interface FeedsEvent extends Event
    permits PostPublished, PostDeleted, PostEdited, CommentAdded, CommentDeleted, PostLiked, PostUnliked,
    PostReposted, UserMentioned, ContentHeld {

  /** The post the event is about. */
  long post();

  /**
   * Reads a stream entry of {@code type} (a constant of {@link FeedsEvents}); null for a type this version does not
   * know (a newer node's), which consumers skip.
   */
  static FeedsEvent fromJson(String type, JsonObject json) {
    return switch (type) {
      case FeedsEvents.POST_PUBLISHED -> PostPublished.fromJson(json);
      case FeedsEvents.POST_DELETED -> PostDeleted.fromJson(json);
      case FeedsEvents.POST_EDITED -> PostEdited.fromJson(json);
      case FeedsEvents.COMMENT_ADDED -> CommentAdded.fromJson(json);
      case FeedsEvents.COMMENT_DELETED -> CommentDeleted.fromJson(json);
      case FeedsEvents.POST_LIKED -> PostLiked.fromJson(json);
      case FeedsEvents.POST_UNLIKED -> PostUnliked.fromJson(json);
      case FeedsEvents.POST_REPOSTED -> PostReposted.fromJson(json);
      case FeedsEvents.USER_MENTIONED -> UserMentioned.fromJson(json);
      case FeedsEvents.CONTENT_HELD -> ContentHeld.fromJson(json);
      default -> null;
    };
  }
}
