package io.kith.relations.api;

/**
 * Events the relations domain appends to the stream {@code events:relations}. Every payload has {@code from} (the
 * actor) and {@code to} (the other user).
 *
 * <p>Each type has a record of the same name in {@code io.kith.relations.api.events} whose {@code toJson()} writes the
 * payload and whose {@code fromJson} reads it: producers publish records, consumers read them.
 */
public final class RelationsEvents {

  /** The domain (stream) name. */
  public static final String DOMAIN = "relations";
  /** {@code from} now follows {@code to}. */
  public static final String USER_FOLLOWED = "UserFollowed";
  /** {@code from} stopped following {@code to} (also when a block removed the edge). */
  public static final String USER_UNFOLLOWED = "UserUnfollowed";
  /** {@code from} asked to follow {@code to}. */
  public static final String FOLLOW_REQUESTED = "FollowRequested";
  /** {@code from} (the target) accepted {@code to}'s request. */
  public static final String FOLLOW_REQUEST_ACCEPTED = "FollowRequestAccepted";
  /** {@code from} and {@code to} follow each other. */
  public static final String FRIENDSHIP_FORMED = "FriendshipFormed";
  /** {@code from} and {@code to} no longer follow each other. */
  public static final String FRIENDSHIP_ENDED = "FriendshipEnded";
  /** {@code from} blocked {@code to}. */
  public static final String USER_BLOCKED = "UserBlocked";
  /** {@code from} unblocked {@code to}. */
  public static final String USER_UNBLOCKED = "UserUnblocked";

  private RelationsEvents() {
  }
}
