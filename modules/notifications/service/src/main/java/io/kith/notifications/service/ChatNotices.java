package io.kith.notifications.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.notifications.api.Notifications;
import io.kith.notifications.service.Notifier.Notice;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Chat notifications from the messaging stream ({@link MessagingProducers}): a direct message to each recipient who
 * is offline (one per conversation, in its slot), a group message's mentions, and a conversation read marking them
 * read. Presence is asked first, for all the recipients of a direct message in one call, so that in a chat (where
 * the recipient is usually online) the event costs one presence call and nothing else.
 */
final class ChatNotices {

  /** Longest message preview kept, in code points (messaging sends at most 100). */
  static final int MAX_PREVIEW = 100;
  /** Most users one presence call asks about ({@code AccountsInternal.onlineAmong} takes at most 1,000). */
  static final int PRESENCE_BATCH = 1_000;
  private static final Logger LOG = LoggerFactory.getLogger(ChatNotices.class);

  private final SystemChanges system;
  private final Notifier notifier;
  private final AccountsInternal accounts;

  ChatNotices(SystemChanges system, Notifier notifier, AccountsInternal accounts) {
    this.system = system;
    this.notifier = notifier;
    this.accounts = accounts;
  }

  Future<?> messageSent(DomainEvent e, JsonObject p) {
    long message = Payloads.id(p, "message");
    long conversation = Payloads.id(p, "conversation");
    long from = Payloads.id(p, "from");
    Object kind = p.getValue("kind");
    if (message == 0 || conversation == 0 || from == 0 || !("direct".equals(kind) || "group".equals(kind))) {
      return Payloads.skipped(e, "needs message, conversation, from and kind direct or group");
    }
    List<Long> to = Payloads.ids(p, "to");
    String preview = Payloads.text(p, "preview", MAX_PREVIEW);
    JsonObject fields = new JsonObject().put("from_user", from).put("conversation", conversation)
        .put("message", message).put("preview", preview == null ? "" : preview);
    long seq = Payloads.id(p, "seq");
    if (seq != 0) {
      fields.put("seq", seq);
    }
    return "direct".equals(kind) ? direct(to, from, conversation, message, fields)
        : groupMentions(p, to, conversation, message, fields);
  }

  /** Offline first: one presence call for every recipient; the other rules run only for the offline ones. */
  private Future<?> direct(List<Long> to, long from, long conversation, long message, JsonObject fields) {
    List<Long> recipients = to.stream().filter(user -> user != from).toList();
    return offlineAmong(recipients).compose(offline -> Future.all(recipients.stream().filter(offline::contains)
        .map(user -> notifier.notify(new Notice(user, Notifications.MESSAGE,
            "message:" + conversation + ":" + message, "message:" + conversation, fields))).toList()));
  }

  /** A group message: only the members it mentions, online or not. */
  private Future<?> groupMentions(JsonObject p, List<Long> to, long conversation, long message, JsonObject fields) {
    long group = Payloads.id(p, "group");
    fields.put("group", group == 0 ? conversation : group);
    String name = Payloads.text(p, "group_name", GroupNotices.MAX_TITLE);
    if (name != null) {
      fields.put("title", name);
    }
    List<Future<Void>> each = new ArrayList<>();
    // only members (the recipients) can be mentioned; the sender is never told (the rules skip the actor)
    for (long user : Payloads.ids(p, "mentions")) {
      if (to.contains(user)) {
        each.add(notifier.notify(new Notice(user, Notifications.CHAT_MENTION, "chat_mention:" + message, null,
            fields)));
      }
    }
    return Future.all(each);
  }

  /**
   * The reader read the conversation up to {@code seq}: their message notification of it (its slot) and their chat
   * mentions in it are marked read when their message's {@code seq} is at most the read one. A newer message that
   * arrived after the read position keeps its notification unread; a notification made before notifications kept
   * {@code seq} is marked read if it is the conversation's message notification (it stands for the conversation) and
   * left alone if it is a mention (its position is unknown).
   */
  Future<?> read(DomainEvent e, JsonObject p) {
    long conversation = Payloads.id(p, "conversation");
    long user = Payloads.id(p, "user");
    long seq = Payloads.id(p, "seq");
    if (conversation == 0 || user == 0 || seq == 0) {
      return Payloads.skipped(e, "needs conversation, user and seq");
    }
    JsonObject upToSeq = new JsonObject().put("seq", new JsonObject().put("$lte", seq));
    return system.markReadWhere(new JsonObject().put("to", user).put("conversation", conversation)
        .put("type", new JsonObject().put("$in", new JsonArray().add(Notifications.MESSAGE)
            .add(Notifications.CHAT_MENTION)))
        .put("$or", new JsonArray().add(upToSeq).add(new JsonObject().put("type", Notifications.MESSAGE)
            .put("seq", new JsonObject().put("$exists", false)))));
  }

  /**
   * The offline ones among {@code users}, as each would see themselves: a user who is connected counts as online
   * whatever their presence mode (an invisible user gets no notification for what reaches their open connections).
   * Asked with {@code AccountsInternal.onlineAmong}, one call per {@value #PRESENCE_BATCH} users, not counted against
   * the users' own presence-query limits. When presence cannot be told (accounts unreachable), the users of that
   * call are offline: a redundant notification is better than a lost one.
   */
  private Future<Set<Long>> offlineAmong(List<Long> users) {
    List<Future<Set<Long>>> calls = new ArrayList<>();
    for (int i = 0; i < users.size(); i += PRESENCE_BATCH) {
      calls.add(offlineIn(users.subList(i, Math.min(users.size(), i + PRESENCE_BATCH))));
    }
    return Future.all(calls).map(all -> {
      Set<Long> offline = new HashSet<>();
      all.<Set<Long>>list().forEach(offline::addAll);
      return offline;
    });
  }

  /** One presence call: the offline ones of {@code batch}, or all of them when presence cannot be told. */
  private Future<Set<Long>> offlineIn(List<Long> batch) {
    return accounts.onlineAmong(batch).map(online -> {
      Set<Long> offline = new HashSet<>();
      for (long user : batch) {
        if (!online.getBoolean(Long.toString(user), false)) {
          offline.add(user);
        }
      }
      return offline;
    }).recover(err -> {
      LOG.warn("Presence of {} users could not be read ({}); notifying them as if offline", batch.size(),
          err.toString());
      return Future.succeededFuture(new HashSet<>(batch));
    });
  }
}
