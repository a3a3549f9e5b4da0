package io.kith.push.service.targets;

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
 * Push targets in MongoDB ({@value #TARGETS}): {@code {_id, user, session, kind, key, created, token?, topic?,
 * sandbox?, endpoint?, p256dh?, auth?}}. {@code key} (the hash of kind and token or endpoint) is unique across users:
 * one device or browser subscription is one target, of the account that registered it last.
 */
public final class TargetRecords {

  static final String TARGETS = "push_targets";
  private static final JsonObject NEWEST = new JsonObject().put("_id", -1);

  private final MongoClient mongo;

  /** Creates the store over the node's MongoDB client. */
  public TargetRecords(MongoClient mongo) {
    this.mongo = mongo;
  }

  /** Declares the indexes: the unique key, a user's targets newest first, a session's targets. */
  public Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(TARGETS, new JsonObject().put("key", 1),
            new IndexOptions().name("key_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(TARGETS, new JsonObject().put("user", 1).put("_id", -1),
            new IndexOptions().name("user_newest")))
        .compose(v -> mongo.createIndexWithOptions(TARGETS, new JsonObject().put("user", 1).put("session", 1),
            new IndexOptions().name("user_session")));
  }

  /** The target registered under {@code key}, by any user, or null. */
  Future<JsonObject> byKey(String key) {
    return mongo.findOne(TARGETS, new JsonObject().put("key", key), null);
  }

  /**
   * Moves the user's target of this key to {@code session} with the fields sent now (a topic or keys may change);
   * yields the record after, or null when the user holds no target of this key (any more).
   */
  Future<JsonObject> refresh(long user, String session, JsonObject fields) {
    JsonObject set = fields.copy().put("session", session);
    return mongo.findOneAndUpdateWithOptions(TARGETS, new JsonObject().put("key", fields.getString("key"))
            .put("user", user), new JsonObject().put("$set", set), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** Inserts a new record; yields false when its key is taken meanwhile (a concurrent registration). */
  Future<Boolean> insert(JsonObject record) {
    return mongo.insert(TARGETS, record).map(id -> true)
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture(false) : Future.failedFuture(e));
  }

  /** How many targets the user holds. */
  Future<Long> count(long user) {
    return mongo.count(TARGETS, new JsonObject().put("user", user));
  }

  /** The user's targets, newest first (at most {@code limit}). */
  public Future<List<JsonObject>> of(long user, int limit) {
    return mongo.findWithOptions(TARGETS, new JsonObject().put("user", user),
        new FindOptions().setSort(NEWEST).setLimit(limit));
  }

  /** Removes the user's target {@code id}; yields whether there was one. */
  public Future<Boolean> remove(long user, long id) {
    return mongo.removeDocument(TARGETS, new JsonObject().put("_id", id).put("user", user))
        .map(r -> r != null && r.getRemovedCount() > 0);
  }

  /** Removes the target of this key whoever holds it (the device now belongs to another account). */
  Future<Void> removeKey(String key) {
    return mongo.removeDocuments(TARGETS, new JsonObject().put("key", key)).mapEmpty();
  }

  /** Removes the user's targets registered by these sessions. */
  public Future<Long> removeSessions(long user, List<String> sessions) {
    return mongo.removeDocuments(TARGETS, new JsonObject().put("user", user)
            .put("session", new JsonObject().put("$in", new JsonArray(sessions))))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** Removes every target of the user (the account was erased); yields how many. */
  public Future<Long> removeUser(long user) {
    return mongo.removeDocuments(TARGETS, new JsonObject().put("user", user))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }
}
