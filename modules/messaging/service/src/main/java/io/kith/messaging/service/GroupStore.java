package io.kith.messaging.service;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;

/**
 * Groups in MongoDB. A group is a conversation ({@value ConversationStore#CONVERSATIONS}) of kind {@code "group"}:
 * {@code {_id, kind: "group", group_kind: "topic" | "friends" | "managed", name, topic?, about, keywords: [lower-case
 * words of name and topic], owner, members: [ids], member_count, ref? (managed), dissolved, dissolved_at?, seq,
 * last_seq, last_message, created, updated}}. The {@code members} array and {@code member_count} change together in
 * one conditional update, so the member cap holds under concurrent joins and the membership check of a send is
 * atomic with a kick. Each member also has a member document ({@value ConversationStore#MEMBERS}: {@code {_id:
 * "<group>:<user>", conversation, user, role, joined, read_seq, updated}}) for roles, read markers and the
 * conversations list. Invitations: {@value #INVITATIONS} {@code {_id: "<group>:<user>", group, user, by, created}};
 * one older than the invitation lifetime is expired: every read here ignores it, a new invitation replaces it, and
 * {@link #expired} and {@link #dropExpired} let the sweep remove it.
 */
final class GroupStore {

  static final String INVITATIONS = "messaging_invitations";
  static final String BANS = "messaging_group_bans";
  private static final String CONVERSATIONS = ConversationStore.CONVERSATIONS;
  private static final String MEMBERS = ConversationStore.MEMBERS;
  /** What group lists and views read of a group document (the members array can be long). */
  private static final JsonObject LIGHT = new JsonObject().put("members", 0).put("last_message", 0)
      .put("keywords", 0);

  private final MongoClient mongo;
  private final long invitationMillis;

  /** A store whose invitations expire {@code invitationMillis} after they were made. */
  GroupStore(MongoClient mongo, long invitationMillis) {
    this.mongo = mongo;
    this.invitationMillis = invitationMillis;
  }

  /** The creation time below which an invitation has expired. */
  private long validSince() {
    return System.currentTimeMillis() - invitationMillis;
  }

