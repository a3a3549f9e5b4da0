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
 * <p>A notification is {@code {_id, to, type, created, unread, key, slot?, pending_until?, pending_by?, <optional fields of its
 * type>}};
 * {@code (to, key)} is unique, so a duplicate event makes one notification whatever the order of deliveries. A
 * notification with a {@code slot} (a conversation's offline messages, an activity's updates) replaces the older
 * ones of the same recipient and slot ({@link #settle}).
 * Preferences are {@code {user, muted_types: [...], muted_users: [...]}} (the user in a field with a unique index
 * rather than in {@code _id}, as relations does with its counts: concurrent first upserts race on the index and the
 * loser retries).
 */
final class NotificationRecords {

  static final String NOTIFICATIONS = "notifications";
  static final String PREFERENCES = "notification_preferences";
  /** Most records one system delete handles per round (a post's notifications across recipients). */
  static final int PURGE_BATCH = 1_000;
  /** Most records of one slot read when settling it (normally one or two: the holder and the newcomer). */
  private static final int SETTLE_BATCH = 100;
  private static final JsonObject NEWEST = new JsonObject().put("_id", -1);
  /**
   * The field of a record whose delivery has not finished (its Redis side, bridge push and {@code NotificationStored}
   * event): the time (ms) until which the delivery that holds it may finish it. A delivery of the same key that finds
   * the record with this field past its time takes it over and finishes it; one that finds the field gone does
   * nothing (its event was appended). Without it, a delivery that failed after the insert (a MongoDB pool wait while
   * rebuilding the Redis side) left a record whose retry took it for done: its event was never appended.
   */
  static final String PENDING = "pending_until";
  /**
   * The delivery holding a record while {@link #PENDING} is set (an id of its own): only the holder may finish the
   * record or let it go, so a delivery outlived by its hold (another took the record over meanwhile) appends nothing.
   */
  static final String HOLDER = "pending_by";

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
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("activity", 1),
            new IndexOptions().name("activity").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("group", 1),
            new IndexOptions().name("group").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("conversation", 1),
            new IndexOptions().name("conversation").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(NOTIFICATIONS, new JsonObject().put("to", 1).put("slot", 1),
            new IndexOptions().name("to_slot")))
        .compose(v -> mongo.createIndexWithOptions(PREFERENCES, new JsonObject().put("user", 1),
            new IndexOptions().name("user_unique").unique(true)));
  }

  /**
   * Inserts a record; when one with the same {@code (to, key)} exists, yields that one instead (so a redelivered
   * event completes the Redis side of the first delivery, when that delivery did not finish: see {@link #PENDING}).
   */
  Future<JsonObject> insert(JsonObject record) {
    return mongo.insert(NOTIFICATIONS, record).map(id -> record).recover(e -> !MongoErrors.isDuplicateKey(e)
        ? Future.failedFuture(e)
        : mongo.findOne(NOTIFICATIONS, new JsonObject().put("to", record.getLong("to"))
            .put("key", record.getString("key")), null).compose(existing -> existing != null
            ? Future.succeededFuture(existing) : Future.failedFuture(e)));
  }

  /**
   * Takes over a record whose delivery did not finish ({@link #PENDING} at or before {@code now}) for
   * {@code holder} until {@code until}: the record as updated, or null when its delivery finished or another one
   * holds it.
   */
  Future<JsonObject> takeOver(long id, long now, long until, long holder) {
    return mongo.findOneAndUpdateWithOptions(NOTIFICATIONS, new JsonObject().put("_id", id)
            .put(PENDING, new JsonObject().put("$lte", now)),
        new JsonObject().put("$set", new JsonObject().put(PENDING, until).put(HOLDER, holder)), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** Lets the next delivery of a record take it over at once ({@code holder} failed part way). */
  Future<Void> release(long id, long holder) {
    return mongo.updateCollection(NOTIFICATIONS, held(id, holder),
        new JsonObject().put("$set", new JsonObject().put(PENDING, 0L))).mapEmpty();
  }

  /**
   * Marks a record's delivery finished by {@code holder}: no later delivery of its key announces it again. False when
   * {@code holder} no longer holds it (its hold ran out and another delivery took the record over, which announces it
   * instead).
   */
  Future<Boolean> finished(long id, long holder) {
    return mongo.updateCollection(NOTIFICATIONS, held(id, holder),
            new JsonObject().put("$unset", new JsonObject().put(PENDING, "").put(HOLDER, "")))
        .map(result -> result != null && result.getDocMatched() > 0);
  }

  private static JsonObject held(long id, long holder) {
    return new JsonObject().put("_id", id).put(HOLDER, holder);
  }

  /**
   * Keeps only the newest record of {@code record}'s recipient and slot. When {@code record} is the newest, the older
   * ones are deleted and its {@code count} becomes 1 plus the counts of the unread ones it replaces (kept when it is
   * higher: a retried delivery finds the older ones gone and must not reset it).
   *
   * @return {@code record} with its count, or null when a newer record holds the slot ({@code record} is out of date
   *     and the caller removes it)
   */
  Future<JsonObject> settle(JsonObject record) {
    long to = record.getLong("to");
    long id = record.getLong("_id");
    return mongo.findWithOptions(NOTIFICATIONS, new JsonObject().put("to", to).put("slot", record.getString("slot")),
        new FindOptions().setSort(NEWEST).setLimit(SETTLE_BATCH)
            .setFields(new JsonObject().put("_id", 1).put("unread", 1).put("count", 1))).compose(docs -> {
          if (docs.isEmpty() || docs.get(0).getLong("_id") != id) {
            return Future.succeededFuture(null);
          }
          List<Long> older = new ArrayList<>();
          long count = 1;
          for (JsonObject doc : docs.subList(1, docs.size())) {
            older.add(doc.getLong("_id"));
            if (doc.getBoolean("unread", false)) {
              count += doc.getLong("count", 1L);
            }
          }
          if (older.isEmpty()) {
            return Future.succeededFuture(record);
          }
          long settled = Math.max(count, record.getLong("count", 1L));
          JsonObject shown = record.copy().put("count", settled);
          return mongo.updateCollection(NOTIFICATIONS, new JsonObject().put("_id", id),
                  new JsonObject().put("$set", new JsonObject().put("count", settled)))
              .compose(v -> delete(to, older))
              .map(v -> shown);
        });
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

  /** Deletes every notification {@code user} received (an erased account); answers how many went. */
  Future<Long> deleteReceived(long user) {
    return removed(NOTIFICATIONS, new JsonObject().put("to", user));
  }

  /** A page of the notifications {@code user} received, oldest first, by id after {@code afterId} (the export). */
  Future<List<JsonObject>> receivedAfter(long user, long afterId, int limit) {
    return mongo.findWithOptions(NOTIFICATIONS, new JsonObject().put("to", user)
        .put("_id", new JsonObject().put("$gt", afterId)),
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  private Future<Long> removed(String collection, JsonObject filter) {
    return mongo.removeDocuments(collection, filter).map(r -> r == null ? 0L : r.getRemovedCount());
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

  /** The user's preferences as {@link #preferences} shows them, or null when they never set any (the export). */
  Future<JsonObject> storedPreferences(long user) {
    return mongo.count(PREFERENCES, new JsonObject().put("user", user))
        .compose(n -> n == 0 ? Future.succeededFuture(null) : preferences(user));
  }

  /** Deletes the user's preferences (an erased account); answers how many documents went (0 or 1). */
  Future<Long> deletePreferences(long user) {
    return removed(PREFERENCES, new JsonObject().put("user", user));
  }

  /** Takes an erased account out of every other user's muted users; answers how many preferences changed. */
  Future<Long> unmuteEverywhere(long user) {
    return mongo.updateCollectionWithOptions(PREFERENCES, new JsonObject().put("muted_users", user),
            new JsonObject().put("$pull", new JsonObject().put("muted_users", user)),
            new UpdateOptions().setMulti(true))
        .map(r -> r == null ? 0L : r.getDocModified());
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
