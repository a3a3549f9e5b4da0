package io.kith.messaging.service;

import io.kith.accounts.api.UserSummaries;
import static io.kith.messaging.service.GroupNotices.changed;
import static io.kith.messaging.service.Groups.FRIENDS;
import static io.kith.messaging.service.Groups.MEMBER;
import static io.kith.messaging.service.Groups.OWNER;
import static io.kith.messaging.service.Groups.isMember;
import static io.kith.messaging.service.Groups.notFound;
import static io.kith.messaging.service.Groups.roleOf;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.events.GroupLeft;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Joining and leaving a group, the hand-over of a group its owner left, and the member list. A user who loses a group
 * is announced on {@code Addresses#ROOMS_REVOKED} before the change is answered.
 */
final class Memberships {

  private final MessagingSettings settings;
  private final GroupStore groups;
  private final AccountsService accounts;
  private final Groups access;
  private final GroupNotices notices;
  private final GroupLifecycle lifecycle;

  Memberships(MessagingSettings settings, GroupStore groups, AccountsService accounts, Groups access,
              GroupNotices notices, GroupLifecycle lifecycle) {
    this.settings = settings;
    this.groups = groups;
    this.accounts = accounts;
    this.access = access;
    this.notices = notices;
    this.lifecycle = lifecycle;
  }

  Future<JsonObject> join(long actor, long groupId) {
    return access.throttleJoins(actor).compose(t -> access.see(actor, groupId)).compose(seen -> {
      if (seen.role() != null) {
        // a member already: rewriting the member document (an upsert that keeps it as it is) repairs one lost
        // between the two writes of an earlier join
        return access.putMember(groupId, actor, seen.role(), System.currentTimeMillis(),
            seen.doc().getLong("last_seq", 0L)).compose(in -> in ? Future.succeededFuture(access.view(seen))
            // removed meanwhile (a kick): they are not a member, as the kick answered
            : Failures.fail(MessagingErrors.NOT_GROUP_MEMBER, "you are not a member of this group"));
      }
      if (FRIENDS.equals(seen.kind()) && !seen.invited()) {
        // not reached: see() hides a friend group from a user without an invitation
        return notFound();
      }
      return groups.banned(groupId, List.of(actor)).compose(banned -> banned.isEmpty() ? joinNew(actor, seen)
          : Failures.fail(MessagingErrors.BANNED_FROM_GROUP, "you were removed from this group; only its owner or "
              + "an admin can invite you back"));
    });
  }

  /** A join of a user who is not a member (nor banned). */
  private Future<JsonObject> joinNew(long actor, Groups.Seen seen) {
    long groupId = seen.id();
    long now = System.currentTimeMillis();
    return groups.add(groupId, actor, settings.groupMemberCap(), now).compose(after -> after == null
        ? notAdded(actor, groupId)
        : joined(actor, seen, after, now));
  }

  /** Why the capped add did not add the user: the group is gone, full, or a concurrent join of theirs won. */
  private Future<JsonObject> notAdded(long actor, long groupId) {
    return groups.byId(groupId).compose(doc -> {
      if (doc == null || doc.getBoolean("dissolved", false)) {
        return notFound();
      }
      if (isMember(doc, actor)) {
        // a concurrent join of the same user won
        return access.see(actor, groupId).map(access::view);
      }
      return Failures.fail(MessagingErrors.GROUP_FULL, "this group has reached its "
          + settings.groupMemberCap() + " members");
    });
  }

  /** After the add: the member document, the invitation used up, then the user and the room are told. */
  private Future<JsonObject> joined(long actor, Groups.Seen seen, JsonObject after, long now) {
    long groupId = seen.id();
    String via = seen.invited() ? "invitation" : "join";
    return access.putMember(groupId, actor, MEMBER, now, after.getLong("last_seq", 0L))
        .compose(in -> !in ? Failures.<Void>fail(MessagingErrors.NOT_GROUP_MEMBER,
                "you were removed from this group as you joined")
            : seen.invited() ? groups.dropInvitation(groupId, actor).<Void>mapEmpty()
            : Future.<Void>succeededFuture())
        .map(v -> {
          notices.added(after, actor, via);
          notices.toRoom(groupId, changed(groupId, "joined").put("user", actor));
          return access.view(after, MEMBER, false);
        });
  }

  Future<Void> leave(long actor, long groupId) {
    return access.throttleJoins(actor).compose(t -> leaveUnthrottled(actor, groupId));
  }

  /** A leave without the rate limit: an erased account leaves its groups this way ({@link Erasure}). */
  Future<Void> leaveUnthrottled(long actor, long groupId) {
    return access.asMember(actor, groupId)
        .compose(seen -> groups.remove(groupId, actor).compose(after -> left(actor, seen, after)));
  }

  /** After the removal: the user loses the room at once; then the cleanup, the event, and the group's future. */
  private Future<Void> left(long actor, Groups.Seen seen, JsonObject after) {
    long groupId = seen.id();
    if (after == null) {
      return Failures.fail(MessagingErrors.NOT_GROUP_MEMBER, "you are not a member of this group");
    }
    notices.revoke(groupId, new JsonArray().add(actor));
    notices.removedPush(groupId, actor, "left");
    return groups.deleteMember(groupId, actor).compose(v -> {
      notices.publish(new GroupLeft(after.getLong("_id"), after.getString("name"),
          after.getString("group_kind"), actor));
      notices.toRoom(groupId, changed(groupId, "left").put("user", actor));
      return afterLeave(actor, seen, after);
    });
  }

  /** A group left empty is dissolved (unless managed); one left by its owner is handed over. */
  private Future<Void> afterLeave(long actor, Groups.Seen seen, JsonObject after) {
    long groupId = seen.id();
    if (seen.managed()) {
      // the managing domain owns the group: it stays, with its owner, even when nobody is in it
      return Future.succeededFuture();
    }
    if (after.getLong("member_count", 0L) <= 0) {
      return groups.dissolve(groupId, null, System.currentTimeMillis())
          .compose(before -> before == null ? Future.succeededFuture() : lifecycle.dissolved(before, actor));
    }
    // the owner left: now, or a moment ago while the member chosen to take over was leaving too (any leave
    // that finds the owner outside the group hands it over, so a group never stays without one)
    long owner = after.getLong("owner", 0L);
    return isMember(after, owner) ? Future.succeededFuture() : handOver(groupId, owner);
  }

  /**
   * The owner left: the oldest admin, else the oldest member, owns the group now. Only users in the group's
   * {@code members} are candidates, and the hand-over is conditional on the successor still being one: when they
   * leave or are kicked meanwhile, the next candidate is tried (a few times; any later leave repairs the rest).
   */
  private Future<Void> handOver(long groupId, long former) {
    return handOver(groupId, former, 3);
  }

  private Future<Void> handOver(long groupId, long former, int attempts) {
    return groups.byId(groupId).compose(doc -> {
      if (attempts <= 0 || doc == null || doc.getBoolean("dissolved", false)
          || doc.getLong("owner", 0L) != former || isMember(doc, former)) {
        return Future.succeededFuture();
      }
      return groups.successor(groupId, doc.getJsonArray("members", new JsonArray()))
          .compose(next -> next == null ? Future.succeededFuture() : handTo(groupId, former, next.getLong("user"),
              attempts));
    });
  }

  /** Hands the group to {@code to} if they are still a member; else the next candidate is tried. */
  private Future<Void> handTo(long groupId, long former, long to, int attempts) {
    return groups.handOver(groupId, former, to).compose(done -> !done ? handOver(groupId, former, attempts - 1)
        : groups.setRole(groupId, to, OWNER).map(v -> {
          notices.toRoom(groupId, changed(groupId, "role").put("user", to).put("role", OWNER));
          return null;
        }));
  }

  Future<JsonObject> members(long actor, long groupId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 50, 100);
      long[] cursor = GroupInput.cursor(q, "after");
      return access.asMember(actor, groupId).compose(seen -> groups.members(groupId,
          cursor == null ? null : cursor[0], cursor == null ? null : cursor[1], limit + 1).compose(found ->
          // read after the documents: a joiner is in the array before their document is written, so this drops only
          // documents of users no longer in the group (left behind by a race with a kick)
          groups.memberArray(groupId).compose(current -> membersPage(actor, seen, found, current, limit))));
    });
  }

  /** One page of member documents (one more than the limit when there are more) of users still in the group. */
  private Future<JsonObject> membersPage(long actor, Groups.Seen seen, List<JsonObject> found, JsonArray current,
                                         int limit) {
    boolean more = found.size() > limit;
    List<JsonObject> raw = more ? found.subList(0, limit) : found;
    List<JsonObject> page = raw.stream().filter(m -> current.contains(m.getLong("user"))).toList();
    List<Long> ids = page.stream().map(m -> m.getLong("user")).toList();
    Future<JsonObject> summaries = UserSummaries.lookup(accounts, actor, ids);
    return summaries.map(people -> {
      JsonArray items = new JsonArray();
      for (JsonObject m : page) {
        long user = m.getLong("user");
        // a member who joined after the group was read is not in its array yet: their document tells
        String role = roleOf(seen.doc(), m, user);
        items.add(new JsonObject()
            .put("user", UserSummaries.of(people, user))
            .put("role", role != null ? role : m.getString("role", MEMBER))
            .put("joined", m.getLong("joined")));
      }
      JsonObject last = raw.isEmpty() ? null : raw.get(raw.size() - 1);
      return new JsonObject().put("items", items)
          .put("next", more ? last.getLong("joined") + "_" + last.getLong("user") : null);
    });
  }
}
