package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.store.MongoErrors;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The group rules: who may see, join, leave, invite, kick, rename, set roles and dissolve, and the managed groups of
 * other domains. Every change is written to MongoDB first; a user who loses a group is announced on
 * {@link Addresses#ROOMS_REVOKED} before the change is answered, so the bridges stop delivering its room to them at
 * once; then the pushes and the domain event follow.
 */
final class Groups {

  private static final Logger LOG = LoggerFactory.getLogger(Groups.class);
  static final String TOPIC = "topic";
  static final String FRIENDS = "friends";
  static final String MANAGED = "managed";
  static final String OWNER = "owner";
  static final String ADMIN = "admin";
  static final String MEMBER = "member";
  private static final Set<String> CREATE_FIELDS = Set.of("kind", "name", "topic", "about", "members");
  private static final Set<String> UPDATE_FIELDS = Set.of("name", "topic", "about");
  private static final Set<String> ROLES = Set.of(OWNER, ADMIN, MEMBER);
  private static final Pattern ROOM = Pattern.compile("g([1-9][0-9]{0,15})");
  private static final int MAX_QUERY_WORDS = 5;
  private static final int MAX_QUERY = 50;
  private static final int MAX_REF = 100;

  private final Platform platform;
  private final MessagingSettings settings;
  private final ConversationStore conversations;
  private final GroupStore groups;
  private final AccountsService accounts;
  private final RelationsService relations;
  private final RateLimiter limiter;

  private Consumer<Long> dissolvedHook = group -> { };

  Groups(Platform platform, MessagingSettings settings, ConversationStore conversations, GroupStore groups,
         AccountsService accounts, RelationsService relations, RateLimiter limiter) {
    this.platform = platform;
    this.settings = settings;
    this.conversations = conversations;
    this.groups = groups;
    this.accounts = accounts;
    this.relations = relations;
    this.limiter = limiter;
  }

  /** Called with a group's id once it is dissolved on this node (the whiteboards drop the group's boards). */
  void onDissolved(Consumer<Long> hook) {
    this.dissolvedHook = hook;
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

  private static <T> Future<T> notFound() {
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

  // ------------------------------------------------------------------ create, search, update, dissolve

  Future<JsonObject> create(long actor, JsonObject spec) {
    return Failures.guard(() -> {
      if (spec == null) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "kind", "give kind and name");
      }
      for (String field : spec.fieldNames()) {
        if (!CREATE_FIELDS.contains(field)) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, field, "unknown field " + field);
        }
      }
      String kind = String.valueOf(spec.getValue("kind"));
      if (!TOPIC.equals(kind) && !FRIENDS.equals(kind)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "kind", "kind must be topic or friends");
      }
      String name = GroupInput.text(spec, "name", 1, Messaging.MAX_GROUP_NAME, true);
      String about = GroupInput.paragraph(spec, "about", 0, Messaging.MAX_ABOUT, false);
      String topic = GroupInput.text(spec, "topic", 1, Messaging.MAX_TOPIC, TOPIC.equals(kind));
      if (topic != null && !TOPIC.equals(kind)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "topic", "only topic groups have a topic");
      }
      List<Long> friends = spec.containsKey("members") ? GroupInput.ids(spec.getValue("members"), "members", actor)
          : List.of();
      if (!friends.isEmpty() && !FRIENDS.equals(kind)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "members",
            "a topic group starts with its creator only: others join it");
      }
      if (1 + friends.size() > settings.groupMemberCap()) {
        return Failures.fail(MessagingErrors.GROUP_FULL, "a group has at most " + settings.groupMemberCap()
            + " members");
      }
      return throttle("rl:messaging:groups:" + actor, 3_600_000L, settings.groupsPerHour(), "groups")
          .compose(v -> friendsOf(actor, friends, "members"))
          .compose(v -> {
            long now = System.currentTimeMillis();
            long id = platform.ids().next();
            JsonArray members = new JsonArray().add(actor);
            friends.forEach(members::add);
            JsonObject doc = new JsonObject().put("_id", id).put("kind", "group").put("group_kind", kind)
                .put("name", name).put("about", about == null ? "" : about)
                .put("keywords", GroupInput.keywords(name, topic)).put("owner", actor).put("members", members)
                .put("member_count", members.size()).put("dissolved", false).put("seq", 0L).put("last_seq", 0L)
                .put("created", now).put("updated", now);
            if (topic != null) {
              doc.put("topic", topic);
            }
            return groups.insert(doc).compose(x -> {
              List<Future<Void>> docs = new ArrayList<>();
              docs.add(groups.putMember(id, actor, OWNER, now, 0));
              friends.forEach(f -> docs.add(groups.putMember(id, f, MEMBER, now, 0)));
              List<Long> all = new ArrayList<>(friends);
              all.add(actor);
              // a member kicked (or leaving) before their document was written must not keep it
              return Future.all(docs).compose(y -> pruneMembers(id, all));
            }).map(x -> {
              for (Object m : members) {
                long user = ((Number) m).longValue();
                added(doc, user, "created");
              }
              return view(doc, OWNER, false);
            });
          });
    });
  }

  Future<JsonObject> search(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      Object raw = q.getValue("q");
      if (!(raw instanceof String) || ((String) raw).isBlank() || ((String) raw).length() > MAX_QUERY) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "q", "q must be 1 to " + MAX_QUERY + " characters");
      }
      List<String> words = GroupInput.words((String) raw);
      if (words.isEmpty()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "q", "q must contain a letter or a digit");
      }
      if (words.size() > MAX_QUERY_WORDS) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "q", "q may have at most " + MAX_QUERY_WORDS
            + " words");
      }
      int limit = GroupInput.limit(q, "limit", 20, 50);
      Long before = GroupInput.positive(q, "before");
      return groups.search(words, before, limit + 1).compose(found -> {
        boolean more = found.size() > limit;
        List<JsonObject> page = more ? found.subList(0, limit) : found;
        return views(actor, page).map(items -> new JsonObject().put("items", items)
            .put("next", more ? page.get(page.size() - 1).getLong("_id") : null));
      });
    });
  }

  /** Group views of light documents (no members array) for the actor: role and invitation looked up. */
  private Future<JsonArray> views(long actor, List<JsonObject> docs) {
    if (docs.isEmpty()) {
      return Future.succeededFuture(new JsonArray());
    }
    List<Long> ids = docs.stream().map(d -> d.getLong("_id")).toList();
    Future<List<JsonObject>> mine = groups.memberships(actor, ids);
    Future<Set<Long>> in = groups.memberOf(actor, ids);
    Future<List<JsonObject>> invited = groups.invitationsTo(actor, ids);
    return Future.all(mine, in, invited).map(v -> {
      Map<Long, String> roles = new HashMap<>();
      // a member document counts only with the user in the group's members (see putMember)
      mine.result().stream().filter(m -> in.result().contains(m.getLong("conversation")))
          .forEach(m -> roles.put(m.getLong("conversation"), m.getString("role", MEMBER)));
      Set<Long> invitations = new java.util.HashSet<>();
      invited.result().forEach(i -> invitations.add(i.getLong("group")));
      JsonArray items = new JsonArray();
      for (JsonObject d : docs) {
        long id = d.getLong("_id");
        String role = roles.get(id);
        if (role != null) {
          role = d.getLong("owner", 0L) == actor ? OWNER : OWNER.equals(role) ? ADMIN : role;
        }
        items.add(view(d, role, invitations.contains(id)));
      }
      return items;
    });
  }

  Future<JsonObject> group(long actor, long groupId) {
    return see(actor, groupId).map(this::view);
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
      String name = GroupInput.text(changes, "name", 1, Messaging.MAX_GROUP_NAME, false);
      String about = GroupInput.paragraph(changes, "about", 0, Messaging.MAX_ABOUT, false);
      String topic = GroupInput.text(changes, "topic", 1, Messaging.MAX_TOPIC, false);
      return asMember(actor, groupId).compose(seen -> {
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
          toRoom(groupId, changed(groupId, "updated").put("by", actor));
          return Future.succeededFuture(view(after, seen.role(), false));
        });
      });
    });
  }

  Future<Void> dissolve(long actor, long groupId) {
    return asMember(actor, groupId).compose(seen -> {
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

  /** After a group was marked dissolved: everybody loses it, then the cleanup and the event. */
  private Future<Void> dissolved(JsonObject before, long by) {
    long id = before.getLong("_id");
    JsonArray members = before.getJsonArray("members", new JsonArray());
    revoke(id, members);
    for (Object m : members) {
      removedPush(id, ((Number) m).longValue(), "dissolved");
    }
    return Future.all(groups.deleteMembers(id), groups.dropInvitations(id), groups.dropBans(id)).map(v -> {
      append(MessagingEvents.GROUP_DISSOLVED, event(before).put("by", by).put("members", members.copy()));
      dissolvedHook.accept(id);
      return null;
    });
  }

  // ------------------------------------------------------------------ membership

  Future<JsonObject> join(long actor, long groupId) {
    return throttleJoins(actor).compose(t -> see(actor, groupId)).compose(seen -> {
      if (seen.role() != null) {
        // a member already: rewriting the member document (an upsert that keeps it as it is) repairs one lost
        // between the two writes of an earlier join
        return putMember(groupId, actor, seen.role(), System.currentTimeMillis(),
            seen.doc().getLong("last_seq", 0L)).compose(in -> in ? Future.succeededFuture(view(seen))
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
  private Future<JsonObject> joinNew(long actor, Seen seen) {
    long groupId = seen.id();
    long now = System.currentTimeMillis();
    return groups.add(groupId, actor, settings.groupMemberCap(), now).compose(after -> {
      if (after == null) {
        return groups.byId(groupId).compose(doc -> {
          if (doc == null || doc.getBoolean("dissolved", false)) {
            return notFound();
          }
          if (isMember(doc, actor)) {
            // a concurrent join of the same user won
            return see(actor, groupId).map(this::view);
          }
          return Failures.fail(MessagingErrors.GROUP_FULL, "this group has reached its "
              + settings.groupMemberCap() + " members");
        });
      }
      String via = seen.invited() ? "invitation" : "join";
      return putMember(groupId, actor, MEMBER, now, after.getLong("last_seq", 0L))
          .compose(in -> !in ? Failures.<Void>fail(MessagingErrors.NOT_GROUP_MEMBER,
                  "you were removed from this group as you joined")
              : seen.invited() ? groups.dropInvitation(groupId, actor).<Void>mapEmpty()
              : Future.<Void>succeededFuture())
          .map(v -> {
            added(after, actor, via);
            toRoom(groupId, changed(groupId, "joined").put("user", actor));
            return view(after, MEMBER, false);
          });
    });
  }

  Future<Void> leave(long actor, long groupId) {
    return throttleJoins(actor).compose(t -> asMember(actor, groupId)).compose(seen -> groups.remove(groupId, actor)
        .compose(after -> {
      if (after == null) {
        return Failures.fail(MessagingErrors.NOT_GROUP_MEMBER, "you are not a member of this group");
      }
      revoke(groupId, new JsonArray().add(actor));
      removedPush(groupId, actor, "left");
      return groups.deleteMember(groupId, actor).compose(v -> {
        append(MessagingEvents.GROUP_LEFT, event(after).put("user", actor));
        toRoom(groupId, changed(groupId, "left").put("user", actor));
        if (seen.managed()) {
          // the managing domain owns the group: it stays, with its owner, even when nobody is in it
          return Future.succeededFuture();
        }
        if (after.getLong("member_count", 0L) <= 0) {
          return groups.dissolve(groupId, null, System.currentTimeMillis())
              .compose(before -> before == null ? Future.succeededFuture() : dissolved(before, actor));
        }
        // the owner left: now, or a moment ago while the member chosen to take over was leaving too (any leave
        // that finds the owner outside the group hands it over, so a group never stays without one)
        long owner = after.getLong("owner", 0L);
        return isMember(after, owner) ? Future.succeededFuture() : handOver(groupId, owner);
      });
    }));
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
      return groups.successor(groupId, doc.getJsonArray("members", new JsonArray())).compose(next -> {
        if (next == null) {
          return Future.succeededFuture();
        }
        long to = next.getLong("user");
        return groups.handOver(groupId, former, to).compose(done -> !done ? handOver(groupId, former, attempts - 1)
            : groups.setRole(groupId, to, OWNER).map(v -> {
              toRoom(groupId, changed(groupId, "role").put("user", to).put("role", OWNER));
              return null;
            }));
      });
    });
  }

  /**
   * Writes a member document, then drops it again if the user is not in the group's {@code members} any more: a kick
   * or removal ({@code $pull}, then the document's delete) that ran between the join's {@code $push} (or the check
   * of an existing member) and this write would otherwise leave the document behind. Either the write came before
   * the kick's delete (which removes it) or after its {@code $pull} (which this re-read sees). Answers whether the
   * user is still a member.
   */
  private Future<Boolean> putMember(long groupId, long user, String role, long joined, long readSeq) {
    return groups.putMember(groupId, user, role, joined, readSeq)
        .compose(v -> groups.isMember(groupId, user))
        .compose(in -> in ? Future.succeededFuture(true)
            : groups.deleteMember(groupId, user).map(false));
  }

  /** As {@link #putMember} for several users of one group: one re-read of the members array. */
  private Future<Void> pruneMembers(long groupId, List<Long> users) {
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

  Future<Void> kick(long actor, long groupId, long userId) {
    if (userId == actor) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "userId", "to leave a group, leave it");
    }
    return asMember(actor, groupId).compose(seen -> {
      if (seen.managed()) {
        return Failures.fail(MessagingErrors.GROUP_MANAGED, "members of this group follow its activity");
      }
      if (!isMember(seen.doc(), userId)) {
        return Failures.fail(MessagingErrors.MEMBER_NOT_FOUND, "this user is not a member");
      }
      return conversations.member(groupId, userId).compose(target -> {
        String targetRole = roleOf(seen.doc(), target, userId);
        boolean allowed = OWNER.equals(seen.role()) || (ADMIN.equals(seen.role()) && MEMBER.equals(targetRole));
        if (!allowed) {
          return Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, ADMIN.equals(seen.role())
              ? "admins can remove members, not admins or the owner" : "only the owner and admins can remove members");
        }
        return groups.remove(groupId, userId).compose(after -> {
          if (after == null) {
            return Failures.fail(MessagingErrors.MEMBER_NOT_FOUND, "this user is not a member");
          }
          revoke(groupId, new JsonArray().add(userId));
          removedPush(groupId, userId, "kicked");
          return Future.all(groups.deleteMember(groupId, userId),
              groups.ban(groupId, userId, actor, System.currentTimeMillis())).map(v -> {
            append(MessagingEvents.MEMBER_KICKED, event(after).put("by", actor).put("user", userId));
            toRoom(groupId, changed(groupId, "kicked").put("user", userId).put("by", actor));
            return null;
          });
        });
      });
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
    return asMember(actor, groupId).compose(seen -> {
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
        toRoom(groupId, changed(groupId, "role").put("user", userId).put("role", role).put("by", actor));
        return new JsonObject().put("user", userId).put("role", role)
            .put("joined", member == null ? null : member.getLong("joined"));
      });
    });
  }

  Future<JsonObject> invite(long actor, long groupId, List<Long> users) {
    return Failures.guard(() -> {
      if (users == null || users.isEmpty()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "users", "name 1 to " + Messaging.MAX_INVITEES
            + " users to invite");
      }
      List<Long> invitees = GroupInput.ids(new JsonArray(new ArrayList<>(users)), "users", actor);
      return asMember(actor, groupId).compose(seen -> {
        if (seen.managed()) {
          return Failures.fail(MessagingErrors.GROUP_MANAGED, "members of this group follow its activity");
        }
        return throttle("rl:messaging:invitations:" + actor, 3_600_000L, settings.invitationsPerHour(),
            "invitation requests")
            .compose(v -> friendsOf(actor, invitees, "users"))
            .compose(v -> groups.banned(groupId, invitees))
            .compose(banned -> {
              if (banned.isEmpty()) {
                return Future.<Void>succeededFuture();
              }
              if (!OWNER.equals(seen.role()) && !ADMIN.equals(seen.role())) {
                return Failures.<Void>failField(MessagingErrors.BANNED_FROM_GROUP, "users", "removed from this group "
                    + "(only its owner or an admin can invite them back): " + banned);
              }
              // the owner or an admin inviting a kicked user lifts the ban
              return groups.unban(groupId, new ArrayList<>(banned));
            })
            .compose(v -> {
              long now = System.currentTimeMillis();
              List<Long> outside = invitees.stream().filter(u -> !isMember(seen.doc(), u)).toList();
              List<Future<Boolean>> writes = outside.stream().map(u -> groups.invite(groupId, u, actor, now)).toList();
              return Future.all(writes).map(x -> {
                JsonArray invited = new JsonArray();
                for (int i = 0; i < outside.size(); i++) {
                  if (writes.get(i).result()) {
                    invited.add(outside.get(i));
                  }
                }
                if (!invited.isEmpty()) {
                  append(MessagingEvents.GROUP_INVITED, event(seen.doc()).put("by", actor).put("invited", invited));
                  for (Object u : invited) {
                    long user = ((Number) u).longValue();
                    platform.vertx().eventBus().publish(Addresses.user(user), new JsonObject()
                        .put("kind", Messaging.PUSH_GROUP_INVITED).put("group", view(seen.doc(), null, true))
                        .put("by", actor));
                  }
                }
                return new JsonObject().put("invited", invited);
              });
            });
      });
    });
  }

  Future<JsonObject> members(long actor, long groupId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 50, 100);
      long[] cursor = GroupInput.cursor(q, "after");
      return asMember(actor, groupId).compose(seen -> groups.members(groupId,
          cursor == null ? null : cursor[0], cursor == null ? null : cursor[1], limit + 1).compose(found ->
          // read after the documents: a joiner is in the array before their document is written, so this drops only
          // documents of users no longer in the group (left behind by a race with a kick)
          groups.memberArray(groupId).compose(current -> {
            boolean more = found.size() > limit;
            List<JsonObject> raw = more ? found.subList(0, limit) : found;
            List<JsonObject> page = raw.stream().filter(m -> current.contains(m.getLong("user"))).toList();
            List<Long> ids = page.stream().map(m -> m.getLong("user")).toList();
            Future<JsonObject> summaries = ids.isEmpty() ? Future.succeededFuture(new JsonObject())
                : accounts.summaries(actor, ids);
            return summaries.map(people -> {
              JsonArray items = new JsonArray();
              for (JsonObject m : page) {
                long user = m.getLong("user");
                // a member who joined after the group was read is not in its array yet: their document tells
                String role = roleOf(seen.doc(), m, user);
                items.add(new JsonObject()
                    .put("user", people.getJsonObject(Long.toString(user), new JsonObject().put("id", user)))
                    .put("role", role != null ? role : m.getString("role", MEMBER))
                    .put("joined", m.getLong("joined")));
              }
              JsonObject last = raw.isEmpty() ? null : raw.get(raw.size() - 1);
              return new JsonObject().put("items", items)
                  .put("next", more ? last.getLong("joined") + "_" + last.getLong("user") : null);
            });
          })));
    });
  }

  Future<JsonObject> invitations(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 20, 100);
      long[] cursor = GroupInput.cursor(q, "before");
      return groups.invitations(actor, cursor == null ? null : cursor[0], cursor == null ? null : cursor[1],
          limit + 1).compose(found -> {
            boolean more = found.size() > limit;
            List<JsonObject> page = more ? found.subList(0, limit) : found;
            if (page.isEmpty()) {
              return Future.succeededFuture(new JsonObject().put("items", new JsonArray()).putNull("next"));
            }
            Future<List<JsonObject>> docs = groups.light(page.stream().map(i -> i.getLong("group")).toList());
            Future<JsonObject> people = accounts.summaries(actor,
                page.stream().map(i -> i.getLong("by")).distinct().toList());
            return Future.all(docs, people).map(v -> {
              Map<Long, JsonObject> byId = new HashMap<>();
              docs.result().forEach(d -> byId.put(d.getLong("_id"), d));
              JsonArray items = new JsonArray();
              for (JsonObject inv : page) {
                JsonObject doc = byId.get(inv.getLong("group"));
                if (doc != null) {
                  long by = inv.getLong("by");
                  items.add(new JsonObject().put("group", view(doc, null, true))
                      .put("by", people.result().getJsonObject(Long.toString(by), new JsonObject().put("id", by)))
                      .put("created", inv.getLong("created")));
                }
              }
              JsonObject last = page.get(page.size() - 1);
              return new JsonObject().put("items", items)
                  .put("next", more ? last.getLong("created") + "_" + last.getLong("group") : null);
            });
          });
    });
  }

  Future<Void> decline(long actor, long groupId) {
    return groups.dropInvitation(groupId, actor).map(dropped -> {
      if (dropped) {
        append(MessagingEvents.INVITATION_DECLINED, new JsonObject().put("group", groupId).put("user", actor));
      }
      return null;
    });
  }

  /** Expired invitations one sweep round removes. */
  static final int SWEEP_BATCH = 500;
  /** Rounds one sweep runs at most (the next sweep goes on where it stopped). */
  static final int SWEEP_ROUNDS = 20;

  /**
   * Removes expired invitations, oldest first, in rounds of {@link #SWEEP_BATCH} (at most {@link #SWEEP_ROUNDS}), one
   * after the other, and tells each removal with an {@code InvitationExpired {group, user, expired_at}} event
   * (notifications drops the invitation's notification made before {@code expired_at}: one made for a new invitation
   * is younger). Every node may sweep at once: an invitation is removed only if it is still the one found (not renewed
   * since), so only one sweeper removes it and tells. Answers how many this sweep removed.
   */
  Future<Integer> sweepInvitations() {
    return sweepRound(0, 0);
  }

  private Future<Integer> sweepRound(int round, int removed) {
    return groups.expired(SWEEP_BATCH).compose(found -> {
      Future<Integer> chain = Future.succeededFuture(removed);
      for (JsonObject inv : found) {
        chain = chain.compose(n -> groups.dropExpired(inv).map(dropped -> {
          if (!dropped) {
            return n;
          }
          long expiredAt = inv.getLong("created") + settings.invitationMillis();
          append(MessagingEvents.INVITATION_EXPIRED, new JsonObject().put("group", inv.getLong("group"))
              .put("user", inv.getLong("user")).put("expired_at", expiredAt));
          return n + 1;
        }));
      }
      return chain.compose(n -> found.size() == SWEEP_BATCH && round + 1 < SWEEP_ROUNDS ? sweepRound(round + 1, n)
          : Future.succeededFuture(n));
    });
  }

  // ------------------------------------------------------------------ managed groups

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
      return groups.byRef(ref).compose(found -> {
        if (found != null) {
          return Future.succeededFuture(found);
        }
        long now = System.currentTimeMillis();
        long id = platform.ids().next();
        JsonObject doc = new JsonObject().put("_id", id).put("kind", "group").put("group_kind", MANAGED)
            .put("name", name).put("about", "").put("ref", ref).put("owner", owner)
            .put("members", new JsonArray().add(owner)).put("member_count", 1).put("dissolved", false)
            .put("seq", 0L).put("last_seq", 0L).put("created", now).put("updated", now);
        return groups.insert(doc)
            .compose(v -> groups.putMember(id, owner, OWNER, now, 0))
            .map(v -> {
              added(doc, owner, "managed");
              return doc;
            })
            // the same ref made at once elsewhere: that group is the answer
            .recover(e -> MongoErrors.isDuplicateKey(e) ? groups.byRef(ref) : Future.failedFuture(e));
      }).compose(doc -> conversations.member(doc.getLong("_id"), owner)
          .map(m -> view(doc, roleOf(doc, m, owner), false)));
    });
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
      return groups.byId(groupId <= 0 ? -1 : groupId).compose(doc -> {
        if (doc == null || doc.getBoolean("dissolved", false) || !MANAGED.equals(doc.getString("group_kind"))) {
          return notFound();
        }
        if (doc.getLong("owner", 0L) != owner) {
          return Failures.fail(MessagingErrors.GROUP_PERMISSION_DENIED, "only the group's owner changes its members");
        }
        long now = System.currentTimeMillis();
        List<Future<Long>> added = new ArrayList<>();
        for (long user : adds) {
          added.add(groups.add(groupId, user, null, now).compose(after -> after == null
              ? Future.succeededFuture((Long) null)
              : putMember(groupId, user, user == owner ? OWNER : MEMBER, now, after.getLong("last_seq", 0L))
                  .map(in -> {
                    if (!in) {
                      // removed by a concurrent setManagedMembers: that removal wins
                      return null;
                    }
                    added(after, user, "managed");
                    toRoom(groupId, changed(groupId, "joined").put("user", user));
                    return user;
                  })));
        }
        List<Future<JsonObject>> removed = new ArrayList<>();
        for (long user : removes) {
          removed.add(groups.remove(groupId, user));
        }
        return Future.all(removed).compose(v -> {
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
          revoke(groupId, lost);
          for (Object u : lost) {
            long user = ((Number) u).longValue();
            removedPush(groupId, user, "removed");
            toRoom(groupId, changed(groupId, "left").put("user", user));
          }
          return Future.all(cleanup).map(x -> {
            for (Object u : lost) {
              append(MessagingEvents.GROUP_LEFT, event(doc).put("user", ((Number) u).longValue()));
            }
            return null;
          });
        }).compose(v -> Future.all(added)).mapEmpty();
      });
    });
  }

  // ------------------------------------------------------------------ notices

  /** Announces that these users lost the group's room; the bridges stop delivering it to them at once. */
  private void revoke(long groupId, JsonArray users) {
    if (!users.isEmpty()) {
      platform.vertx().eventBus().publish(Addresses.ROOMS_REVOKED, new JsonObject()
          .put("room", Messaging.groupRoom(groupId)).put("users", users.copy()));
    }
  }

  private void removedPush(long groupId, long user, String reason) {
    platform.vertx().eventBus().publish(Addresses.user(user), new JsonObject().put("kind", Messaging.PUSH_GROUP_REMOVED)
        .put("group", groupId).put("reason", reason));
  }

  /** A user became a member: their connections are told (to register on the room) and GroupJoined is appended. */
  private void added(JsonObject doc, long user, String via) {
    platform.vertx().eventBus().publish(Addresses.user(user), new JsonObject().put("kind", Messaging.PUSH_GROUP_ADDED)
        .put("group", view(doc, doc.getLong("owner", 0L) == user ? OWNER : MEMBER, false)).put("via", via));
    append(MessagingEvents.GROUP_JOINED, event(doc).put("user", user).put("via", via));
  }

  private void toRoom(long groupId, JsonObject push) {
    platform.vertx().eventBus().publish(Addresses.room(Messaging.groupRoom(groupId)), push);
  }

  private static JsonObject changed(long groupId, String change) {
    return new JsonObject().put("kind", Messaging.PUSH_GROUP_CHANGED).put("group", groupId).put("change", change);
  }

  /** The members every group event starts with. */
  private static JsonObject event(JsonObject doc) {
    return new JsonObject().put("group", doc.getLong("_id")).put("name", doc.getString("name"))
        .put("kind", doc.getString("group_kind"));
  }

  private void append(String type, JsonObject payload) {
    platform.events().append(MessagingEvents.DOMAIN, type, payload)
        .onFailure(e -> LOG.error("{} of group {} is stored but could not be appended: {}", type,
            payload.getLong("group"), e.getMessage()));
  }

  // ------------------------------------------------------------------ checks

  private Future<Void> throttle(String key, long windowMillis, int max, String what) {
    String per = windowMillis == 60_000L ? " per minute" : " per hour";
    return limiter.enforce(key, windowMillis, max, "too many " + what + "; at most " + max + per);
  }

  /** Counts a join or leave of {@code actor}: {@code rate_limited} past {@code group-joins-per-minute}. */
  private Future<Void> throttleJoins(long actor) {
    return throttle("rl:messaging:joins:" + actor, 60_000L, settings.groupJoinsPerMinute(), "group joins and leaves");
  }

  /** Fails with {@code not_friends} naming {@code field} unless every user is the actor's friend. */
  private Future<Void> friendsOf(long actor, List<Long> users, String field) {
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
