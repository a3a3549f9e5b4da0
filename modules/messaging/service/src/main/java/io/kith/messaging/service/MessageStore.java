package io.kith.messaging.service;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.BulkOperation;
import io.vertx.ext.mongo.BulkWriteOptions;
import io.vertx.ext.mongo.CountOptions;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * Messages in MongoDB, the record: {@code {_id, conversation, seq, sender, to, client_id, created, text?, media?,
 * recalled?, recalled_at?, removed?, removal?}} ({@code removal}: a moderator's record, with the content). Unique
 * {@code (conversation, seq)} and {@code (sender, client_id)}.
 *
 * <p>Not final: a test puts a recall between a retry's read of its stored message ({@link #byClientId}) and the writes
 * after it.
 */
class MessageStore {

  static final String MESSAGES = "messaging_messages";
  /** Unread counts stop here: a conversation with more unread messages answers this (clients show "99+"). */
  static final int UNREAD_CAP = 100;

  private final MongoClient mongo;

  MessageStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(MESSAGES, new JsonObject().put("conversation", 1).put("seq", 1),
            new IndexOptions().name("conversation_seq_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(MESSAGES, new JsonObject().put("sender", 1).put("client_id", 1),
            new IndexOptions().name("sender_client_id_unique").unique(true)))
        // the messages carrying a media, found when the media pipeline finishes it (MessageMediaViews)
        .compose(v -> mongo.createIndexWithOptions(MESSAGES, new JsonObject().put("media.id", 1),
            new IndexOptions().name("media_id").sparse(true)));
  }

  /** The newest {@code limit} messages of these conversations that carry media {@code mediaId}. */
  Future<List<JsonObject>> carrying(long mediaId, List<Long> conversations, int limit) {
    return mongo.findWithOptions(MESSAGES, carryingQuery(mediaId, conversations),
        new FindOptions().setSort(new JsonObject().put("_id", -1)).setLimit(limit));
  }

  /**
   * Puts {@code view} in place of the media of every message of these conversations that still carries media
   * {@code mediaId} (a recalled or removed message carries none, so it is left alone).
   */
  Future<Void> replaceMedia(long mediaId, List<Long> conversations, JsonObject view) {
    return mongo.updateCollectionWithOptions(MESSAGES, carryingQuery(mediaId, conversations),
        new JsonObject().put("$set", new JsonObject().put("media", view)), new UpdateOptions().setMulti(true))
        .mapEmpty();
  }

  private static JsonObject carryingQuery(long mediaId, List<Long> conversations) {
    return new JsonObject().put("media.id", mediaId)
        .put("conversation", new JsonObject().put("$in", new JsonArray(new ArrayList<>(conversations))));
  }

  Future<JsonObject> byClientId(long sender, String clientId) {
    return mongo.findOne(MESSAGES, new JsonObject().put("sender", sender).put("client_id", clientId), null);
  }

  /**
   * What an ordered insert of several messages did: the first {@code stored} documents are in, and when that is not
   * all of them, {@code failure} is why the next one was refused ({@code indexed}: the others after it were not tried)
   * or why the whole command failed (not {@code indexed}: any of them may or may not be in).
   */
  record Inserted(int stored, Throwable failure, boolean indexed) {
  }

  /** Inserts {@code docs} in order, as one command, stopping at the first one refused. */
  Future<Inserted> insertInOrder(List<JsonObject> docs) {
    List<BulkOperation> inserts = docs.stream().map(BulkOperation::createInsert).toList();
    return mongo.bulkWriteWithOptions(MESSAGES, inserts, new BulkWriteOptions().setOrdered(true)).transform(ar -> {
      if (ar.succeeded()) {
        return Future.succeededFuture(new Inserted(docs.size(), null, true));
      }
      int at = MongoErrors.failedWriteIndex(ar.cause());
      return Future.succeededFuture(at < 0 ? new Inserted(0, ar.cause(), false) : new Inserted(at, ar.cause(), true));
    });
  }

  /** The highest sequence stored in a conversation, 0 when it has none. */
  Future<Long> lastSeq(long conversation) {
    return mongo.findWithOptions(MESSAGES, new JsonObject().put("conversation", conversation), new FindOptions()
            .setSort(new JsonObject().put("seq", -1)).setLimit(1).setFields(new JsonObject().put("seq", 1)))
        .map(docs -> docs.isEmpty() ? 0L : docs.get(0).getLong("seq", 0L));
  }

  Future<JsonObject> byId(long id) {
    return mongo.findOne(MESSAGES, new JsonObject().put("_id", id), null);
  }

  Future<Void> insert(JsonObject doc) {
    return mongo.insert(MESSAGES, doc).mapEmpty();
  }

  /** Marks a message recalled and drops its content; answers the document after, or null if it was recalled already. */
  Future<JsonObject> recall(long id, long now) {
    return mongo.findOneAndUpdateWithOptions(MESSAGES,
        new JsonObject().put("_id", id).put("recalled", new JsonObject().put("$ne", true)),
        new JsonObject().put("$set", new JsonObject().put("recalled", true).put("recalled_at", now))
            .put("$unset", new JsonObject().put("text", "").put("media", "")),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * Marks a message removed by a moderator: its content moves into the {@code removal} record (for review only) and
   * leaves the message; answers the document after, or null if it was removed already.
   */
  Future<JsonObject> remove(JsonObject doc, JsonObject removal) {
    JsonObject record = removal.copy().put("text", doc.getValue("text")).put("media", doc.getValue("media"));
    return mongo.findOneAndUpdateWithOptions(MESSAGES,
        new JsonObject().put("_id", doc.getLong("_id")).put("removed", new JsonObject().put("$ne", true)),
        new JsonObject().put("$set", new JsonObject().put("removed", true).put("removal", record))
            .put("$unset", new JsonObject().put("text", "").put("media", "")),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /** Up to {@code limit} messages with {@code after < seq < before} (either bound may be null), ascending or not. */
  Future<List<JsonObject>> range(long conversation, Long after, Long before, int limit, boolean ascending) {
    JsonObject seq = new JsonObject();
    if (after != null) {
      seq.put("$gt", after);
    }
    if (before != null) {
      seq.put("$lt", before);
    }
    JsonObject query = new JsonObject().put("conversation", conversation);
    if (!seq.isEmpty()) {
      query.put("seq", seq);
    }
    return mongo.findWithOptions(MESSAGES, query, new FindOptions()
        .setSort(new JsonObject().put("seq", ascending ? 1 : -1)).setLimit(limit));
  }

  /**
   * Messages after {@code readSeq} that {@code reader} did not send and that are not recalled or removed: the exact unread count
   * up to {@value #UNREAD_CAP}, and {@value #UNREAD_CAP} for anything more (the count stops there, so a long unread
   * conversation costs no more than a short one on every conversations page).
   */
  Future<Long> unread(long conversation, long reader, long readSeq) {
    return mongo.countWithOptions(MESSAGES, new JsonObject().put("conversation", conversation)
        .put("seq", new JsonObject().put("$gt", readSeq))
        .put("sender", new JsonObject().put("$ne", reader))
        .put("recalled", new JsonObject().put("$ne", true)).put("removed", new JsonObject().put("$ne", true)),
        new CountOptions().setLimit(UNREAD_CAP));
  }
}
