package io.kith.messaging.service;

import static io.kith.messaging.service.Groups.MEMBER;
import static io.kith.messaging.service.Groups.OWNER;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingEvents;
import io.kith.messaging.api.events.GroupJoined;
import io.kith.messaging.api.events.MessagingEvent;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a group change tells others: the bridges (a user who lost the room), the members' connections, the group's
 * room, and the domain events appended after the change is stored.
 */
final class GroupNotices {


  private final Platform platform;
  private final Groups access;

  GroupNotices(Platform platform, Groups access) {
    this.platform = platform;
    this.access = access;
  }

  /** Announces that these users lost the group's room; the bridges stop delivering it to them at once. */
  void revoke(long groupId, JsonArray users) {
    if (!users.isEmpty()) {
      platform.vertx().eventBus().publish(Addresses.ROOMS_REVOKED, new JsonObject()
          .put("room", Messaging.groupRoom(groupId)).put("users", users.copy()));
    }
  }

  void removedPush(long groupId, long user, String reason) {
    platform.vertx().eventBus().publish(Addresses.user(user), new JsonObject().put("kind", Messaging.PUSH_GROUP_REMOVED)
        .put("group", groupId).put("reason", reason));
  }

  /** A user became a member: their connections are told (to register on the room) and GroupJoined is appended. */
  void added(JsonObject doc, long user, String via) {
    platform.vertx().eventBus().publish(Addresses.user(user), new JsonObject().put("kind", Messaging.PUSH_GROUP_ADDED)
        .put("group", access.view(doc, doc.getLong("owner", 0L) == user ? OWNER : MEMBER, false)).put("via", via));
    publish(new GroupJoined(doc.getLong("_id"), doc.getString("name"), doc.getString("group_kind"), user, via));
  }

  void toRoom(long groupId, JsonObject push) {
    platform.vertx().eventBus().publish(Addresses.room(Messaging.groupRoom(groupId)), push);
  }

  static JsonObject changed(long groupId, String change) {
    return new JsonObject().put("kind", Messaging.PUSH_GROUP_CHANGED).put("group", groupId).put("change", change);
  }

  /** Appends a group event after its write is stored; never fails (a lost event is logged). */
  void publish(MessagingEvent event) {
    platform.events().publisher(MessagingEvents.DOMAIN).publish(event);
  }
}
