package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.notifications.service.Notifier.Notice;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Group notifications from the messaging stream ({@link MessagingProducers}): an invitation to each invited user,
 * taken back when it is answered (joined, declined) or expires; a kick notice to a removed member; and the clean-up
 * of chat mentions a user can no longer open (kicked, left, group dissolved).
 */
final class GroupNotices {

  /** Longest group name kept in a notification, in code points. */
  static final int MAX_TITLE = 200;

  private final SystemChanges system;
  private final Notifier notifier;

  GroupNotices(SystemChanges system, Notifier notifier) {
    this.system = system;
    this.notifier = notifier;
  }

  Future<?> invited(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long by = Payloads.id(p, "by");
    if (group == 0 || by == 0) {
      return Payloads.skipped(e, "needs group and by");
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
  Future<?> joined(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    if (group == 0 || user == 0) {
      return Payloads.skipped(e, "needs group and user");
    }
    return system.purge(new JsonObject().put("to", user).put("key", new JsonObject().put("$in", new JsonArray()
        .add("group_invitation:" + group).add("member_kicked:" + group))));
  }

  /**
   * The invitation expired: its notification goes, unless it is younger than the expiry (made for a new invitation
   * whose event was handled first).
   */
  Future<?> expired(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    long expiredAt = Payloads.id(p, "expired_at");
    if (group == 0 || user == 0 || expiredAt == 0) {
      return Payloads.skipped(e, "needs group, user and expired_at");
    }
    return system.purge(new JsonObject().put("to", user).put("key", "group_invitation:" + group)
        .put("created", new JsonObject().put("$lte", expiredAt)));
  }

  /** The invited user said no: their invitation to the group is answered. */
  Future<?> declined(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    if (group == 0 || user == 0) {
      return Payloads.skipped(e, "needs group and user");
    }
    return system.purge(new JsonObject().put("to", user).put("key", "group_invitation:" + group));
  }

  Future<?> kicked(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    long by = Payloads.id(p, "by");
    if (group == 0 || user == 0 || by == 0) {
      return Payloads.skipped(e, "needs group, user and by");
    }
    return Future.all(mentionsOf(user, group), notifier.notify(new Notice(user, Notifications.MEMBER_KICKED,
        "member_kicked:" + group, null, groupFields(p, group).put("from_user", by))));
  }

  Future<?> left(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    long user = Payloads.id(p, "user");
    if (group == 0 || user == 0) {
      return Payloads.skipped(e, "needs group and user");
    }
    return mentionsOf(user, group);
  }

  Future<?> dissolved(DomainEvent e, JsonObject p) {
    long group = Payloads.id(p, "group");
    if (group == 0) {
      return Payloads.skipped(e, "needs group");
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
}
