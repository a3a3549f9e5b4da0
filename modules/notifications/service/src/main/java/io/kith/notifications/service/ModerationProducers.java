package io.kith.notifications.service;

import io.kith.moderation.api.ModerationEvents;
import io.kith.moderation.api.events.AppealDecided;
import io.kith.moderation.api.events.UserLimited;
import io.kith.moderation.api.events.UserSuspended;
import io.kith.moderation.api.events.UserWarned;
import io.kith.notifications.api.Notifications;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Notifications from the moderation stream (consumer group {@value #GROUP}):
 * <ul>
 *   <li>{@code UserWarned}: a {@link Notifications#MODERATION_WARNING} with the reason to the warned user.</li>
 *   <li>{@code AppealDecided}: an {@link Notifications#APPEAL_DECIDED} with the decision and the reason to the
 *   appellant.</li>
 *   <li>{@code UserSuspended}: an {@link Notifications#ACCOUNT_SUSPENDED} with the reason, read once the user is back
 *   (while suspended they cannot log in; accounts mails them).</li>
 *   <li>{@code UserLimited}: an {@link Notifications#ACCOUNT_LIMITED} with the reason, told like a warning.</li>
 * </ul>
 * Stored straight through {@link Delivery}, past {@link Notifier}'s rules: they have no actor and no post, and a user
 * must not mute what the moderators tell them.
 */
final class ModerationProducers {

  static final String GROUP = "notifications-moderation";
  /** Longest reason kept, in code points (moderation's own bound). */
  static final int MAX_REASON = 1_000;

  private final Delivery delivery;

  ModerationProducers(Delivery delivery) {
    this.delivery = delivery;
  }

  Future<?> handle(DomainEvent e) {
    JsonObject p = e.payload();
    return switch (e.type()) {
      case ModerationEvents.USER_WARNED -> {
        UserWarned w = UserWarned.fromJson(p);
        yield told(e, w.userId(), Notifications.MODERATION_WARNING, w.sanctionId(), p);
      }
      case ModerationEvents.USER_SUSPENDED -> {
        UserSuspended s = UserSuspended.fromJson(p);
        yield told(e, s.userId(), Notifications.ACCOUNT_SUSPENDED, s.sanctionId(), p);
      }
      case ModerationEvents.USER_LIMITED -> {
        UserLimited l = UserLimited.fromJson(p);
        yield told(e, l.userId(), Notifications.ACCOUNT_LIMITED, l.sanctionId(), p);
      }
      case ModerationEvents.APPEAL_DECIDED -> {
        AppealDecided a = AppealDecided.fromJson(p);
        JsonObject fields = new JsonObject().put("decision", a.decision());
        yield told(e, a.userId(), Notifications.APPEAL_DECIDED, a.appealId(), p, fields);
      }
      default -> Future.succeededFuture();
    };
  }

  private Future<?> told(DomainEvent e, long user, String type, long sanctionId, JsonObject p) {
    return told(e, user, type, sanctionId, p, new JsonObject());
  }

  // sanctionId: the decision told of (a sanction, or an appeal), which keys the notification
  private Future<?> told(DomainEvent e, long user, String type, long sanctionId, JsonObject p, JsonObject fields) {
    if (user < 1 || sanctionId < 1) {
      return Payloads.skipped(e, "needs user_id and sanction_id");
    }
    String reason = Payloads.text(p, "reason", MAX_REASON);
    if (reason != null) {
      fields.put("reason", reason);
    }
    return delivery.store(user, type, type + ":" + sanctionId, null, fields);
  }
}
