package io.kith.messaging.service;

import static io.kith.messaging.service.GroupNotices.changed;
import static io.kith.messaging.service.Groups.MANAGED;
import static io.kith.messaging.service.Groups.MEMBER;
import static io.kith.messaging.service.Groups.OWNER;
import static io.kith.messaging.service.Groups.notFound;
import static io.kith.messaging.service.Groups.roleOf;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.events.GroupLeft;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The groups other domains manage (an activity's chat): made once per {@code ref}, their members set by their
 * owner's domain, never renamed, kicked from or dissolved by a user.
 */
final class ManagedGroups {

  private static final int MAX_REF = 100;

  private final Platform platform;
  private final ConversationStore conversations;
  private final GroupStore groups;
  private final Groups access;
  private final GroupNotices notices;

  ManagedGroups(Platform platform, ConversationStore conversations, GroupStore groups, Groups access,
                GroupNotices notices) {
    this.platform = platform;
    this.conversations = conversations;
    this.groups = groups;
    this.access = access;
    this.notices = notices;
  }

  Future<JsonObject> managed(long owner, String ref, JsonObject spec) {
    return Failures.guard(() -> {
      if (owner <= 0) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "owner", "owner must be a user id");
      }
      if (ref == null || ref.isBlank() || ref.length() > MAX_REF) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "ref", "ref must be 1 to " + MAX_REF + " characters");
      }
      String name = GroupInput.text(spec == null ? new JsonObject() : spec, "name", 1, Messaging.MAX_GROUP_NAME,
          true);
      return groups.byRef(ref).compose(found -> found != null ? Future.succeededFuture(found) : make(owner, ref, name))
          .compose(doc -> conversations.member(doc.getLong("_id"), owner)
              .map(m -> access.view(doc, roleOf(doc, m, owner), false)));
    });
  }

  /** Makes the managed group of {@code ref} with its owner as the one member. */
  private Future<JsonObject> make(long owner, String ref, String name) {
    long now = System.currentTimeMillis();
    long id = platform.ids().next();
    JsonObject doc = new JsonObject().put("_id", id).put("kind", "group").put("group_kind", MANAGED)
        .put("name", name).put("about", "").put("ref", ref).put("owner", owner)
        .put("members", new JsonArray().add(owner)).put("member_count", 1).put("dissolved", false)
        .put("seq", 0L).put("last_seq", 0L).put("created", now).put("updated", now);
    return groups.insert(doc)
        .compose(v -> groups.putMember(id, owner, OWNER, now, 0))
        .map(v -> {
          notices.added(doc, owner, "managed");
          return doc;
        })
        // the same ref made at once elsewhere: that group is the answer
        .recover(e -> MongoErrors.isDuplicateKey(e) ? groups.byRef(ref) : Future.failedFuture(e));
  }

  Future<Void> setManaged(long owner, long groupId, List<Long> add, List<Long> remove) {
    return Failures.guard(() -> {
      List<Long> adds = GroupInput.managedIds(add, "add");
      List<Long> removes = GroupInput.managedIds(remove, "remove");
      if (adds.size() + removes.size() > Messaging.MAX_MANAGED_CHANGE) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "add", "at most " + Messaging.MAX_MANAGED_CHANGE
            + " ids in all per call");
      }
      for (Long id : adds) {
        if (removes.contains(id)) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "remove",
              "user " + id + " is both added and removed");
        }
      }
      return groups.byId(groupId <= 0 ? -1 : groupId).compose(doc -> change(owner, groupId, doc, adds, removes));
    });
  }

  /** The owner's change: the additions and removals start at once; the removals are told, then the additions. */
  private Future<Void> change(long owner, long groupId, JsonObject doc, List<Long> adds, List<Long> removes) {
    if (doc == null || doc.getBoolean("dissolved", false) || !MANAGED.equals(doc.getString("group_kind"))) {
      return notFound();
    }
    if (doc.getLong("owner", 0L) != owner) {
      return Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, "only the group's owner changes its members");
    }
    long now = System.currentTimeMillis();
    List<Future<Long>> added = new ArrayList<>();
    for (long user : adds) {
      added.add(addMember(owner, groupId, user, now));
    }
    List<Future<JsonObject>> removed = new ArrayList<>();
    for (long user : removes) {
      removed.add(groups.remove(groupId, user));
    }
    return Future.all(removed).compose(v -> removedMembers(doc, groupId, removes, removed))
        .compose(v -> Future.all(added)).mapEmpty();
  }

  /** Adds one user (no cap): answers the user once they are in, null when they were or a removal won. */
  private Future<Long> addMember(long owner, long groupId, long user, long now) {
    return groups.add(groupId, user, null, now).compose(after -> after == null
        ? Future.succeededFuture((Long) null)
        : access.putMember(groupId, user, user == owner ? OWNER : MEMBER, now, after.getLong("last_seq", 0L))
            .map(in -> {
              if (!in) {
                // removed by a concurrent setManagedMembers: that removal wins
                return null;
              }
              notices.added(after, user, "managed");
              notices.toRoom(groupId, changed(groupId, "joined").put("user", user));
              return user;
            }));
  }

  /** The users the removals took out lose the room at once; then their documents go and the events follow. */
  private Future<Void> removedMembers(JsonObject doc, long groupId, List<Long> removes,
                                      List<Future<JsonObject>> removed) {
    JsonArray lost = new JsonArray();
    List<Future<Void>> cleanup = new ArrayList<>();
    for (int i = 0; i < removes.size(); i++) {
      JsonObject after = removed.get(i).result();
      if (after != null) {
        long user = removes.get(i);
        lost.add(user);
        cleanup.add(groups.deleteMember(groupId, user));
      }
    }
    notices.revoke(groupId, lost);
    for (Object u : lost) {
      long user = ((Number) u).longValue();
      notices.removedPush(groupId, user, "removed");
      notices.toRoom(groupId, changed(groupId, "left").put("user", user));
    }
    return Future.all(cleanup).map(x -> {
      for (Object u : lost) {
        notices.publish(new GroupLeft(doc.getLong("_id"), doc.getString("name"),
            doc.getString("group_kind"), ((Number) u).longValue()));
      }
      return null;
    });
  }
}
