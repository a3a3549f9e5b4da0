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
import java.util.List;

/**
 * Notifications from the messaging stream (consumer group {@value #GROUP}):
 * <ul>
 *   <li>{@code MessageSent}, direct: a {@link Notifications#MESSAGE} to each recipient who is offline when the event
 *   is handled, one per conversation (slot {@code message:<conversation>}): each newer message replaces it with its
 *   preview and a count. Group messages tell nobody one by one (the conversations list has unread counts), except
 *   the members they mention ({@link Notifications#CHAT_MENTION}, whether online or not).</li>
 *   <li>{@code GroupInvited}: a {@link Notifications#GROUP_INVITATION} to each invited user; {@code GroupJoined}
 *   takes it back (answered), and a kick notice of that group.</li>
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
  private static final Logger LOG = LoggerFactory.getLogger(MessagingProducers.class);

  private final NotificationsServiceImpl service;
  private final Notifier notifier;
  private final AccountsService accounts;

  MessagingProducers(NotificationsServiceImpl service, Notifier notifier, AccountsService accounts) {
    this.service = service;
    this.notifier = notifier;
    this.accounts = accounts;
  }

  Future<?> handle(DomainEvent e) {
    JsonObject p = e.payload();
    return switch (e.type()) {
      case MessagingEvents.MESSAGE_SENT -> messageSent(e, p);
      case MessagingEvents.GROUP_INVITED -> invited(e, p);
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
    List<Future<Void>> each = new ArrayList<>();
    if ("direct".equals(kind)) {
      for (long user : to) {
        each.add(notifier.notify(new Notice(user, Notifications.MESSAGE, "message:" + conversation + ":" + message,
            "message:" + conversation, fields), () -> offline(user)));
      }
    } else {
      long group = Payloads.id(p, "group");
      fields.put("group", group == 0 ? conversation : group);
      String name = Payloads.text(p, "group_name", MAX_TITLE);
      if (name != null) {
        fields.put("title", name);
      }
      // only members (the recipients) can be mentioned; the sender is never told (the rules skip the actor)
      for (long user : Payloads.ids(p, "mentions")) {
        if (to.contains(user)) {
          each.add(notifier.notify(new Notice(user, Notifications.CHAT_MENTION, "chat_mention:" + message, null,
              fields), null));
        }
      }
    }
    return Future.all(each);
  }

  private Future<?> invited(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long by = Payloads.id(p, "by");
    if (group == 0 || by == 0) {
      return skipped(e, "needs group and by");
    }
    JsonObject fields = groupFields(p, group).put("from_user", by);
    List<Future<Void>> each = new ArrayList<>();
    for (long user : Payloads.ids(p, "invited")) {
      each.add(notifier.notify(new Notice(user, Notifications.GROUP_INVITATION, "group_invitation:" + group, null,
          fields), null));
    }
    return Future.all(each);
  }

  /** A new member's invitation is answered, and a kick notice is over once they are back in. */
  private Future<?> joined(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    if (group == 0 || user == 0) {
      return skipped(e, "needs group and user");
    }
    return service.purge(new JsonObject().put("to", user).put("key", new JsonObject().put("$in", new JsonArray()
        .add("group_invitation:" + group).add("member_kicked:" + group))));
  }

  private Future<?> kicked(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    long by = Payloads.id(p, "by");
    if (group == 0 || user == 0 || by == 0) {
      return skipped(e, "needs group, user and by");
    }
    return Future.all(mentionsOf(user, group), notifier.notify(new Notice(user, Notifications.MEMBER_KICKED,
        "member_kicked:" + group, null, groupFields(p, group).put("from_user", by)), null));
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
    return service.purge(new JsonObject().put("group", group).put("type", new JsonObject().put("$in", new JsonArray()
        .add(Notifications.CHAT_MENTION).add(Notifications.GROUP_INVITATION))));
  }

  /** Removes {@code user}'s chat mentions of {@code group} (they can no longer open its conversation). */
  private Future<Void> mentionsOf(long user, long group) {
    return service.purge(new JsonObject().put("to", user).put("type", Notifications.CHAT_MENTION).put("group", group));
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
   * Whether {@code user} is offline, as they would see themselves (asked with the user as viewer: an invisible user
   * who is connected is online to themselves, so gets no notification for what reaches their open connections).
   * When presence cannot be told (accounts unreachable, or the user's presence-query quota used up), the answer is
   * offline: a redundant notification is better than a lost one.
   */
  private Future<Boolean> offline(long user) {
    return accounts.presence(user, List.of(user)).map(found -> {
      Object state = found.getValue(Long.toString(user));
      return !(state instanceof JsonObject s) || !s.getBoolean("online", false);
    }).recover(err -> {
      LOG.warn("Presence of user {} could not be read ({}); notifying as if offline", user, err.toString());
      return Future.succeededFuture(true);
    });
  }

  private static Future<?> skipped(DomainEvent e, String why) {
    LOG.warn("Skipping malformed {} event {}: {}", e.type(), e.id(), why);
    return Future.succeededFuture();
  }
}
