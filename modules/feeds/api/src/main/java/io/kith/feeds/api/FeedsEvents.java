package io.kith.feeds.api;

/**
 * Events the feeds domain appends to the stream {@code events:feeds}. Consumers must check that the recipient may
 * still see the post ({@link FeedsInternal#visiblePosts}) before showing anything about it.
 *
 * <p>Each type has a record of the same name in {@code io.kith.feeds.api.events} whose {@code toJson()} writes the
 * payload and whose {@code fromJson} reads it: producers publish records, consumers read them.
 */
public final class FeedsEvents {

  /** The domain (stream) name. */
  public static final String DOMAIN = "feeds";
  /** {@code {post, author, visibility, repost_of (0 if none), mentions: [ids]}}: fan-out starts from here. */
  public static final String POST_PUBLISHED = "PostPublished";
  /** {@code {post, author, repost_of (0 if none)}}. */
  public static final String POST_DELETED = "PostDeleted";
  /** {@code {post, author, visibility}}: the author changed who may see the post. */
  public static final String POST_EDITED = "PostEdited";
  /** {@code {comment, post, post_author, from, reply_to (0 if none), reply_to_author (0 if none)}}. */
  public static final String COMMENT_ADDED = "CommentAdded";
  /** {@code {comment, post, post_author, from, by}} ({@code by}: who deleted it, the commenter or post author). */
  public static final String COMMENT_DELETED = "CommentDeleted";
  /** {@code {post, post_author, from}}: emitted only when a like was really added. */
  public static final String POST_LIKED = "PostLiked";
  /** {@code {post, post_author, from}}: emitted only when a like was really removed. */
  public static final String POST_UNLIKED = "PostUnliked";
  /** {@code {post (the repost), original, original_author, from}}. */
  public static final String POST_REPOSTED = "PostReposted";
  /**
   * {@code {type: post | comment, id, author, post, filter}}: a content filter held the text for review (a post is
   * stored private to its author, a comment shown to its author only); moderation files a system report on it.
   */
  public static final String CONTENT_HELD = "ContentHeld";
  /** {@code {post, from, to}}: one event per mentioned user who may see the post. */
  public static final String USER_MENTIONED = "UserMentioned";
  /**
   * {@code {media, owner, state: ready | failed, attached: ["<domain>:<object>"]}}: the media pipeline finished a media
   * that objects of other domains carry (a chat video sent while processing); not a post event
   * ({@link io.kith.feeds.api.events.MediaProcessed}, read on its own: {@code FeedsEvent.fromJson} skips it).
   */
  public static final String MEDIA_PROCESSED = "MediaProcessed";

  private FeedsEvents() {
  }
}
