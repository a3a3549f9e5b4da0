package io.kith.messaging.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.MongoClientDeleteResult;
import io.vertx.ext.mongo.MongoClientUpdateResult;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;

/**
 * The queries by user across the messaging collections that an account's erasure ({@link Erasure}) and export
 * ({@link Export}) run: pages by {@code _id} after a cursor (never offsets), and deletes by user id whose counts the
 * erasure report records.
 */
final class AccountDataStore {

  private static final String CONVERSATIONS = ConversationStore.CONVERSATIONS;
  private static final String MEMBERS = ConversationStore.MEMBERS;
  private static final String MESSAGES = MessageStore.MESSAGES;
  private static final String BOARDS = WhiteboardStore.BOARDS;
  private static final JsonObject ID_ONLY = new JsonObject().put("_id", 1);

  private final MongoClient mongo;

  AccountDataStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  // ------------------------------------------------------------------ pages by _id

  private Future<List<JsonObject>> page(String collection, JsonObject query, Object after, int limit,
                                        JsonObject fields) {
    if (after != null) {
      query.put("_id", new JsonObject().put("$gt", after));
    }
    FindOptions options = new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit);
    return mongo.findWithOptions(collection, query, fields == null ? options : options.setFields(fields));
  }

  private Future<List<Long>> ids(String collection, JsonObject query, Long after, int limit) {
    return page(collection, query, after, limit, ID_ONLY)
        .map(docs -> docs.stream().map(d -> d.getLong("_id")).toList());
  }

  private static JsonObject liveGroupsOf(long user) {
    return new JsonObject().put("kind", "group").put("members", user).put("dissolved", new JsonObject().put("$ne", true));
  }

  /** Ids of the live managed groups {@code user} owns (member or not), after {@code after}. */
  Future<List<Long>> ownedManagedGroups(long user, Long after, int limit) {
    return ids(CONVERSATIONS, new JsonObject().put("kind", "group").put("group_kind", "managed").put("owner", user)
        .put("dissolved", new JsonObject().put("$ne", true)), after, limit);
  }

  /** Ids of the boards {@code user} owns, after {@code after}. */
  Future<List<Long>> ownedBoards(long user, Long after, int limit) {
    return ids(BOARDS, new JsonObject().put("owner", user), after, limit);
  }

  /** Ids of the ad-hoc boards of others that {@code user} is a member of, after {@code after}. */
  Future<List<Long>> memberBoards(long user, Long after, int limit) {
    return ids(BOARDS, new JsonObject().put("kind", WhiteboardServiceImpl.ADHOC).put("members", user)
        .put("owner", new JsonObject().put("$ne", user)), after, limit);
  }

  /** Boards {@code user} owns or is a member of (ad hoc), after {@code after}. */
  Future<List<JsonObject>> boards(long user, Long after, int limit) {
    return page(BOARDS, new JsonObject().put("$or", new JsonArray().add(new JsonObject().put("owner", user))
        .add(new JsonObject().put("members", user))), after, limit, null);
  }

  /** Ids of the live groups {@code user} is a member of, after {@code after}. */
  Future<List<Long>> groups(long user, Long after, int limit) {
    return ids(CONVERSATIONS, liveGroupsOf(user), after, limit);
  }

  /** The live groups {@code user} is a member of, after {@code after}, without their long arrays. */
  Future<List<JsonObject>> groupDocs(long user, Long after, int limit) {
    return page(CONVERSATIONS, liveGroupsOf(user), after, limit,
        new JsonObject().put("last_message", 0).put("keywords", 0));
  }

  /** {@code user}'s member documents (direct and group), by their ids {@code "<conversation>:<user>"}. */
  Future<List<JsonObject>> memberDocs(long user, String after, int limit) {
    return page(MEMBERS, new JsonObject().put("user", user), after, limit, null);
  }

  /**
   * Messages {@code user} sent anywhere or that are in one of {@code conversations} (theirs: what they could read),
   * after {@code after}.
   */
  Future<List<JsonObject>> messages(long user, List<Long> conversations, Long after, int limit) {
    JsonObject query = new JsonObject().put("$or", new JsonArray().add(new JsonObject().put("sender", user))
        .add(new JsonObject().put("conversation", new JsonObject().put("$in", new JsonArray(conversations)))));
    return page(MESSAGES, query, after, limit, null);
  }

  /** The conversations {@code user} is a member of now (the conversations' {@code members} arrays decide). */
  Future<List<Long>> conversationsOf(long user) {
    return mongo.findWithOptions(CONVERSATIONS, new JsonObject().put("members", user),
            new FindOptions().setFields(ID_ONLY))
        .map(docs -> docs.stream().map(d -> d.getLong("_id")).toList());
  }

  // ------------------------------------------------------------------ erasure

  /**
   * Recounts a live group's {@code member_count} from its {@code members} array: set only while the array is still
   * the one counted, so a join or leave in between (which moves both together) is never overwritten.
   */
  Future<Void> recount(long group) {
    return mongo.findOne(CONVERSATIONS, new JsonObject().put("_id", group).put("kind", "group")
            .put("dissolved", new JsonObject().put("$ne", true)), new JsonObject().put("members", 1))
        .compose(doc -> doc == null ? Future.succeededFuture()
            : mongo.updateCollection(CONVERSATIONS, new JsonObject().put("_id", group)
                    .put("members", doc.getJsonArray("members", new JsonArray())),
                new JsonObject().put("$set", new JsonObject().put("member_count",
                    doc.getJsonArray("members", new JsonArray()).size()))).mapEmpty());
  }

  /** Dissolved groups {@code user} owned name nobody as their owner any more; answers how many. */
  Future<Long> releaseDissolved(long user) {
    return mongo.updateCollectionWithOptions(CONVERSATIONS, new JsonObject().put("kind", "group")
            .put("dissolved", true).put("owner", user), new JsonObject().put("$set", new JsonObject().put("owner", 0L)),
        new UpdateOptions().setMulti(true)).map(AccountDataStore::modified);
  }

  /** Invitations to {@code user} and those {@code user} made; answers how many went. */
  Future<Long> dropInvitations(long user) {
    return mongo.removeDocuments(GroupStore.INVITATIONS, new JsonObject().put("$or", new JsonArray()
        .add(new JsonObject().put("user", user)).add(new JsonObject().put("by", user)))).map(AccountDataStore::removed);
  }

  /**
   * Bans of {@code user} go (the groups they were kicked from are theirs no more); bans {@code user} made stay, as
   * they protect the group, without naming who made them. Answers how many bans of the user went.
   */
  Future<Long> dropBans(long user) {
    return mongo.removeDocuments(GroupStore.BANS, new JsonObject().put("user", user)).map(AccountDataStore::removed)
        .compose(n -> mongo.updateCollectionWithOptions(GroupStore.BANS, new JsonObject().put("by", user),
            new JsonObject().put("$unset", new JsonObject().put("by", "")), new UpdateOptions().setMulti(true))
            .map(n));
  }

  /** The conversations holding messages {@code user} sent. */
  Future<List<Long>> sentIn(long user) {
    return mongo.distinctWithQuery(MESSAGES, "conversation", Long.class.getName(), new JsonObject().put("sender", user))
        .map(ids -> ids.stream().map(id -> ((Number) id).longValue()).toList());
  }

  /** Deletes every message {@code user} sent; answers how many. */
  Future<Long> deleteSent(long user) {
    return mongo.removeDocuments(MESSAGES, new JsonObject().put("sender", user)).map(AccountDataStore::removed);
  }

  /** The conversations whose last message is one {@code user} sent. */
  Future<List<Long>> lastFrom(long user) {
    return mongo.findWithOptions(CONVERSATIONS, new JsonObject().put("last_message.sender", user),
            new FindOptions().setFields(ID_ONLY))
        .map(docs -> docs.stream().map(d -> d.getLong("_id")).toList());
  }

  /**
   * Replaces a conversation's last message when it is still one {@code user} sent, by {@code view} (the newest left),
   * or removes it when there is none.
   */
  Future<Void> replaceLastFrom(long conversation, long user, JsonObject view) {
    JsonObject update = view == null ? new JsonObject().put("$unset", new JsonObject().put("last_message", ""))
        : new JsonObject().put("$set", new JsonObject().put("last_message", view));
    return mongo.updateCollection(CONVERSATIONS, new JsonObject().put("_id", conversation)
        .put("last_message.sender", user), update).mapEmpty();
  }

  /**
   * Marks {@code user} erased in their direct conversations (the peer's view shows a deleted user); a conversation
   * whose both users are erased goes. Answers how many direct conversations {@code user} had.
   */
  Future<Long> markErased(long user) {
    JsonObject direct = new JsonObject().put("kind", "direct").put("members", user);
    return mongo.updateCollectionWithOptions(CONVERSATIONS, direct.copy(),
            new JsonObject().put("$addToSet", new JsonObject().put("erased", user)), new UpdateOptions().setMulti(true))
        .compose(r -> mongo.removeDocuments(CONVERSATIONS, direct.copy()
                .put("erased.1", new JsonObject().put("$exists", true)))
            .map(x -> r == null ? 0L : r.getDocMatched()));
  }

  /** Deletes every member document of {@code user}; answers how many. */
  Future<Long> deleteMemberDocs(long user) {
    return mongo.removeDocuments(MEMBERS, new JsonObject().put("user", user)).map(AccountDataStore::removed);
  }

  /** Deletes {@code user}'s messaging settings; answers how many documents (0 or 1). */
  Future<Long> deleteSettings(long user) {
    return mongo.removeDocuments(ConversationStore.SETTINGS, new JsonObject().put("user", user))
        .map(AccountDataStore::removed);
  }

  private static long removed(MongoClientDeleteResult r) {
    return r == null ? 0L : r.getRemovedCount();
  }

  private static long modified(MongoClientUpdateResult r) {
    return r == null ? 0L : r.getDocModified();
  }
}
