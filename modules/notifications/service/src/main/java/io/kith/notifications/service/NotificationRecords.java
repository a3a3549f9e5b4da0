package io.kith.notifications.service;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The record of notifications and preferences in MongoDB, from which the Redis side is rebuilt.
 *
 * <p>A notification is {@code {_id, to, type, created, unread, key, from_user?, post?, comment?, reply_to?, repost?}};
 * {@code (to, key)} is unique, so a duplicate event makes one notification whatever the order of deliveries.
 * Preferences are {@code {user, muted_types: [...], muted_users: [...]}} (the user in a field with a unique index
 * rather than in {@code _id}, as relations does with its counts: concurrent first upserts race on the index and the
 * loser retries).
 */
final class NotificationRecords {

  static final String NOTIFICATIONS = "notifications";
  static final String PREFERENCES = "notification_preferences";
  /** Most records one system delete handles per round (a post's notifications across recipients). */
  static final int PURGE_BATCH = 1_000;
  private static final JsonObject NEWEST = new JsonObject().put("_id", -1);

  private final MongoClient mongo;

  NotificationRecords(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("to", 1).put("key", 1),
            new IndexOptions().name("to_key_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("to", 1).put("_id", -1),
            new IndexOptions().name("to_newest")))
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("post", 1),
            new IndexOptions().name("post").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("comment", 1),
            new IndexOptions().name("comment").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("repost", 1),
            new IndexOptions().name("repost").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(PREFERENCES, new JsonObject().put("user", 1),
            new IndexOptions().name("user_unique").unique(true)));
  }

  /**
   * Inserts a record; when one with the same {@code (to, key)} exists, yields that one instead (so a redelivered
   * event completes the Redis side of the first delivery).
   */
  Future<JsonObject> insert(JsonObject record) {
    return mongo.insert(NOTIFICATIONS, record).map(id -> record).recover(e -> !MongoErrors.isDuplicateKey(e)
        ? Future.failedFuture(e)
        : mongo.findOne(NOTIFICATIONS, new JsonObject().put("to", record.getLong("to"))
            .put("key", record.getString("key")), null).compose(existing -> existing != null
            ? Future.succeededFuture(existing) : Future.failedFuture(e)));
  }

  /** The user's newest {@code cap} records; older ones (left by a cap eviction that did not reach here) go. */
  Future<List<JsonObject>> recent(long user, int cap) {
    return mongo.findWithOptions(NOTIFICATIONS, new JsonObject().put("to", user),
        new FindOptions().setSort(NEWEST).setLimit(cap + 1)).compose(list -> {
          if (list.size() <= cap) {
            return Future.succeededFuture(list);
          }
          List<JsonObject> kept = new ArrayList<>(list.subList(0, cap));
          long oldestKept = kept.get(cap - 1).getLong("_id");
          return mongo.removeDocuments(NOTIFICATIONS, new JsonObject().put("to", user)
              .put("_id", new JsonObject().put("$lt", oldestKept))).map(r -> kept);
        });
  }

  Future<Void> markRead(long user, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    return mongo.updateCollectionWithOptions(NOTIFICATIONS, byIds(user, ids),
        new JsonObject().put("$set", new JsonObject().put("unread", false)), new UpdateOptions().setMulti(true))
        .mapEmpty();
  }

  Future<Void> delete(long user, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    return mongo.removeDocuments(NOTIFICATIONS, byIds(user, ids)).mapEmpty();
  }

  /** Up to {@link #PURGE_BATCH} records matching a filter: {@code {_id, to}} (and the fields asked for). */
  Future<List<JsonObject>> find(JsonObject filter) {
    return mongo.findWithOptions(NOTIFICATIONS, filter, new FindOptions().setLimit(PURGE_BATCH)
        .setFields(new JsonObject().put("_id", 1).put("to", 1).put("post", 1).put("repost", 1)));
  }

  private static JsonObject byIds(long user, List<Long> ids) {
    return new JsonObject().put("to", user).put("_id", new JsonObject().put("$in", new JsonArray(List.copyOf(ids))));
  }

  // ---------------------------------------------------------------- preferences

  /** The user's preferences, with empty lists when none were set. */
  Future<JsonObject> preferences(long user) {
    return mongo.findOne(PREFERENCES, new JsonObject().put("user", user), null).map(doc -> {
      JsonObject d = doc == null ? new JsonObject() : doc;
      return new JsonObject().put("muted_types", d.getJsonArray("muted_types", new JsonArray()))
          .put("muted_users", d.getJsonArray("muted_users", new JsonArray()));
    });
  }

  /** Sets members of the user's preferences (upsert). */
  Future<Void> setPreferences(long user, JsonObject set) {
    return upsert(user, new JsonObject().put("$set", set), true);
  }

  /** Adds or removes one muted user (the service checks the limit before adding). */
  Future<Void> muteUser(long user, long other, boolean mute) {
    JsonObject update = mute ? new JsonObject().put("$addToSet", new JsonObject().put("muted_users", other))
        : new JsonObject().put("$pull", new JsonObject().put("muted_users", other));
    return upsert(user, update, mute);
  }

  private Future<Void> upsert(long user, JsonObject update, boolean create) {
    JsonObject filter = new JsonObject().put("user", user);
    UpdateOptions options = new UpdateOptions().setUpsert(create);
    return mongo.updateCollectionWithOptions(PREFERENCES, filter, update, options).<Void>mapEmpty()
        .recover(e -> MongoErrors.isDuplicateKey(e)
            ? mongo.updateCollectionWithOptions(PREFERENCES, filter, update, options).mapEmpty()
            : Future.failedFuture(e));
  }
}
