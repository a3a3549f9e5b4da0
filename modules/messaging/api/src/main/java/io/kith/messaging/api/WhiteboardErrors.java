package io.kith.messaging.api;

import io.kith.platform.error.ErrorCode;

/**
 * Failure codes of whiteboards (the common ones, such as {@code validation_failed} and {@code rate_limited}, are in
 * {@code io.kith.platform.error.KithErrors}).
 */
public final class WhiteboardErrors {

  /** No such board, or the actor is not one of its members (indistinguishable on purpose). */
  public static final ErrorCode BOARD_NOT_FOUND = ErrorCode.of(404, "board_not_found", "No such board");
  /**
   * A board for a group the actor is not a member of (or that does not exist). The same code as the groups' own
   * "no such group", so a client cannot tell them apart.
   */
  public static final ErrorCode GROUP_NOT_FOUND = ErrorCode.of(404, "group_not_found", "No such group");
  /** Only the board's owner (its creator) may change its members or delete it. */
  public static final ErrorCode NOT_BOARD_OWNER = ErrorCode.of(403, "not_board_owner", "Not the board's owner");
  /** Only friends of the owner (mutual follows) may be members of an ad-hoc board. */
  public static final ErrorCode MEMBER_NOT_FRIEND =
      ErrorCode.of(403, "board_member_not_friend", "Only friends can be board members");
  /** The board has as many members as it may have. */
  public static final ErrorCode BOARD_FULL = ErrorCode.of(409, "board_full", "The board is full");
  /** A group board's members are the group's members: they cannot be added or removed on the board. */
  public static final ErrorCode GROUP_BOARD_MEMBERS =
      ErrorCode.of(409, "group_board_members", "A group board's members are the group's members");
  /** The owner cannot leave their own board; they may delete it. */
  public static final ErrorCode OWNER_CANNOT_LEAVE =
      ErrorCode.of(409, "board_owner_cannot_leave", "The owner cannot leave the board");
  /** The actor owns as many boards as a user may own. */
  public static final ErrorCode BOARD_LIMIT = ErrorCode.of(409, "board_limit_reached", "Too many boards");
  /** The group has as many boards as a group may have. */
  public static final ErrorCode GROUP_BOARD_LIMIT =
      ErrorCode.of(409, "group_board_limit_reached", "The group has too many boards");

  private WhiteboardErrors() {
  }
}
