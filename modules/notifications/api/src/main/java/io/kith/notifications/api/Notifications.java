package io.kith.notifications.api;

import java.util.List;

/**
 * Notification types, record fields and the real-time envelope of the notifications domain.
 *
 * <p>A notification is {@code {id, type, to_user, created, unread}} plus the optional fields of its type
 * ({@link #FIELDS}): {@code from_user} (who acted), {@code post}, {@code comment}, {@code reply_to} (the recipient's
 * comment that was answered), {@code repost} (the new repost), {@code activity}, {@code group}.
 */
public final class Notifications {

  /** Someone followed the recipient: {@code from_user}. */
  public static final String FOLLOWER = "follower";
  /** Someone asks to follow the recipient: {@code from_user}. */
  public static final String FOLLOW_REQUEST = "follow_request";
  /** The recipient's follow request was accepted: {@code from_user} (who accepted). */
  public static final String REQUEST_ACCEPTED = "request_accepted";
  /** The recipient and {@code from_user} became friends (mutual follows). */
  public static final String FRIEND = "friend";
  /** A comment on the recipient's post: {@code from_user, post, comment}. */
  public static final String COMMENT = "comment";
  /** A reply to the recipient's comment: {@code from_user, post, comment, reply_to}. */
  public static final String REPLY = "reply";
  /** A like of the recipient's post: {@code from_user, post}. */
  public static final String LIKE = "like";
  /** A repost of the recipient's post: {@code from_user, post} (the original), {@code repost} (the new post). */
  public static final String REPOST = "repost";
  /** The recipient was mentioned in a post: {@code from_user, post}. */
  public static final String MENTION = "mention";

  /** Every type, in a stable order. */
  public static final List<String> TYPES = List.of(FOLLOWER, FOLLOW_REQUEST, REQUEST_ACCEPTED, FRIEND, COMMENT, REPLY,
      LIKE, REPOST, MENTION);

  /** The optional id fields a notification may carry, each usable as a query condition. */
  public static final List<String> FIELDS = List.of("from_user", "post", "comment", "reply_to", "repost", "activity",
      "group");

  /** Condition on the read state ({@code true}: unread only; {@code false}: read only). */
  public static final String UNREAD = "unread";

  /** Envelope {@code kind} of a new notification pushed to {@code kith.user.<id>}: {@code {kind, notification}}. */
  public static final String PUSH_NOTIFICATION = "notification";
  /** Envelope {@code kind} of changed unread counts pushed to {@code kith.user.<id>}: {@code {kind, counts}}. */
  public static final String PUSH_UNREAD = "unread";

  private Notifications() {
  }
}
