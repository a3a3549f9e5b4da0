package io.kith.notifications.api;

/**
 * Events the notifications domain appends to the event log stream {@code events:notifications}.
 *
 * <ul>
 *   <li>{@value #NOTIFICATION_STORED}: {@code {user_id, notification: <view>, replaces: [ids], unread_total}}</li>
 * </ul>
 *
 * <p>Each type has a record of the same name in {@code io.kith.notifications.api.events}.
 */
public final class NotificationsEvents {

  /** The domain (stream) name. */
  public static final String DOMAIN = "notifications";
  /**
   * A new notification was stored for its recipient (and pushed on the bridge): the recipient's view of it, exactly
   * as the bridge push carries it, so that a consumer (push delivery) shows no more than the recipient may see.
   */
  public static final String NOTIFICATION_STORED = "NotificationStored";

  private NotificationsEvents() {
  }
}
