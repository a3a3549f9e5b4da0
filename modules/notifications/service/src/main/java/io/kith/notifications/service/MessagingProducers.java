package io.kith.notifications.service;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingEvents;
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
 * Notifications from the messaging stream (consumer group {@value #GROUP}):
 * <ul>
 *   <li>{@code MessageSent}, direct: a {@link Notifications#MESSAGE} to each recipient who is offline when the event
 *   is handled, one per conversation (slot {@code message:<conversation>}): each newer message replaces it with its
 *   preview and a count. Presence is asked first, for all the recipients in one call, and only the offline ones go
 *   through the other rules (preferences, blocks): in a chat the recipient is usually online, and then the event
 *   costs one presence call and nothing else. Group messages tell nobody one by one (the conversations list has
 *   unread counts), except the members they mention ({@link Notifications#CHAT_MENTION}, whether online or
 *   not).</li>
 *   <li>{@code ConversationRead}: the reader's {@link Notifications#MESSAGE} of the conversation and their
 *   {@link Notifications#CHAT_MENTION}s in it up to the read sequence are marked read.</li>
 *   <li>{@code GroupInvited}: a {@link Notifications#GROUP_INVITATION} to each invited user; {@code GroupJoined}
 *   and {@code InvitationDeclined} take it back (answered), the former also a kick notice of that group.</li>
 *   <li>{@code MemberKicked}: a {@link Notifications#MEMBER_KICKED} to the removed user, whose chat mentions of the
 *   group go (the conversation is closed to them); {@code GroupLeft} removes the leaver's chat mentions of the group;
 *   {@code GroupDissolved} every chat mention and invitation of the group.</li>
 * </ul>
 */
final class MessagingProducers {

  static final String GROUP = "notifications-messaging";
  /** Longest group name kept in a notification, in code points. */
  static final int MAX_TITLE = 200;
  /** Longest message preview kept, in code points (messaging sends at most 100). */
  static final int MAX_PREVIEW = 100;
  /** Most users one presence call asks about ({@code AccountsService.onlineAmong} takes at most 1,000). */
  static final int PRESENCE_BATCH = 1_000;
  private static final Logger LOG = LoggerFactory.getLogger(MessagingProducers.class);

  private final SystemChanges system;
  private final Notifier notifier;
  private final AccountsService accounts;

  MessagingProducers(SystemChanges system, Notifier notifier, AccountsService accounts) {
    this.system = system;
    this.notifier = notifier;
    this.accounts = accounts;
  }

  Future<?> handle(DomainEvent e) {
    JsonObject p = e.payload();
    return switch (e.type()) {
      case MessagingEvents.MESSAGE_SENT -> messageSent(e, p);
      case MessagingEvents.CONVERSATION_READ -> read(e, p);
      case MessagingEvents.GROUP_INVITED -> invited(e, p);
      case MessagingEvents.INVITATION_DECLINED -> declined(e, p);
      case MessagingEvents.INVITATION_EXPIRED -> expired(e, p);
      case MessagingEvents.GROUP_JOINED -> joined(e, p);
      case MessagingEvents.MEMBER_KICKED -> kicked(e, p);
      case MessagingEvents.GROUP_LEFT -> left(e, p);
      case MessagingEvents.GROUP_DISSOLVED -> dissolved(e, p);
      default -> Future.succeededFuture();
    };
  }

  private Future<?> messageSent(DomainEvent e, JsonObject p) {
    long message = Payloads.id(p, "message");
    long conversation = Payloads.id(p, "conversation");
    long from = Payloads.id(p, "from");
    Object kind = p.getValue("kind");
    if (message == 0 || conversation == 0 || from == 0 || !("direct".equals(kind) || "group".equals(kind))) {
      return skipped(e, "needs message, conversation, from and kind direct or group");
    }
    List<Long> to = Payloads.ids(p, "to");
    String preview = Payloads.text(p, "preview", MAX_PREVIEW);
    JsonObject fields = new JsonObject().put("from_user", from).put("conversation", conversation)
        .put("message", message).put("preview", preview == null ? "" : preview);
    long seq = Payloads.id(p, "seq");
    if (seq != 0) {
      fields.put("seq", seq);
    }
    if ("direct".equals(kind)) {
      // offline first: one presence call for every recipient; the other rules run only for the offline ones
      List<Long> recipients = to.stream().filter(user -> user != from).toList();
      return offlineAmong(recipients).compose(offline -> Future.all(recipients.stream().filter(offline::contains)
          .map(user -> notifier.notify(new Notice(user, Notifications.MESSAGE,
              "message:" + conversation + ":" + message, "message:" + conversation, fields))).toList()));
    }
    // a group message: only the members it mentions, online or not
    long group = Payloads.id(p, "group");
    fields.put("group", group == 0 ? conversation : group);
    String name = Payloads.text(p, "group_name", MAX_TITLE);
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
  private Future<?> read(DomainEvent e, JsonObject p) {
    long conversation = Payloads.id(p, "conversation");
    long user = Payloads.id(p, "user");
    long seq = Payloads.id(p, "seq");
    if (conversation == 0 || user == 0 || seq == 0) {
      return skipped(e, "needs conversation, user and seq");
    }
    JsonObject upToSeq = new JsonObject().put("seq", new JsonObject().put("$lte", seq));
    return system.markReadWhere(new JsonObject().put("to", user).put("conversation", conversation)
        .put("type", new JsonObject().put("$in", new JsonArray().add(Notifications.MESSAGE)
            .add(Notifications.CHAT_MENTION)))
        .put("$or", new JsonArray().add(upToSeq).add(new JsonObject().put("type", Notifications.MESSAGE)
            .put("seq", new JsonObject().put("$exists", false)))));
  }

  private Future<?> invited(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long by = Payloads.id(p, "by");
    if (group == 0 || by == 0) {
      return skipped(e, "needs group and by");
    }
    JsonObject fields = groupFields(p, group).put("from_user", by);
    List<Long> invited = Payloads.ids(p, "invited");
    if (invited.isEmpty()) {
      return Future.succeededFuture();
    }
    // everyone listed has a new invitation: a notification left from an older one (expired, its event not handled
    // yet) would make the dedupe key refuse the new one, so it goes first
    return system.purge(new JsonObject().put("to", new JsonObject().put("$in", new JsonArray(invited)))
        .put("key", "group_invitation:" + group)).compose(v -> {
          List<Future<Void>> each = new ArrayList<>();
          for (long user : invited) {
            each.add(notifier.notify(new Notice(user, Notifications.GROUP_INVITATION, "group_invitation:" + group,
                null, fields)));
          }
          return Future.all(each);
        });
  }

  /** A new member's invitation is answered, and a kick notice is over once they are back in. */
  private Future<?> joined(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    if (group == 0 || user == 0) {
      return skipped(e, "needs group and user");
    }
    return system.purge(new JsonObject().put("to", user).put("key", new JsonObject().put("$in", new JsonArray()
        .add("group_invitation:" + group).add("member_kicked:" + group))));
  }

  /**
   * The invitation expired: its notification goes, unless it is younger than the expiry (made for a new invitation
   * whose event was handled first).
   */
  private Future<?> expired(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    long expiredAt = Payloads.id(p, "expired_at");
    if (group == 0 || user == 0 || expiredAt == 0) {
      return skipped(e, "needs group, user and expired_at");
    }
    return system.purge(new JsonObject().put("to", user).put("key", "group_invitation:" + group)
        .put("created", new JsonObject().put("$lte", expiredAt)));
  }

  /** The invited user said no: their invitation to the group is answered. */
  private Future<?> declined(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    if (group == 0 || user == 0) {
      return skipped(e, "needs group and user");
    }
    return system.purge(new JsonObject().put("to", user).put("key", "group_invitation:" + group));
  }

  private Future<?> kicked(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    long by = Payloads.id(p, "by");
    if (group == 0 || user == 0 || by == 0) {
      return skipped(e, "needs group, user and by");
    }
    return Future.all(mentionsOf(user, group), notifier.notify(new Notice(user, Notifications.MEMBER_KICKED,
        "member_kicked:" + group, null, groupFields(p, group).put("from_user", by))));
  }

  private Future<?> left(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    if (group == 0 || user == 0) {
      return skipped(e, "needs group and user");
    }
    return mentionsOf(user, group);
  }

  private Future<?> dissolved(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    if (group == 0) {
      return skipped(e, "needs group");
    }
    return system.purge(new JsonObject().put("group", group).put("type", new JsonObject().put("$in", new JsonArray()
        .add(Notifications.CHAT_MENTION).add(Notifications.GROUP_INVITATION))));
  }

  /** Removes {@code user}'s chat mentions of {@code group} (they can no longer open its conversation). */
  private Future<Void> mentionsOf(long user, long group) {
    return system.purge(new JsonObject().put("to", user).put("type", Notifications.CHAT_MENTION).put("group", group));
  }

  private static JsonObject groupFields(JsonObject p, long group) {
    JsonObject fields = new JsonObject().put("group", group);
    String name = Payloads.text(p, "name", MAX_TITLE);
    if (name != null) {
      fields.put("title", name);
    }
    return fields;
  }

  /**
   * The offline ones among {@code users}, as each would see themselves: a user who is connected counts as online
   * whatever their presence mode (an invisible user gets no notification for what reaches their open connections).
   * Asked with {@code AccountsService.onlineAmong}, one call per {@value #PRESENCE_BATCH} users, not counted against
   * the users' own presence-query limits. When presence cannot be told (accounts unreachable), the users of that
   * call are offline: a redundant notification is better than a lost one.
   */
  private Future<Set<Long>> offlineAmong(List<Long> users) {
    List<Future<Set<Long>>> calls = new ArrayList<>();
    for (int i = 0; i < users.size(); i += PRESENCE_BATCH) {
      List<Long> batch = users.subList(i, Math.min(users.size(), i + PRESENCE_BATCH));
      calls.add(accounts.onlineAmong(batch).map(online -> {
        Set<Long> offline = new HashSet<>();
        batch.forEach(user -> {
          if (!online.getBoolean(Long.toString(user), false)) {
            offline.add(user);
          }
        });
        return offline;
      }).recover(err -> {
        LOG.warn("Presence of {} users could not be read ({}); notifying them as if offline", batch.size(),
            err.toString());
        return Future.succeededFuture(new HashSet<>(batch));
      }));
    }
    return Future.all(calls).map(all -> {
      Set<Long> offline = new HashSet<>();
      all.<Set<Long>>list().forEach(offline::addAll);
      return offline;
    });
  }

  private static Future<?> skipped(DomainEvent e, String why) {
    LOG.warn("Skipping malformed {} event {}: {}", e.type(), e.id(), why);
    return Future.succeededFuture();
  }
}
