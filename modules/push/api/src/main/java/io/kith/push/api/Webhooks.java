package io.kith.push.api;

import java.util.List;

/**
 * Webhook event types, the body and the signature of a delivery.
 *
 * <p>A delivery is an HTTP {@code POST} of {@code application/json} {@code {id, type, created_at, data}}: {@code id}
 * is the domain event's id (the same on a retry or a replay: receivers deduplicate by it), {@code created_at} the
 * event's time (ISO-8601 UTC), {@code data} the type's fields below. Data carries ids and public facts only: no
 * message text, no e-mail address, nothing a user's privacy settings hide from strangers beyond an id.
 *
 * <p>The header {@value #SIGNATURE_HEADER} reads {@code t=<unix seconds>,v1=<hex>[,v1=<hex>]}: each {@code v1} is
 * HMAC-SHA256 over {@code t + "." + body} with one of the endpoint's valid secrets (two during a rotation, newest
 * first). {@value #EVENT_HEADER} and {@value #DELIVERY_HEADER} name the type and the delivery.
 */
public final class Webhooks {

  /** An account was created: {@code user_id, username}. Resource {@code user:<id>}. */
  public static final String USER_REGISTERED = "user.registered";
  /** An account was erased after its deletion grace period: {@code user_id}. Resource {@code user:<id>}. */
  public static final String USER_DELETED = "user.deleted";
  /** {@code from} now follows {@code to}. Resource {@code follow:<from>:<to>}. */
  public static final String RELATION_FOLLOWED = "relation.followed";
  /** {@code from} no longer follows {@code to}. Resource {@code follow:<from>:<to>}. */
  public static final String RELATION_UNFOLLOWED = "relation.unfollowed";
  /** A post was published: {@code post, author, visibility, repost_of} (0: none). Resource {@code post:<id>}. */
  public static final String POST_PUBLISHED = "post.published";
  /** A post was deleted: {@code post, author}. Resource {@code post:<id>}. */
  public static final String POST_DELETED = "post.deleted";
  /**
   * A comment was added: {@code comment, post, from, reply_to} (0: none). Resource {@code post:<post>} (in order
   * with the post's publication and deletion).
   */
  public static final String COMMENT_ADDED = "comment.added";
  /** A like was added: {@code post, from}. Resource {@code post:<post>}. */
  public static final String LIKE_ADDED = "like.added";
  /**
   * A chat message was sent: {@code message, conversation, seq, kind} ({@code direct} or {@code group}),
   * {@code from, to: [ids], group} (group messages). Never the text nor its preview. Resource
   * {@code conversation:<id>}.
   */
  public static final String MESSAGE_SENT = "message.sent";
  /** A user became a participant of an activity: {@code activity, user, via}. Resource {@code activity:<id>}. */
  public static final String ACTIVITY_JOINED = "activity.joined";

  /**
   * A report was filed: {@code report, target_type, target_id, target_owner, category} (never the reporter). Resource
   * {@code report:<id>}.
   */
  public static final String REPORT_FILED = "report.filed";
  /**
   * A moderator removed content: {@code target_type, target_id, owner, report}. Resource
   * {@code <target_type>:<target_id>}.
   */
  public static final String CONTENT_REMOVED = "content.removed";
  /** A moderator suspended a user: {@code user_id, until} (0: permanent). Resource {@code user:<id>}. */
  public static final String USER_SUSPENDED = "user.suspended";
  /**
   * A moderator limited a user (off public timelines and search, direct messages to followers only):
   * {@code user_id, until} (0: permanent). Resource {@code user:<id>}.
   */
  public static final String USER_LIMITED = "user.limited";
  /**
   * A user's limit ended before its time (an unlimit or an overturned appeal): {@code user_id}. Resource
   * {@code user:<id>}.
   */
  public static final String USER_UNLIMITED = "user.unlimited";

  /** Every type, in a stable order; an endpoint subscribes to some of them or to {@value #ALL}. */
  public static final List<String> TYPES = List.of(USER_REGISTERED, USER_DELETED, RELATION_FOLLOWED,
      RELATION_UNFOLLOWED, POST_PUBLISHED, POST_DELETED, COMMENT_ADDED, LIKE_ADDED, MESSAGE_SENT, ACTIVITY_JOINED,
      REPORT_FILED, CONTENT_REMOVED, USER_SUSPENDED, USER_LIMITED, USER_UNLIMITED);
  /** Subscribes an endpoint to every type, present and future. */
  public static final String ALL = "*";

  /** Header of the signature. */
  public static final String SIGNATURE_HEADER = "Kith-Signature";
  /** Header naming the event type. */
  public static final String EVENT_HEADER = "Kith-Event";
  /** Header naming the delivery (its id in the delivery record). */
  public static final String DELIVERY_HEADER = "Kith-Delivery";

  private Webhooks() {
  }
}
