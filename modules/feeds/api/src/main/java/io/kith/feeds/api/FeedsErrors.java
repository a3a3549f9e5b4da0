package io.kith.feeds.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of the feeds domain (beyond the shared {@code KithErrors}, e.g. {@code validation_failed}). */
public final class FeedsErrors {

  /** The post does not exist, was deleted, or the viewer may not see it (never told apart). */
  public static final ErrorCode POST_NOT_FOUND = ErrorCode.of(404, "post_not_found", "Post not found");
  /** The comment does not exist, was deleted, or its post is not visible to the viewer. */
  public static final ErrorCode COMMENT_NOT_FOUND = ErrorCode.of(404, "comment_not_found", "Comment not found");
  /** The viewer may see the post or comment but only its author (or the post's author) may change it. */
  public static final ErrorCode NOT_AUTHOR = ErrorCode.of(403, "not_author", "Not the author");
  /** A media id of a post is unknown, not the actor's, or already removed; {@code media} lists them. */
  public static final ErrorCode INVALID_MEDIA = ErrorCode.of(400, "invalid_media", "Invalid media");
  /** The media does not exist or the viewer may not see it. */
  public static final ErrorCode MEDIA_NOT_FOUND = ErrorCode.of(404, "media_not_found", "Media not found");
  /** An upload exceeds the size limit of its type. */
  public static final ErrorCode MEDIA_TOO_LARGE = ErrorCode.of(413, "media_too_large", "Media too large");
  /** The user has too many uploads that no post uses; {@code max_unattached} says how many are allowed. */
  public static final ErrorCode TOO_MANY_UNATTACHED =
      ErrorCode.of(409, "too_many_unattached_media", "Too many unattached media");
  /** The uploaded bytes are not an accepted image or video format. */
  public static final ErrorCode MEDIA_TYPE = ErrorCode.of(415, "unsupported_media", "Unsupported media");
  /** The requested byte range cannot be served. */
  public static final ErrorCode RANGE_NOT_SATISFIABLE =
      ErrorCode.of(416, "range_not_satisfiable", "Range not satisfiable");
  /** The post is held for review by a content filter: it cannot be edited until a moderator released it. */
  public static final ErrorCode POST_HELD = ErrorCode.of(409, "post_held", "Post held for review");
  /**
   * The {@code client_id} of a publish or repost names a post its author stored for another request (a post where a
   * repost was asked, or a repost of another post): a retry must repeat the request it retries.
   */
  public static final ErrorCode CLIENT_ID_REUSED =
      ErrorCode.of(409, "client_id_reused", "Client id used for another post");

  private FeedsErrors() {
  }
}
