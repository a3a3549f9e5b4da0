package io.kith.messaging.service;

import io.kith.messaging.api.MessagingErrors;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.limit.RateLimiter;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every group feature asks first: who may see a group and in which role, how a group looks to them, the member
 * documents, and the shared checks (rate limits, friends only).
 *
 * <p>The group rules live one feature a file: {@link GroupLifecycle} (create, change, dissolve), {@link GroupSearch},
 * {@link Memberships} (join, leave, members), {@link GroupRoles} (kick, roles), {@link GroupInvitations} and
 * {@link ManagedGroups} (the groups of other domains). Every change is written to MongoDB first; a user who loses a
 * group is announced on {@link Addresses#ROOMS_REVOKED} before the change is answered, so the bridges stop delivering
 * its room to them at once; then the pushes and the domain event follow ({@link GroupNotices}).
 */
final class Groups {

  static final String TOPIC = "topic";
  static final String FRIENDS = "friends";
  static final String MANAGED = "managed";
  static final String OWNER = "owner";
  static final String ADMIN = "admin";
  static final String MEMBER = "member";
  private static final Pattern ROOM = Pattern.compile("g([1-9][0-9]{0,15})");

  private final MessagingSettings settings;
  private final ConversationStore conversations;
  private final GroupStore groups;
  private final RelationsInternal relations;
  private final RateLimiter limiter;

  Groups(MessagingSettings settings, ConversationStore conversations, GroupStore groups, RelationsInternal relations,
         RateLimiter limiter) {
    this.settings = settings;
    this.conversations = conversations;
    this.groups = groups;
    this.relations = relations;
    this.limiter = limiter;
  }

  /** A group as the actor sees it: the document, the actor's role (null when not a member), an invitation. */
  record Seen(JsonObject doc, String role, boolean invited) {

    long id() {
      return doc.getLong("_id");
    }

    String kind() {
      return doc.getString("group_kind");
    }

    boolean managed() {
      return MANAGED.equals(kind());
    }
  }

  // ------------------------------------------------------------------ seeing a group

  static boolean isMember(JsonObject doc, long user) {
    return doc.getJsonArray("members", new JsonArray()).contains(user);
  }

  /**
   * The role of {@code user} in a group (null when not a member): the group's owner field decides ownership, the
   * member document the rest.
   */
  static String roleOf(JsonObject doc, JsonObject member, long user) {
    if (!isMember(doc, user)) {
      return null;
    }
    if (doc.getLong("owner", 0L) == user) {
      return OWNER;
    }
    String role = member == null ? MEMBER : member.getString("role", MEMBER);
    // a former owner's document not updated yet (a crash between the hand-over's two writes) counts as an admin
    return OWNER.equals(role) ? ADMIN : role;
  }

  /**
   * The group if the actor may see it: a member sees any group; anyone sees a topic group; a user invited sees a
   * friend group. Otherwise (and for a dissolved or unknown group) {@code group_not_found}.
   */
  Future<Seen> see(long actor, long groupId) {
    if (groupId <= 0) {
      return notFound();
    }
    return groups.byId(groupId).compose(doc -> {
      if (doc == null || doc.getBoolean("dissolved", false)) {
        return notFound();
      }
      if (isMember(doc, actor)) {
        return conversations.member(groupId, actor).map(m -> new Seen(doc, roleOf(doc, m, actor), false));
      }
      if (MANAGED.equals(doc.getString("group_kind"))) {
        return notFound();
      }
      return groups.invitation(groupId, actor).compose(inv -> inv != null || TOPIC.equals(doc.getString("group_kind"))
          ? Future.succeededFuture(new Seen(doc, null, inv != null)) : notFound());
    });
  }

  /** The group if the actor is a member; {@code not_group_member} if they only see it; else not found. */
  Future<Seen> asMember(long actor, long groupId) {
    return see(actor, groupId).compose(seen -> seen.role() != null ? Future.succeededFuture(seen)
        : Failures.fail(MessagingErrors.NOT_GROUP_MEMBER, "you are not a member of this group"));
  }

  static <T> Future<T> notFound() {
    return Failures.fail(MessagingErrors.GROUP_NOT_FOUND, "no such group");
  }

  /** The group view (see {@code MessagingService}). */
  JsonObject view(JsonObject doc, String role, boolean invited) {
    boolean managed = MANAGED.equals(doc.getString("group_kind"));
    JsonObject view = new JsonObject().put("id", doc.getLong("_id")).put("kind", doc.getString("group_kind"))
        .put("name", doc.getString("name"));
    if (doc.containsKey("topic")) {
      view.put("topic", doc.getString("topic"));
    }
    return view.put("about", doc.getString("about", "")).put("owner", doc.getLong("owner"))
        .put("member_count", doc.getLong("member_count", 0L))
        .put("member_cap", managed ? null : settings.groupMemberCap())
        .put("created", doc.getLong("created")).put("role", role).put("invited", invited);
  }

  JsonObject view(Seen seen) {
    return view(seen.doc(), seen.role(), seen.invited());
  }

  /** The group summary of a conversation view. */
  static JsonObject summary(JsonObject doc, JsonObject member, long actor) {
    JsonObject s = new JsonObject().put("id", doc.getLong("_id")).put("kind", doc.getString("group_kind"))
        .put("name", doc.getString("name"));
    if (doc.containsKey("topic")) {
      s.put("topic", doc.getString("topic"));
    }
    return s.put("member_count", doc.getLong("member_count", 0L)).put("role", roleOf(doc, member, actor));
  }

  /** Whether {@code userId} may listen on room {@code roomId}: a group room of a live group it is a member of. */
  Future<Boolean> mayListen(long userId, String roomId) {
    Matcher m = roomId == null ? null : ROOM.matcher(roomId);
    if (m == null || !m.matches()) {
      return Future.succeededFuture(false);
    }
    return groups.isMember(Long.parseLong(m.group(1)), userId);
  }

  // ------------------------------------------------------------------ member documents

  /**
   * Writes a member document, then drops it again if the user is not in the group's {@code members} any more: a kick
   * or removal ({@code $pull}, then the document's delete) that ran between the join's {@code $push} (or the check
   * of an existing member) and this write would otherwise leave the document behind. Either the write came before
   * the kick's delete (which removes it) or after its {@code $pull} (which this re-read sees). Answers whether the
   * user is still a member.
   */
  Future<Boolean> putMember(long groupId, long user, String role, long joined, long readSeq) {
    return groups.putMember(groupId, user, role, joined, readSeq)
        .compose(v -> groups.isMember(groupId, user))
        .compose(in -> in ? Future.succeededFuture(true)
            : groups.deleteMember(groupId, user).map(false));
  }

  /** As {@link #putMember} for several users of one group: one re-read of the members array. */
  Future<Void> pruneMembers(long groupId, List<Long> users) {
    return groups.memberArray(groupId).compose(members -> {
      List<Future<Void>> drops = new ArrayList<>();
      for (long user : users) {
        if (!members.contains(user)) {
          drops.add(groups.deleteMember(groupId, user));
        }
      }
      return Future.all(drops).mapEmpty();
    });
  }


  // ------------------------------------------------------------------ checks

  Future<Void> throttle(String key, long windowMillis, int max, String what) {
    String per = windowMillis == 60_000L ? " per minute" : " per hour";
    return limiter.enforce(key, windowMillis, max, "too many " + what + "; at most " + max + per);
  }

  /** Counts a join or leave of {@code actor}: {@code rate_limited} past {@code group-joins-per-minute}. */
  Future<Void> throttleJoins(long actor) {
    return throttle("rl:messaging:joins:" + actor, 60_000L, settings.groupJoinsPerMinute(), "group joins and leaves");
  }

  /** Fails with {@code not_friends} naming {@code field} unless every user is the actor's friend. */
  Future<Void> friendsOf(long actor, List<Long> users, String field) {
    if (users.isEmpty()) {
      return Future.succeededFuture();
    }
    return relations.ties(actor, users).compose(ties -> {
      List<Long> strangers = users.stream().filter(u -> !ties.getJsonObject(Long.toString(u), new JsonObject())
          .getBoolean("friend", false)).toList();
      return strangers.isEmpty() ? Future.succeededFuture()
          : Failures.failField(MessagingErrors.NOT_FRIENDS, field, "not your friends: " + strangers);
    });
  }
}
