package io.kith.notifications.api;

import java.util.List;

/**
 * Notification types, record fields and the real-time envelope of the notifications domain.
 *
 * <p>A notification is {@code {id, type, to_user, created, unread}} plus the optional fields of its type: ids
 * ({@link #FIELDS}, each usable as a query condition): {@code from_user} (who acted), {@code post}, {@code comment},
 * {@code reply_to} (the recipient's comment that was answered), {@code repost} (the new repost), {@code activity},
 * {@code group}, {@code conversation}, {@code message}; and details for rendering (not conditions): texts
 * ({@link #TEXTS}: {@code title}, {@code preview}, {@code place}, {@code reason}),
 * numbers ({@link #NUMBERS}: {@code count},
 * {@code start}, {@code end}, {@code seq}) and lists ({@link #LISTS}: {@code changed}).
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
  /**
   * Direct messages arrived while the recipient was offline: one notification per conversation, replaced by each
   * newer message: {@code from_user} (the latest sender), {@code conversation}, {@code message} (the latest),
   * {@code seq} (the latest message's sequence in the conversation), {@code preview} (of the latest), {@code count}
   * (messages since the recipient last read this notification). Marked read when the recipient reads the
   * conversation up to {@code seq} or beyond.
   */
  public static final String MESSAGE = "message";
  /**
   * The recipient was mentioned in a group chat message: {@code from_user, group, conversation, message, seq} (the
   * message's sequence in the conversation), {@code title} (the group's name), {@code preview}. Marked read when the
   * recipient reads the conversation up to {@code seq} or beyond. Distinct from {@link #MENTION}, which is about
   * posts.
   */
  public static final String CHAT_MENTION = "chat_mention";
  /**
   * The recipient was invited to a group: {@code from_user} (the inviter), {@code group, title} (its name). Removed
   * when the recipient joins the group or declines the invitation, or the group is dissolved.
   */
  public static final String GROUP_INVITATION = "group_invitation";
  /** The recipient was removed from a group: {@code from_user} (who removed them), {@code group, title}. */
  public static final String MEMBER_KICKED = "member_kicked";
  /**
   * The time or place of an activity the recipient takes part in changed: {@code from_user} (the organiser),
   * {@code activity, title, changed} (which of {@code start}, {@code end}, {@code place}), {@code start, end, place}
   * (the new values), {@code count} (changes since the recipient last read this notification). One per activity.
   */
  public static final String ACTIVITY_UPDATED = "activity_updated";
  /**
   * An activity the recipient takes part in was cancelled: {@code from_user} (the organiser),
   * {@code activity, title, start}.
   */
  public static final String ACTIVITY_CANCELLED = "activity_cancelled";
  /** Someone joined the recipient's activity: {@code from_user} (who joined), {@code activity, title}. */
  public static final String ACTIVITY_JOINED = "activity_joined";
  /** The organiser removed the recipient from an activity: {@code from_user} (the organiser), {@code activity, title}. */
  public static final String ACTIVITY_REMOVED = "activity_removed";
  /** The recipient was invited to an activity: {@code from_user} (the organiser), {@code activity, title, start}. */
  public static final String ACTIVITY_INVITATION = "activity_invitation";
  /**
   * An activity the recipient organises or takes part in starts soon (the reminder; no actor):
   * {@code activity, title, start, place}.
   */
  public static final String ACTIVITY_STARTING_SOON = "activity_starting_soon";
  /** The recipient's data export is ready to download (no actor): {@code export, expires_at}. */
  public static final String EXPORT_READY = "export_ready";

  /** A moderator warned the recipient (no actor; cannot be muted): {@code reason}. */
  public static final String MODERATION_WARNING = "moderation_warning";
  /** The recipient's account was suspended (no actor; read once it is back; cannot be muted): {@code reason}. */
  public static final String ACCOUNT_SUSPENDED = "account_suspended";
  /** The recipient's account was limited (no actor; cannot be muted): {@code reason}. */
  public static final String ACCOUNT_LIMITED = "account_limited";
  /** An appeal of the recipient was decided (no actor; cannot be muted): {@code decision} and {@code reason}. */
  public static final String APPEAL_DECIDED = "appeal_decided";

  /** Every type, in a stable order. */
  public static final List<String> TYPES = List.of(FOLLOWER, FOLLOW_REQUEST, REQUEST_ACCEPTED, FRIEND, COMMENT, REPLY,
      LIKE, REPOST, MENTION, MESSAGE, CHAT_MENTION, GROUP_INVITATION, MEMBER_KICKED, ACTIVITY_UPDATED,
      ACTIVITY_CANCELLED, ACTIVITY_JOINED, ACTIVITY_REMOVED, ACTIVITY_INVITATION, ACTIVITY_STARTING_SOON,
      EXPORT_READY, MODERATION_WARNING, ACCOUNT_SUSPENDED, APPEAL_DECIDED, ACCOUNT_LIMITED);

  /** The optional id fields a notification may carry, each usable as a query condition. */
  public static final List<String> FIELDS = List.of("from_user", "post", "comment", "reply_to", "repost", "activity",
      "group", "conversation", "message");

  /**
   * Optional text details (not query conditions): {@code title} (a group's name or an activity's title),
   * {@code preview} (the start of a message, up to 100 characters; empty for media), {@code place} (an activity's
   * place name), {@code reason} (a moderator's, on the moderation types), {@code decision} (an appeal's outcome:
   * {@code uphold} or {@code overturn}).
   */
  public static final List<String> TEXTS = List.of("title", "preview", "place", "reason", "decision");

  /**
   * Optional number details (not query conditions): {@code count} (how many events a notification that is replaced
   * by newer ones stands for since it was last read, at least 1), {@code start} and {@code end} (an activity's times,
   * epoch milliseconds), {@code seq} (a chat message's sequence in its conversation), {@code export} and
   * {@code expires_at} (a ready export and when its archive is deleted).
   */
  public static final List<String> NUMBERS = List.of("count", "start", "end", "seq", "export", "expires_at");

  /** Optional list details (not query conditions): {@code changed} (names of what an activity update changed). */
  public static final List<String> LISTS = List.of("changed");

  /**
   * The types a field of an app-defined notification type may have ({@code notifications.custom-types}): {@code string}
   * (up to 1,000 characters), {@code integer}, {@code number}, {@code boolean}. An app-defined notification carries its
   * fields under {@code data} and has no actor; it is filtered, counted and marked read like a built-in one.
   */
  public static final List<String> CUSTOM_FIELD_TYPES = List.of("string", "integer", "number", "boolean");

  /** Most app-defined types a node declares. */
  public static final int MAX_CUSTOM_TYPES = 50;

  /** The member of a notification that holds the fields of an app-defined type. */
  public static final String DATA = "data";

  /** Condition on the read state ({@code true}: unread only; {@code false}: read only). */
  public static final String UNREAD = "unread";

  /**
   * Envelope {@code kind} of a new notification pushed to {@code kith.user.<id>}: {@code {kind, notification,
   * replaces?}}; {@code replaces} lists the ids of notifications the new one takes the place of (an earlier
   * {@link #MESSAGE} of the same conversation, an earlier {@link #ACTIVITY_UPDATED} of the same activity), which the
   * client drops.
   */
  public static final String PUSH_NOTIFICATION = "notification";
  /** Envelope {@code kind} of changed unread counts pushed to {@code kith.user.<id>}: {@code {kind, counts}}. */
  public static final String PUSH_UNREAD = "unread";

  private Notifications() {
  }
}
