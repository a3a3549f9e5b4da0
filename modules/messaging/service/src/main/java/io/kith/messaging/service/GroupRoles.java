package io.kith.messaging.service;

import static io.kith.messaging.service.GroupNotices.changed;
import static io.kith.messaging.service.Groups.ADMIN;
import static io.kith.messaging.service.Groups.MEMBER;
import static io.kith.messaging.service.Groups.OWNER;
import static io.kith.messaging.service.Groups.isMember;
import static io.kith.messaging.service.Groups.roleOf;

import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.events.MemberKicked;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/** Removing a member (who is then banned until invited back) and setting roles, the owner's included. */
final class GroupRoles {

  private static final Set<String> ROLES = Set.of(OWNER, ADMIN, MEMBER);

  private final ConversationStore conversations;
  private final GroupStore groups;
  private final Groups access;
  private final GroupNotices notices;

  GroupRoles(ConversationStore conversations, GroupStore groups, Groups access, GroupNotices notices) {
    this.conversations = conversations;
    this.groups = groups;
    this.access = access;
    this.notices = notices;
  }

  Future<Void> kick(long actor, long groupId, long userId) {
    if (userId == actor) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "userId", "to leave a group, leave it");
    }
    return access.asMember(actor, groupId).compose(seen -> {
      if (seen.managed()) {
        return Failures.fail(MessagingErrors.GROUP_MANAGED, "members of this group follow its activity");
      }
      if (!isMember(seen.doc(), userId)) {
        return Failures.fail(MessagingErrors.MEMBER_NOT_FOUND, "this user is not a member");
      }
      return conversations.member(groupId, userId).compose(target -> kickAs(actor, seen, userId, target));
    });
  }

  /** The kick itself: the owner removes anyone, an admin removes members only; the removed user is banned. */
  private Future<Void> kickAs(long actor, Groups.Seen seen, long userId, JsonObject target) {
    long groupId = seen.id();
    String targetRole = roleOf(seen.doc(), target, userId);
    boolean allowed = OWNER.equals(seen.role()) || (ADMIN.equals(seen.role()) && MEMBER.equals(targetRole));
    if (!allowed) {
      return Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, ADMIN.equals(seen.role())
          ? "admins can remove members, not admins or the owner" : "only the owner and admins can remove members");
    }
    return groups.remove(groupId, userId).compose(after -> after == null
        ? Failures.fail(MessagingErrors.MEMBER_NOT_FOUND, "this user is not a member")
        : kicked(actor, groupId, after, userId));
  }

  /** After the removal: the user loses the room at once, then the cleanup and ban, the event and the room's notice. */
  private Future<Void> kicked(long actor, long groupId, JsonObject after, long userId) {
    notices.revoke(groupId, new JsonArray().add(userId));
    notices.removedPush(groupId, userId, "kicked");
    return Future.all(groups.deleteMember(groupId, userId),
        groups.ban(groupId, userId, actor, System.currentTimeMillis())).map(v -> {
      notices.publish(new MemberKicked(after.getLong("_id"), after.getString("name"),
          after.getString("group_kind"), actor, userId));
      notices.toRoom(groupId, changed(groupId, "kicked").put("user", userId).put("by", actor));
      return null;
    });
  }

  Future<JsonObject> setRole(long actor, long groupId, long userId, String role) {
    if (role == null || !ROLES.contains(role)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "role", "role must be owner, admin or member");
    }
    if (userId == actor) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "userId",
          "the owner keeps their role until they hand the group to another member");
    }
    return access.asMember(actor, groupId).compose(seen -> {
      if (seen.managed()) {
        return Failures.fail(MessagingErrors.GROUP_MANAGED, "roles of this group follow its activity");
      }
      if (!OWNER.equals(seen.role())) {
        return Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, "only the owner can set roles");
      }
      if (!isMember(seen.doc(), userId)) {
        return Failures.fail(MessagingErrors.MEMBER_NOT_FOUND, "this user is not a member");
      }
      Future<Void> done;
      if (OWNER.equals(role)) {
        done = groups.handOver(groupId, actor, userId).compose(ok -> !ok
            ? groups.isMember(groupId, userId).compose(in -> in
                ? Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, "only the owner can set roles")
                : Failures.fail(MessagingErrors.MEMBER_NOT_FOUND, "this user is not a member"))
            : Future.all(groups.setRole(groupId, userId, OWNER), groups.setRole(groupId, actor, ADMIN)).mapEmpty());
      } else {
        done = groups.setRole(groupId, userId, role);
      }
      return done.compose(v -> conversations.member(groupId, userId)).map(member -> {
        notices.toRoom(groupId, changed(groupId, "role").put("user", userId).put("role", role).put("by", actor));
        return new JsonObject().put("user", userId).put("role", role)
            .put("joined", member == null ? null : member.getLong("joined"));
      });
    });
  }

}
