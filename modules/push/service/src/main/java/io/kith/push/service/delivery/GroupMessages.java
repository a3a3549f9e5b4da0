package io.kith.push.service.delivery;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingEvents;
import io.kith.messaging.api.events.MessageSent;
import io.kith.notifications.api.Notifications;
import io.kith.notifications.api.NotificationsService;
import io.kith.platform.events.DomainEvent;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pushes group chat messages, which make no notification (a mention does: {@code chat_mention}, pushed from its
 * notification; a direct message to an offline user makes a {@code message} notification, pushed likewise). As steps:
 * the members the message went to but the sender and the mentioned → offline ones, with the locale of their texts
 * (in batches of {@value #BATCH}, unless {@code deliver-when: always}) → each recipient that neither blocks, is
 * blocked by, nor mutes the sender (relations), and has not muted the sender's notifications (notifications
 * preferences) → the shared delivery under kind {@code message}, with the sender's name as that recipient sees it
 * and the unread badge.
 */
final class GroupMessages {

  private static final Logger LOG = LoggerFactory.getLogger(GroupMessages.class);
  private static final int BATCH = 1_000;

  private final Deliveries deliveries;
  private final boolean offlineOnly;
  private final AccountsInternal presence;
  private final AccountsService accounts;
  private final RelationsInternal relations;
  private final NotificationsService notifications;

  GroupMessages(Deliveries deliveries, boolean offlineOnly, AccountsInternal presence, AccountsService accounts,
                RelationsInternal relations, NotificationsService notifications) {
    this.deliveries = deliveries;
    this.offlineOnly = offlineOnly;
    this.presence = presence;
    this.accounts = accounts;
    this.relations = relations;
    this.notifications = notifications;
  }

  /** Handles one event of the messaging stream. */
  Future<Void> handle(DomainEvent event) {
    if (!MessagingEvents.MESSAGE_SENT.equals(event.type())) {
      return Future.succeededFuture();
    }
    MessageSent sent = MessageSent.fromJson(event.payload());
    if (!"group".equals(sent.kind()) || sent.from() < 1) {
      return Future.succeededFuture();
    }
    List<Long> recipients = new ArrayList<>(sent.to());
    recipients.removeIf(r -> r == sent.from() || sent.mentions().contains(r) || r < 1);
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < recipients.size(); i += BATCH) {
      List<Long> batch = recipients.subList(i, Math.min(recipients.size(), i + BATCH));
      chain = chain.compose(v -> offline(batch)).compose(offline -> Future.join(offline.entrySet().stream()
          .map(user -> toRecipient(user.getKey(), user.getValue(), sent)).toList()).<Void>mapEmpty());
    }
    return chain.recover(e -> {
      LOG.warn("push of group message {} failed: {}", sent.message(), e.toString());
      return Future.succeededFuture();
    });
  }

  /** The users to push to (offline ones, unless every user is), each with the locale of their texts (or null). */
  private Future<Map<Long, String>> offline(List<Long> users) {
    return presence.recipientsAmong(users).map(answer -> {
      Map<Long, String> kept = new LinkedHashMap<>();
      for (long user : users) {
        JsonObject recipient = answer.getJsonObject(Long.toString(user), new JsonObject());
        if (!offlineOnly || !recipient.getBoolean("online", false)) {
          kept.put(user, recipient.getString("locale"));
        }
      }
      return kept;
    });
  }

  private Future<Void> toRecipient(long user, String locale, MessageSent sent) {
    String from = Long.toString(sent.from());
    return Future.all(relations.ties(user, List.of(sent.from())), notifications.preferences(user))
        .compose(both -> {
          JsonObject ties = both.<JsonObject>resultAt(0).getJsonObject(from, new JsonObject());
          boolean apart = ties.getBoolean("blocking", false) || ties.getBoolean("blocked_by", false)
              || ties.getBoolean("muting", false)
              || both.<JsonObject>resultAt(1).getJsonArray("muted_users").stream()
                  .anyMatch(id -> id instanceof Number && ((Number) id).longValue() == sent.from());
          if (apart) {
            return Future.succeededFuture();
          }
          return Future.all(accounts.summaries(user, List.of(sent.from())), notifications.unreadCounts(user))
              .compose(more -> deliveries.deliver(user, Notifications.MESSAGE, prefs -> Render.groupMessage(sent,
                  more.<JsonObject>resultAt(0).getJsonObject(from), more.<JsonObject>resultAt(1).getLong("total", 0L),
                  prefs.getBoolean("previews", true), locale)));
        });
  }
}
