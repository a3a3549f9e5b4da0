package io.kith.messaging.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of the messaging domain (the common ones are in {@code io.kith.platform.error.KithErrors}). */
public final class MessagingErrors {

  /** The recipient does not exist. */
  public static final ErrorCode USER_NOT_FOUND = ErrorCode.of(404, "user_not_found", "User not found");
  /**
   * The recipient does not accept messages from the sender: either of them blocked the other, or the recipient takes
   * messages from friends only. The detail is the same in every case, so a sender cannot tell a block from a setting.
   */
  public static final ErrorCode NOT_ALLOWED = ErrorCode.of(403, "message_not_allowed", "Message not allowed");
  /**
   * The sender's account is limited by a moderator and the recipient does not follow them: a limited user messages
   * only their followers (direct messages; groups they are in are unaffected).
   */
  public static final ErrorCode SENDER_LIMITED = ErrorCode.of(403, "sender_limited", "Sender limited");
  /** No such conversation, or the actor is not part of it (indistinguishable on purpose). */
  public static final ErrorCode CONVERSATION_NOT_FOUND =
      ErrorCode.of(404, "conversation_not_found", "No such conversation");
  /** No such message in a conversation of the actor. */
  public static final ErrorCode MESSAGE_NOT_FOUND = ErrorCode.of(404, "message_not_found", "No such message");
  /** Only the sender may recall a message. */
  public static final ErrorCode NOT_YOUR_MESSAGE = ErrorCode.of(403, "not_your_message", "Not your message");
  /** The recall window (2 minutes by default) has passed. */
  public static final ErrorCode RECALL_WINDOW_PASSED =
      ErrorCode.of(409, "recall_window_passed", "Too late to recall");
  /** A message to oneself. */
  public static final ErrorCode SELF_MESSAGE = ErrorCode.of(400, "self_message", "Cannot message yourself");
  /**
   * No such group, the group was dissolved, or the actor may not see it (a friend group or a managed group the actor
   * is neither a member of nor invited to answers exactly like one that does not exist).
   */
  public static final ErrorCode GROUP_NOT_FOUND = ErrorCode.of(404, "group_not_found", "No such group");
  /** The actor can see the group (a public topic group) but is not a member: send, invite, leave, members. */
  public static final ErrorCode NOT_GROUP_MEMBER = ErrorCode.of(403, "not_group_member", "Not a member of this group");
  /** The user named is not a member of the group (kick, role change). */
  public static final ErrorCode MEMBER_NOT_FOUND = ErrorCode.of(404, "member_not_found", "No such member");
  /**
   * The actor's role does not allow this: only the owner dissolves, sets roles and kicks admins; owner and admins
   * rename and kick members; members do neither.
   */
  public static final ErrorCode GROUP_PERMISSION_DENIED =
      ErrorCode.of(403, "group_permission_denied", "Your role in this group does not allow this");
  /** The group has reached its member cap. */
  public static final ErrorCode GROUP_FULL = ErrorCode.of(409, "group_full", "The group is full");
  /** Users cannot join, invite to, kick from, rename or dissolve a group another domain manages. */
  public static final ErrorCode GROUP_MANAGED = ErrorCode.of(403, "group_managed", "This group is managed elsewhere");
  /** A friend group's members and invitees must be friends (mutual follows) of the user who adds them. */
  public static final ErrorCode NOT_FRIENDS = ErrorCode.of(403, "not_friends", "Only friends can be added");
  /**
   * The user was kicked from this group: they cannot join it again, and only its owner or an admin can invite them
   * (which lifts the ban).
   */
  public static final ErrorCode BANNED_FROM_GROUP =
      ErrorCode.of(403, "banned_from_group", "Removed from this group by its owner or an admin");

  private MessagingErrors() {
  }
}
