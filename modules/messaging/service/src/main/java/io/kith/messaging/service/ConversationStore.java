package io.kith.messaging.service;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.BulkOperation;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Conversations, their members (one document per member: read marker and last activity, for the conversations list)
 * and users' messaging settings, in MongoDB.
 *
 * <p>A conversation {@code {_id, kind: "direct", pair: "<low>:<high>", members: [ids], seq (the highest sequence
 * given out: direct sends take theirs from {@link DirectCommits}, and each batch raises it with {@code $max}),
 * last_seq (highest stored), last_message, members_pending?, created, updated}}; a member {@code {_id:
 * "<conversation>:<user>", conversation, user, peer, read_seq, updated}}; settings {@code {user (unique),
 * messages_from, read_receipts}}. Groups are conversations too, with more fields and roles on their member
 * documents, and reserve each sequence with an atomic {@code $inc} ({@link #reserveSeq}): see {@link GroupStore}.
 *
 * <p>Not final: a test puts a fault into {@link #makeMember} to stop a first send between its two writes.
 */
class ConversationStore {

  static final String CONVERSATIONS = "messaging_conversations";
  static final String MEMBERS = "messaging_members";
  static final String SETTINGS = "messaging_settings";
  /**
   * Set on a direct conversation when it is inserted, until one of its messages is recorded: while it is there the
   * member documents may be missing (the first send stopped between the two writes), and whoever finds the
   * conversation makes them again.
   */
  static final String MEMBERS_PENDING = "members_pending";

  private final MongoClient mongo;

  ConversationStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(CONVERSATIONS, new JsonObject().put("pair", 1),
            new IndexOptions().name("pair_unique").unique(true).sparse(true))
        .compose(v -> mongo.createIndexWithOptions(MEMBERS,
            new JsonObject().put("user", 1).put("updated", -1).put("conversation", -1),
            new IndexOptions().name("user_recent")))
        .compose(v -> mongo.createIndexWithOptions(SETTINGS, new JsonObject().put("user", 1),
            new IndexOptions().name("user_unique").unique(true)));
  }

  static String pair(long a, long b) {
    return Math.min(a, b) + ":" + Math.max(a, b);
  }

  static String memberId(long conversation, long user) {
    return conversation + ":" + user;
  }

  /** The direct conversation of two users, or null. */
  Future<JsonObject> findDirect(long a, long b) {
    return mongo.findOne(CONVERSATIONS, new JsonObject().put("pair", pair(a, b)), null);
  }

  /**
   * The direct conversation of two users, made with id {@code newId} (and both member documents) when there is none.
   * Two first messages racing meet at the unique pair index: the loser reads the winner's conversation. A conversation
   * found with {@link #MEMBERS_PENDING} gets its member documents made (again), so a first send that stopped after the
   * insert is repaired by the next send of either user, on any node.
   */
  Future<JsonObject> directOf(long a, long b, long newId, long now) {
    return findDirect(a, b).compose(found -> {
      if (found != null) {
        return withMembers(found);
      }
      JsonObject doc = new JsonObject().put("_id", newId).put("kind", "direct").put("pair", pair(a, b))
          .put("members", new JsonArray().add(a).add(b)).put("seq", 0L).put("last_seq", 0L)
          .put(MEMBERS_PENDING, true).put("created", now).put("updated", now);
      return mongo.insert(CONVERSATIONS, doc).map(id -> doc)
          .recover(e -> MongoErrors.isDuplicateKey(e) ? findDirect(a, b) : Future.failedFuture(e))
          .compose(this::withMembers);
    });
  }

  /** The conversation, after making its member documents if they may be missing ({@link #MEMBERS_PENDING}). */
  private Future<JsonObject> withMembers(JsonObject conv) {
    if (conv == null || !conv.getBoolean(MEMBERS_PENDING, false)) {
      return Future.succeededFuture(conv);
    }
    long id = conv.getLong("_id");
    long a = conv.getJsonArray("members").getLong(0);
    long b = conv.getJsonArray("members").getLong(1);
    long created = conv.getLong("created");
    return Future.all(makeMember(id, a, b, created), makeMember(id, b, a, created)).map(v -> conv);
  }

  /**
   * Makes a direct conversation's member document unless it is there (an upsert that changes nothing on a second run;
   * two nodes making it at once may meet at its {@code _id}, which is as good as made).
   */
  Future<Void> makeMember(long conversation, long user, long peer, long now) {
    JsonObject update = new JsonObject().put("$setOnInsert", new JsonObject().put("conversation", conversation)
        .put("user", user).put("peer", peer).put("read_seq", 0L).put("updated", now));
    return mongo.updateCollectionWithOptions(MEMBERS, new JsonObject().put("_id", memberId(conversation, user)), update,
            new UpdateOptions().setUpsert(true)).<Void>mapEmpty()
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture() : Future.failedFuture(e));
  }

  Future<JsonObject> byId(long conversation) {
    return mongo.findOne(CONVERSATIONS, new JsonObject().put("_id", conversation), null);
  }

  /**
   * Reserves the next sequence of a group (atomic increment) and answers the conversation after it (its {@code seq}
   * is the reserved one); direct sends reserve nothing ({@link DirectCommits}). With {@code member} not null the
   * reservation is made only while that user is a member of the live conversation (a group): null when not, so a
   * send cannot slip in after a kick.
   */
  Future<JsonObject> reserveSeq(long conversation, Long member) {
    JsonObject query = new JsonObject().put("_id", conversation);
    if (member != null) {
      query.put("members", member).put("dissolved", new JsonObject().put("$ne", true));
    }
    return mongo.findOneAndUpdateWithOptions(CONVERSATIONS, query,
        new JsonObject().put("$inc", new JsonObject().put("seq", 1L)), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * Gives back sequence {@code seq} of a group when it is still the last one reserved (its message was not stored: a
   * retry met the stored first attempt), so that it leaves no hole; a later reservation keeps it a hole. Direct sends
   * have nothing to give back: a refused one takes its sequence again in the next batch.
   */
  Future<Void> releaseSeq(long conversation, long seq) {
    return mongo.updateCollection(CONVERSATIONS, new JsonObject().put("_id", conversation).put("seq", seq),
        new JsonObject().put("$inc", new JsonObject().put("seq", -1L))).mapEmpty();
  }

  /**
   * Records a stored message as the conversation's last one unless a later one is there already, and moves every
   * member's last activity forward.
   */
  Future<Void> stored(JsonObject message) {
    long conversation = message.getLong("conversation");
    long seq = message.getLong("seq");
    long created = message.getLong("created");
    JsonObject newer = new JsonObject().put("_id", conversation).put("last_seq", new JsonObject().put("$lt", seq));
    Future<?> last = mongo.updateCollection(CONVERSATIONS, newer, new JsonObject()
        .put("$set", new JsonObject().put("last_seq", seq).put("last_message", message))
        .put("$max", new JsonObject().put("updated", created)));
    Future<?> members = mongo.updateCollectionWithOptions(MEMBERS, new JsonObject().put("conversation", conversation),
        new JsonObject().put("$max", new JsonObject().put("updated", created)), new UpdateOptions().setMulti(true));
    return Future.all(last, members).mapEmpty();
  }

  /**
   * {@link #stored} for the newest message of each of several direct conversations, as two commands: the
   * conversations' last message (and {@code seq}, which direct sends do not reserve but which stays the highest
   * sequence given out), and both members' last activity, found by their ids. A message is stored only after its
   * send found or made both member documents, so the same update drops {@link #MEMBERS_PENDING} at no extra cost.
   */
  Future<Void> storedDirect(List<JsonObject> newest) {
    List<BulkOperation> convs = new ArrayList<>();
    List<BulkOperation> members = new ArrayList<>();
    for (JsonObject message : newest) {
      long conversation = message.getLong("conversation");
      long seq = message.getLong("seq");
      long created = message.getLong("created");
      convs.add(BulkOperation.createUpdate(
          new JsonObject().put("_id", conversation).put("last_seq", new JsonObject().put("$lt", seq)),
          new JsonObject().put("$set", new JsonObject().put("last_seq", seq).put("last_message", message))
              .put("$max", new JsonObject().put("updated", created).put("seq", seq))
              .put("$unset", new JsonObject().put(MEMBERS_PENDING, ""))));
      JsonArray ids = new JsonArray().add(memberId(conversation, message.getLong("sender")))
          .add(memberId(conversation, message.getLong("to")));
      members.add(BulkOperation.createUpdate(new JsonObject().put("_id", new JsonObject().put("$in", ids)),
          new JsonObject().put("$max", new JsonObject().put("updated", created)), false, true));
    }
    return Future.all(mongo.bulkWrite(CONVERSATIONS, convs), mongo.bulkWrite(MEMBERS, members)).mapEmpty();
  }

  /** The last sequence given out ({@code seq}) of each of these conversations that exists. */
  Future<Map<Long, Long>> seqs(List<Long> ids) {
    JsonObject query = new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(ids)));
    return mongo.findWithOptions(CONVERSATIONS, query, new FindOptions().setFields(new JsonObject().put("seq", 1)))
        .map(docs -> {
          Map<Long, Long> out = new HashMap<>();
          docs.forEach(d -> out.put(d.getLong("_id"), d.getLong("seq", 0L)));
          return out;
        });
  }

  /**
   * Replaces the conversation's last message when it is this one (a recall, a moderator's removal), and records it as
   * the last one when none as new is recorded yet: its own {@link #stored} was lost or is still to come, and must then
   * find it recorded rather than record the copy it read before the recall.
   */
  Future<Void> replaceLast(JsonObject message) {
    long seq = message.getLong("seq");
    return mongo.updateCollection(CONVERSATIONS, new JsonObject().put("_id", message.getLong("conversation"))
            .put("last_seq", new JsonObject().put("$lte", seq)),
        new JsonObject().put("$set", new JsonObject().put("last_seq", seq).put("last_message", message)))
        .mapEmpty();
  }

  /**
   * Puts {@code view} in place of the media of these conversations' last message where it is the one carrying media
   * {@code mediaId} (a recalled or removed last message carries none).
   */
  Future<Void> replaceLastMedia(long mediaId, List<Long> conversationIds, JsonObject view) {
    return mongo.updateCollectionWithOptions(CONVERSATIONS, new JsonObject()
            .put("_id", new JsonObject().put("$in", new JsonArray(new ArrayList<>(conversationIds))))
            .put("last_message.media.id", mediaId),
        new JsonObject().put("$set", new JsonObject().put("last_message.media", view)),
        new UpdateOptions().setMulti(true)).mapEmpty();
  }

  Future<JsonObject> member(long conversation, long user) {
    return mongo.findOne(MEMBERS, new JsonObject().put("_id", memberId(conversation, user)), null);
  }

  /** Member documents by their ids ({@code "<conversation>:<user>"}). */
  Future<List<JsonObject>> membersById(List<String> ids) {
    return mongo.findWithOptions(MEMBERS, new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(ids))),
        new FindOptions().setFields(new JsonObject().put("conversation", 1).put("user", 1).put("read_seq", 1)));
  }

  /**
   * Moves a member's read marker forward to {@code seq} (never back); answers the member document as it was before
   * (its {@code read_seq} is the marker before the move), or null when the user is not a member.
   */
  Future<JsonObject> markRead(long conversation, long user, long seq) {
    return mongo.findOneAndUpdateWithOptions(MEMBERS, new JsonObject().put("_id", memberId(conversation, user)),
        new JsonObject().put("$max", new JsonObject().put("read_seq", seq)), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(false));
  }

  /**
   * A page of those of {@code users} whose read marker in the conversation reached {@code seq} and who were members
   * when it was sent ({@code sent}: a group member's {@code joined} is at most that; direct members have none), by user
   * id above {@code afterUser}.
   */
  Future<List<Long>> readers(long conversation, long seq, long sent, List<Long> users, long afterUser, int limit) {
    return mongo.findWithOptions(MEMBERS, readersOf(conversation, seq, sent)
                .put("user", new JsonObject().put("$in", new JsonArray(List.copyOf(users))).put("$gt", afterUser)),
            new FindOptions().setSort(new JsonObject().put("user", 1)).setLimit(limit)
                .setFields(new JsonObject().put("user", 1)))
        .map(docs -> docs.stream().map(d -> d.getLong("user")).toList());
  }

  /** How many of {@code users} are {@link #readers} of {@code seq}. */
  Future<Long> readerCount(long conversation, long seq, long sent, List<Long> users) {
    return mongo.count(MEMBERS, readersOf(conversation, seq, sent)
        .put("user", new JsonObject().put("$in", new JsonArray(List.copyOf(users)))));
  }

  private static JsonObject readersOf(long conversation, long seq, long sent) {
    return new JsonObject().put("conversation", conversation).put("read_seq", new JsonObject().put("$gte", seq))
        .put("$or", new JsonArray().add(new JsonObject().put("joined", new JsonObject().put("$lte", sent)))
            .add(new JsonObject().put("joined", new JsonObject().put("$exists", false))));
  }

  /** Which of these users turned their read receipts off. */
  Future<Set<Long>> receiptsOff(List<Long> users) {
    return mongo.findWithOptions(SETTINGS, new JsonObject().put("user", new JsonObject()
                .put("$in", new JsonArray(List.copyOf(users)))).put("read_receipts", false),
            new FindOptions().setFields(new JsonObject().put("user", 1)))
        .map(docs -> {
          Set<Long> off = new HashSet<>();
          docs.forEach(d -> off.add(d.getLong("user")));
          return off;
        });
  }

  /** A page of a user's member documents, most recent activity first, after the cursor {@code (updated, conv)}. */
  Future<List<JsonObject>> recent(long user, Long beforeUpdated, Long beforeConversation, int limit) {
    JsonObject query = new JsonObject().put("user", user);
    if (beforeUpdated != null) {
      query.put("$or", new JsonArray()
          .add(new JsonObject().put("updated", new JsonObject().put("$lt", beforeUpdated)))
          .add(new JsonObject().put("updated", beforeUpdated)
              .put("conversation", new JsonObject().put("$lt", beforeConversation))));
    }
    return mongo.findWithOptions(MEMBERS, query, new FindOptions()
        .setSort(new JsonObject().put("updated", -1).put("conversation", -1)).setLimit(limit));
  }

  Future<List<JsonObject>> byIds(List<Long> ids) {
    return mongo.find(CONVERSATIONS, new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(ids))));
  }

  /** A user's settings document, or null. */
  Future<JsonObject> settings(long user) {
    return mongo.findOne(SETTINGS, new JsonObject().put("user", user), null);
  }

  Future<Void> saveSettings(long user, JsonObject changes) {
    return mongo.updateCollectionWithOptions(SETTINGS, new JsonObject().put("user", user),
        new JsonObject().put("$set", changes), new UpdateOptions().setUpsert(true)).<Void>mapEmpty()
        // two first saves racing: the loser's upsert meets the winner's _id; the update then applies
        .recover(e -> MongoErrors.isDuplicateKey(e)
            ? mongo.updateCollection(SETTINGS, new JsonObject().put("user", user),
                new JsonObject().put("$set", changes)).mapEmpty()
            : Future.failedFuture(e));
  }
}
