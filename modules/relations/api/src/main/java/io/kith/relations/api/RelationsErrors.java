package io.kith.relations.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of the relations domain (beyond the shared {@code KithErrors}). */
public final class RelationsErrors {

  /** A user cannot follow, block, mute, hide or tag themselves. */
  public static final ErrorCode SELF_RELATION = ErrorCode.of(400, "self_relation", "Not allowed on yourself");
  /** The other user does not exist (or is not visible). */
  public static final ErrorCode USER_NOT_FOUND = ErrorCode.of(404, "user_not_found", "User not found");
  /** The actor blocks the target: unblock first. */
  public static final ErrorCode BLOCKING = ErrorCode.of(409, "blocking_user", "You block this user");
  /** No pending request from that user to the actor. */
  public static final ErrorCode REQUEST_NOT_FOUND = ErrorCode.of(404, "request_not_found", "No such follow request");
  /**
   * No such circle (friend group) of the actor; another user's circle is as unknown as a missing one. Its own code,
   * not the chat groups' {@code group_not_found}, so a client never mistakes one kind of group for the other.
   */
  public static final ErrorCode CIRCLE_NOT_FOUND = ErrorCode.of(404, "circle_not_found", "No such circle");
  /** The actor already has a circle with that name (case-insensitive). */
  public static final ErrorCode CIRCLE_NAME_TAKEN = ErrorCode.of(409, "circle_name_taken", "Circle name taken");
  /** A circle member must be a friend of the owner; {@code not_friends} lists those who are not. */
  public static final ErrorCode NOT_FRIENDS = ErrorCode.of(400, "not_friends", "Not a friend");
  /** A per-user limit (circles, members, tags, follows, blocks) was reached. */
  public static final ErrorCode LIMIT_REACHED = ErrorCode.of(409, "limit_reached", "Limit reached");

  private RelationsErrors() {
  }
}
