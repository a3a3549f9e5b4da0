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

  private MessagingErrors() {
  }
}
