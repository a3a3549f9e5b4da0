package io.kith.messaging.service;

import static io.kith.messaging.service.GroupNotices.changed;
import static io.kith.messaging.service.Groups.ADMIN;
import static io.kith.messaging.service.Groups.FRIENDS;
import static io.kith.messaging.service.Groups.MEMBER;
import static io.kith.messaging.service.Groups.OWNER;
import static io.kith.messaging.service.Groups.TOPIC;
import static io.kith.messaging.service.Groups.notFound;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.events.GroupDissolved;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.Event;
import io.kith.platform.text.ContentFilters;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A group's life: creating a topic or friend group, reading and changing it, and dissolving it (by its owner, or when
 * its last member leaves).
 */
final class GroupLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(GroupLifecycle.class);
  private static final Set<String> CREATE_FIELDS = Set.of("kind", "name", "topic", "about", "members");
  private static final Set<String> UPDATE_FIELDS = Set.of("name", "topic", "about");

  private final Platform platform;
  private final MessagingSettings settings;
  private final GroupStore groups;
  private final Groups access;
  private final GroupNotices notices;

  private Consumer<Long> dissolvedHook = group -> { };

  GroupLifecycle(Platform platform, MessagingSettings settings, GroupStore groups, Groups access,
                 GroupNotices notices) {
    this.platform = platform;
    this.settings = settings;
    this.groups = groups;
    this.access = access;
    this.notices = notices;
  }

  /** Called with a group's id once it is dissolved on this node (the whiteboards drop the group's boards). */
  void onDissolved(Consumer<Long> hook) {
    this.dissolvedHook = hook;
  }

  /** A new group as its creator asked for it, validated. */
  private record Draft(String kind, String name, String about, String topic, List<Long> friends) {
  }

  Future<JsonObject> create(long actor, JsonObject spec) {
    return Failures.guard(() -> {
      Draft draft = draft(actor, spec);
      return access.throttle("rl:messaging:groups:" + actor, 3_600_000L, settings.groupsPerHour(), "groups")
          .compose(v -> access.friendsOf(actor, draft.friends(), "members"))
          .compose(v -> insert(actor, draft));
    });
  }

  /** Validates a new group's spec; throws the refusal. */
  private Draft draft(long actor, JsonObject spec) {
    if (spec == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "kind", "give kind and name");
    }
    for (String field : spec.fieldNames()) {
      if (!CREATE_FIELDS.contains(field)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, field, "unknown field " + field);
      }
    }
    String kind = String.valueOf(spec.getValue("kind"));
    if (!TOPIC.equals(kind) && !FRIENDS.equals(kind)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "kind", "kind must be topic or friends");
    }
    String name = ContentFilters.check("group_name", "name",
        GroupInput.text(spec, "name", 1, Messaging.MAX_GROUP_NAME, true));
    String about = GroupInput.paragraph(spec, "about", 0, Messaging.MAX_ABOUT, false);
    String topic = GroupInput.text(spec, "topic", 1, Messaging.MAX_TOPIC, TOPIC.equals(kind));
    if (topic != null && !TOPIC.equals(kind)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "topic", "only topic groups have a topic");
    }
    List<Long> friends = spec.containsKey("members") ? GroupInput.ids(spec.getValue("members"), "members", actor)
        : List.of();
    if (!friends.isEmpty() && !FRIENDS.equals(kind)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "members",
          "a topic group starts with its creator only: others join it");
    }
    if (1 + friends.size() > settings.groupMemberCap()) {
      throw Failures.of(MessagingErrors.GROUP_FULL, "a group has at most " + settings.groupMemberCap()
          + " members");
    }
    return new Draft(kind, name, about, topic, friends);
  }

  /** Stores the group, then its member documents; then every member is told. */
  private Future<JsonObject> insert(long actor, Draft draft) {
    long now = System.currentTimeMillis();
    long id = platform.ids().next();
    JsonArray members = new JsonArray().add(actor);
    draft.friends().forEach(members::add);
    JsonObject doc = new JsonObject().put("_id", id).put("kind", "group").put("group_kind", draft.kind())
        .put("name", draft.name()).put("about", draft.about() == null ? "" : draft.about())
        .put("keywords", GroupInput.keywords(draft.name(), draft.topic())).put("owner", actor).put("members", members)
        .put("member_count", members.size()).put("dissolved", false).put("seq", 0L).put("last_seq", 0L)
        .put("created", now).put("updated", now);
    if (draft.topic() != null) {
      doc.put("topic", draft.topic());
    }
    return groups.insert(doc).compose(x -> memberDocuments(id, actor, draft.friends(), now)).map(x -> {
      for (Object m : members) {
        long user = ((Number) m).longValue();
        notices.added(doc, user, "created");
      }
      return access.view(doc, OWNER, false);
    });
  }

  /** The creator's and the friends' member documents. */
  private Future<Void> memberDocuments(long id, long actor, List<Long> friends, long now) {
    List<Future<Void>> docs = new ArrayList<>();
    docs.add(groups.putMember(id, actor, OWNER, now, 0));
    friends.forEach(f -> docs.add(groups.putMember(id, f, MEMBER, now, 0)));
    List<Long> all = new ArrayList<>(friends);
    all.add(actor);
    // a member kicked (or leaving) before their document was written must not keep it
    return Future.all(docs).compose(y -> access.pruneMembers(id, all));
  }

  Future<JsonObject> group(long actor, long groupId) {
    return access.see(actor, groupId).map(access::view);
  }

  Future<JsonObject> update(long actor, long groupId, JsonObject changes) {
    return Failures.guard(() -> {
      if (changes == null || changes.isEmpty()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "name", "give name, topic and/or about");
      }
      for (String field : changes.fieldNames()) {
        if (!UPDATE_FIELDS.contains(field)) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, field, "unknown field " + field);
        }
      }
      String name = ContentFilters.check("group_name", "name",
          GroupInput.text(changes, "name", 1, Messaging.MAX_GROUP_NAME, false));
      String about = GroupInput.paragraph(changes, "about", 0, Messaging.MAX_ABOUT, false);
      String topic = GroupInput.text(changes, "topic", 1, Messaging.MAX_TOPIC, false);
      return access.asMember(actor, groupId).compose(seen -> updateAs(actor, seen, name, about, topic));
    });
  }

  /** A member's change: not of a managed group, by the owner or an admin, a topic for a topic group only. */
  private Future<JsonObject> updateAs(long actor, Groups.Seen seen, String name, String about, String topic) {
    long groupId = seen.id();
    if (seen.managed()) {
      return Failures.fail(MessagingErrors.GROUP_MANAGED, "this group's name is set by the activity it belongs to");
    }
    if (!OWNER.equals(seen.role()) && !ADMIN.equals(seen.role())) {
      return Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, "only the owner and admins can change a group");
    }
    if (topic != null && !TOPIC.equals(seen.kind())) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "topic", "only topic groups have a topic");
    }
    JsonObject set = new JsonObject();
    if (name != null) {
      set.put("name", name);
    }
    if (about != null) {
      set.put("about", about);
    }
    if (topic != null) {
      set.put("topic", topic);
    }
    set.put("keywords", GroupInput.keywords(name != null ? name : seen.doc().getString("name"),
        topic != null ? topic : seen.doc().getString("topic")));
    return groups.update(groupId, set).compose(after -> {
      if (after == null) {
        return notFound();
      }
      notices.toRoom(groupId, changed(groupId, "updated").put("by", actor));
      return Future.succeededFuture(access.view(after, seen.role(), false));
    });
  }

  Future<Void> dissolve(long actor, long groupId) {
    return access.asMember(actor, groupId).compose(seen -> {
      if (seen.managed()) {
        return Failures.fail(MessagingErrors.GROUP_MANAGED, "this group ends with the activity it belongs to");
      }
      if (!OWNER.equals(seen.role())) {
        return Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, "only the owner can dissolve a group");
      }
      return groups.dissolve(groupId, actor, System.currentTimeMillis()).compose(before -> before == null
          ? Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, "only the owner can dissolve a group")
          : dissolved(before, actor));
    });
  }

  /**
   * Dissolves a managed group whose owner was erased ({@link Erasure}): the managing domain's object is gone with its
   * owner, so nobody is left to end the group. Members lose it as in any dissolution.
   */
  Future<Void> dissolveOrphaned(long owner, long groupId) {
    return groups.dissolve(groupId, owner, System.currentTimeMillis())
        .compose(before -> before == null ? Future.succeededFuture() : dissolved(before, owner));
  }

  /** After a group was marked dissolved: everybody loses it, then the cleanup and the event. */
  Future<Void> dissolved(JsonObject before, long by) {
    long id = before.getLong("_id");
    JsonArray members = before.getJsonArray("members", new JsonArray());
    notices.revoke(id, members);
    for (Object m : members) {
      notices.removedPush(id, ((Number) m).longValue(), "dissolved");
    }
    return Future.all(groups.deleteMembers(id), groups.dropInvitations(id), groups.dropBans(id)).map(v -> {
      notices.publish(new GroupDissolved(before.getLong("_id"), before.getString("name"),
          before.getString("group_kind"), by, Event.longs(members)));
      dissolvedHook.accept(id);
      return null;
    });
  }

}