  private JsonObject valid() {
    return new JsonObject().put("$gte", validSince());
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(CONVERSATIONS, new JsonObject().put("ref", 1),
            new IndexOptions().name("ref_unique").unique(true).sparse(true))
        .compose(v -> mongo.createIndexWithOptions(CONVERSATIONS, new JsonObject().put("keywords", 1),
            new IndexOptions().name("group_keywords").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(MEMBERS,
            new JsonObject().put("conversation", 1).put("joined", 1).put("user", 1),
            new IndexOptions().name("conversation_joined")))
        .compose(v -> mongo.createIndexWithOptions(INVITATIONS,
            new JsonObject().put("user", 1).put("created", -1).put("group", -1),
            new IndexOptions().name("user_recent")))
        .compose(v -> mongo.createIndexWithOptions(INVITATIONS, new JsonObject().put("group", 1),
            new IndexOptions().name("group")))
        .compose(v -> mongo.createIndexWithOptions(INVITATIONS, new JsonObject().put("created", 1),
            new IndexOptions().name("created")))
        .compose(v -> mongo.createIndexWithOptions(BANS, new JsonObject().put("group", 1),
            new IndexOptions().name("group")));
  }

  private static JsonObject id(long group) {
    return new JsonObject().put("_id", group).put("kind", "group");
  }

  private static JsonObject live(long group) {
    return id(group).put("dissolved", new JsonObject().put("$ne", true));
  }

  Future<Void> insert(JsonObject group) {
    return mongo.insert(CONVERSATIONS, group).mapEmpty();
  }

  /** A group document (dissolved or not), or null. */
  Future<JsonObject> byId(long group) {
    return mongo.findOne(CONVERSATIONS, id(group), null);
  }

  /** The managed group of {@code ref}, or null. */
  Future<JsonObject> byRef(String ref) {
    return mongo.findOne(CONVERSATIONS, new JsonObject().put("ref", ref).put("kind", "group"), null);
  }

  /** Whether {@code user} is a member of the live group now. */
  Future<Boolean> isMember(long group, long user) {
    return mongo.findOne(CONVERSATIONS, live(group).put("members", user), new JsonObject().put("_id", 1))
        .map(doc -> doc != null);
  }

  /** Which of these groups (live) have {@code user} in their {@code members} now. */
  Future<java.util.Set<Long>> memberOf(long user, List<Long> groups) {
    return mongo.findWithOptions(CONVERSATIONS, new JsonObject().put("_id", new JsonObject()
            .put("$in", new JsonArray(groups))).put("kind", "group").put("dissolved", new JsonObject().put("$ne", true))
            .put("members", user), new FindOptions().setFields(new JsonObject().put("_id", 1)))
        .map(found -> {
          java.util.Set<Long> out = new java.util.HashSet<>();
          found.forEach(d -> out.add(d.getLong("_id")));
          return out;
        });
  }

  /** The {@code members} array of a live group now (empty when it is gone). */
  Future<JsonArray> memberArray(long group) {
    return mongo.findOne(CONVERSATIONS, live(group), new JsonObject().put("members", 1))
        .map(doc -> doc == null ? new JsonArray() : doc.getJsonArray("members", new JsonArray()));
  }

  /**
   * Adds {@code user} unless the group is dissolved, the user is a member already, or (when {@code cap} is not null)
   * it has {@code cap} members: one conditional update, so concurrent joins never pass the cap. Answers the group
   * after, or null when nothing changed.
   */
  Future<JsonObject> add(long group, long user, Integer cap, long now) {
    JsonObject query = live(group).put("members", new JsonObject().put("$ne", user));
    if (cap != null) {
      query.put("member_count", new JsonObject().put("$lt", cap));
    }
    return mongo.findOneAndUpdateWithOptions(CONVERSATIONS, query, new JsonObject()
            .put("$push", new JsonObject().put("members", user))
            .put("$inc", new JsonObject().put("member_count", 1))
            .put("$max", new JsonObject().put("updated", now)),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /** Removes {@code user} if a member; answers the group after, or null when the user was not a member. */
  Future<JsonObject> remove(long group, long user) {
    return mongo.findOneAndUpdateWithOptions(CONVERSATIONS, id(group).put("members", user), new JsonObject()
            .put("$pull", new JsonObject().put("members", user))
            .put("$inc", new JsonObject().put("member_count", -1)),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * Writes a member's document: the role always, the join time and read marker only when it is new (a join retried
   * after a crash between the two writes repairs the document without resetting it).
   */
  Future<Void> putMember(long group, long user, String role, long joined, long readSeq) {
    JsonObject update = new JsonObject()
        .put("$set", new JsonObject().put("role", role))
        .put("$setOnInsert", new JsonObject().put("conversation", group).put("user", user).put("joined", joined)
            .put("read_seq", readSeq).put("updated", joined));
    return mongo.updateCollectionWithOptions(MEMBERS,
        new JsonObject().put("_id", ConversationStore.memberId(group, user)), update,
        new UpdateOptions().setUpsert(true)).mapEmpty();
  }

  Future<Void> setRole(long group, long user, String role) {
    return mongo.updateCollection(MEMBERS, new JsonObject().put("_id", ConversationStore.memberId(group, user)),
        new JsonObject().put("$set", new JsonObject().put("role", role))).mapEmpty();
  }

  Future<Void> deleteMember(long group, long user) {
    return mongo.removeDocument(MEMBERS, new JsonObject().put("_id", ConversationStore.memberId(group, user)))
        .mapEmpty();
  }

  /** Deletes every member document of a group. */
  Future<Void> deleteMembers(long group) {
    return mongo.removeDocuments(MEMBERS, new JsonObject().put("conversation", group)).mapEmpty();
  }

  /** The member documents of {@code user} in these groups. */
  Future<List<JsonObject>> memberships(long user, List<Long> groups) {
    JsonArray ids = new JsonArray();
    groups.forEach(g -> ids.add(ConversationStore.memberId(g, user)));
    return mongo.find(MEMBERS, new JsonObject().put("_id", new JsonObject().put("$in", ids)));
  }

  /** A page of a group's member documents, oldest member first, after the cursor {@code (joined, user)}. */
  Future<List<JsonObject>> members(long group, Long afterJoined, Long afterUser, int limit) {
    JsonObject query = new JsonObject().put("conversation", group);
    if (afterJoined != null) {
      query.put("$or", new JsonArray()
          .add(new JsonObject().put("joined", new JsonObject().put("$gt", afterJoined)))
          .add(new JsonObject().put("joined", afterJoined).put("user", new JsonObject().put("$gt", afterUser))));
    }
    return mongo.findWithOptions(MEMBERS, query, new FindOptions()
        .setSort(new JsonObject().put("joined", 1).put("user", 1)).setLimit(limit));
  }

  /**
   * Who takes over a group its owner left: the oldest admin, else the oldest member, among {@code members} (the
   * group's array: a member document left behind by a race with a kick never counts); null when nobody is left.
   */
  Future<JsonObject> successor(long group, JsonArray members) {
    if (members.isEmpty()) {
      return Future.succeededFuture(null);
    }
    FindOptions oldest = new FindOptions().setSort(new JsonObject().put("joined", 1).put("user", 1)).setLimit(1);
    JsonObject in = new JsonObject().put("$in", members.copy());
    return mongo.findWithOptions(MEMBERS, new JsonObject().put("conversation", group).put("user", in)
            .put("role", "admin"), oldest)
        .compose(admins -> !admins.isEmpty() ? Future.succeededFuture(admins.get(0))
            : mongo.findWithOptions(MEMBERS, new JsonObject().put("conversation", group).put("user", in), oldest)
                .map(all -> all.isEmpty() ? null : all.get(0)));
  }

  /** Makes {@code to} the owner if {@code from} still is and {@code to} is a member; answers whether it did. */
  Future<Boolean> handOver(long group, long from, long to) {
    return mongo.updateCollection(CONVERSATIONS, live(group).put("owner", from).put("members", to),
        new JsonObject().put("$set", new JsonObject().put("owner", to))).map(r -> r.getDocModified() == 1);
  }

  /** Sets members of a live group; answers it after, or null when it is gone. */
  Future<JsonObject> update(long group, JsonObject set) {
    return mongo.findOneAndUpdateWithOptions(CONVERSATIONS, live(group), new JsonObject().put("$set", set),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /** Marks a live group removed by a moderator (before it is dissolved); the group after, or null if not live. */
  Future<JsonObject> markRemoved(long group, JsonObject removal) {
    return update(group, new JsonObject().put("removed", removal));
  }

  /**
   * Marks a live group dissolved and empties it, when {@code owner} (if not null) still owns it; answers the group as
   * it was before (with its members), or null when nothing changed.
   */
  Future<JsonObject> dissolve(long group, Long owner, long now) {
    JsonObject query = live(group);
    if (owner != null) {
      query.put("owner", owner);
    }
    return mongo.findOneAndUpdateWithOptions(CONVERSATIONS, query, new JsonObject().put("$set", new JsonObject()
            .put("dissolved", true).put("dissolved_at", now).put("members", new JsonArray()).put("member_count", 0)),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(false));
  }

  /**
   * A page of live topic groups whose keywords include a word starting with each of {@code words} (lower case,
   * letters and digits only), newest first, below the id {@code before} when not null.
   */
  Future<List<JsonObject>> search(List<String> words, Long before, int limit) {
    JsonObject query = new JsonObject().put("kind", "group").put("group_kind", "topic")
        .put("dissolved", new JsonObject().put("$ne", true));
    JsonArray all = new JsonArray();
    // words hold letters and digits only: nothing in them is a regular-expression operator
    words.forEach(w -> all.add(new JsonObject().put("keywords", new JsonObject().put("$regex", "^" + w))));
    query.put("$and", all);
    if (before != null) {
      query.put("_id", new JsonObject().put("$lt", before));
    }
    return mongo.findWithOptions(CONVERSATIONS, query, new FindOptions().setFields(LIGHT)
        .setSort(new JsonObject().put("_id", -1)).setLimit(limit));
  }

  /** Live groups by id, without their member arrays. */
  Future<List<JsonObject>> light(List<Long> groups) {
    return mongo.findWithOptions(CONVERSATIONS, new JsonObject().put("_id", new JsonObject()
        .put("$in", new JsonArray(groups))).put("kind", "group").put("dissolved", new JsonObject().put("$ne", true)),
        new FindOptions().setFields(LIGHT));
  }

  // ------------------------------------------------------------------ bans

  /** Records that {@code user} was kicked from {@code group} by {@code by} (one document per group and user). */
  Future<Void> ban(long group, long user, long by, long now) {
    JsonObject doc = new JsonObject().put("_id", ConversationStore.memberId(group, user)).put("group", group)
        .put("user", user).put("by", by).put("created", now);
    // banned already (a kick racing another): the first ban stays
    return mongo.insert(BANS, doc).<Void>mapEmpty()
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture() : Future.failedFuture(e));
  }

  /** Which of these users are banned from {@code group}. */
  Future<java.util.Set<Long>> banned(long group, List<Long> users) {
    JsonArray ids = new JsonArray();
    users.forEach(u -> ids.add(ConversationStore.memberId(group, u)));
    return mongo.find(BANS, new JsonObject().put("_id", new JsonObject().put("$in", ids))).map(found -> {
      java.util.Set<Long> out = new java.util.HashSet<>();
      found.forEach(d -> out.add(d.getLong("user")));
      return out;
    });
  }

  Future<Void> unban(long group, List<Long> users) {
    JsonArray ids = new JsonArray();
    users.forEach(u -> ids.add(ConversationStore.memberId(group, u)));
    return mongo.removeDocuments(BANS, new JsonObject().put("_id", new JsonObject().put("$in", ids))).mapEmpty();
  }

  Future<Void> dropBans(long group) {
    return mongo.removeDocuments(BANS, new JsonObject().put("group", group)).mapEmpty();
  }

  // ------------------------------------------------------------------ invitations

  /**
   * Records a pending invitation; answers false when a valid one was pending already. An expired one is replaced (by
   * a conditional update, so of two concurrent replacements one answers true).
   */
  Future<Boolean> invite(long group, long user, long by, long now) {
    return invite(group, user, by, now, 2);
  }

  // an expired invitation the sweep removes between the refused insert and the update: the insert is tried again
  private Future<Boolean> invite(long group, long user, long by, long now, int attempts) {
    String id = ConversationStore.memberId(group, user);
    JsonObject doc = new JsonObject().put("_id", id).put("group", group).put("user", user).put("by", by)
        .put("created", now);
    return mongo.insert(INVITATIONS, doc).map(x -> true).recover(e -> !MongoErrors.isDuplicateKey(e)
        ? Future.failedFuture(e)
        : mongo.updateCollection(INVITATIONS,
                new JsonObject().put("_id", id).put("created", new JsonObject().put("$lt", now - invitationMillis)),
                new JsonObject().put("$set", new JsonObject().put("by", by).put("created", now)))
            .compose(r -> r != null && r.getDocModified() > 0 ? Future.succeededFuture(true)
                : attempts > 1 ? invitation(group, user).compose(valid -> valid != null ? Future.succeededFuture(false)
                    : invite(group, user, by, now, attempts - 1))
                : Future.succeededFuture(false)));
  }

  /** The valid pending invitation of {@code user} to {@code group}, or null. */
  Future<JsonObject> invitation(long group, long user) {
    return mongo.findOne(INVITATIONS, new JsonObject().put("_id", ConversationStore.memberId(group, user))
        .put("created", valid()), null);
  }

  /** The valid invitations of {@code user} to these groups. */
  Future<List<JsonObject>> invitationsTo(long user, List<Long> groups) {
    JsonArray ids = new JsonArray();
    groups.forEach(g -> ids.add(ConversationStore.memberId(g, user)));
    return mongo.find(INVITATIONS, new JsonObject().put("_id", new JsonObject().put("$in", ids))
        .put("created", valid()));
  }

  /** Up to {@code limit} expired invitations, oldest first: {@code {_id, group, user, created}}. */
  Future<List<JsonObject>> expired(int limit) {
    JsonObject expired = new JsonObject().put("created", new JsonObject().put("$lt", validSince()));
    return mongo.findWithOptions(INVITATIONS, expired, new FindOptions().setSort(new JsonObject().put("created", 1))
        .setLimit(limit).setFields(new JsonObject().put("group", 1).put("user", 1).put("created", 1)));
  }

  /**
   * Removes an invitation found expired, unless it was renewed since (its {@code created} changed); answers whether
   * it was removed.
   */
  Future<Boolean> dropExpired(JsonObject invitation) {
    return mongo.removeDocument(INVITATIONS, new JsonObject().put("_id", invitation.getString("_id"))
            .put("created", invitation.getLong("created")))
        .map(r -> r != null && r.getRemovedCount() > 0);
  }

  /** Removes the user's invitation to the group; answers whether there was one. */
  Future<Boolean> dropInvitation(long group, long user) {
    return mongo.removeDocument(INVITATIONS, new JsonObject().put("_id", ConversationStore.memberId(group, user)))
        .map(r -> r != null && r.getRemovedCount() > 0);
  }

  Future<Void> dropInvitations(long group) {
    return mongo.removeDocuments(INVITATIONS, new JsonObject().put("group", group)).mapEmpty();
  }

  /** A page of a user's valid pending invitations, newest first, after the cursor {@code (created, group)}. */
  Future<List<JsonObject>> invitations(long user, Long beforeCreated, Long beforeGroup, int limit) {
    JsonObject query = new JsonObject().put("user", user).put("created", valid());
    if (beforeCreated != null) {
      query.put("$or", new JsonArray()
          .add(new JsonObject().put("created", new JsonObject().put("$lt", beforeCreated)))
          .add(new JsonObject().put("created", beforeCreated)
              .put("group", new JsonObject().put("$lt", beforeGroup))));
    }
    return mongo.findWithOptions(INVITATIONS, query, new FindOptions()
        .setSort(new JsonObject().put("created", -1).put("group", -1)).setLimit(limit));
  }
}
