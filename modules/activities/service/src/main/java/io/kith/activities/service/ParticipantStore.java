package io.kith.activities.service;

import io.kith.activities.api.Activities;
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
 * The record of who takes part in what, in MongoDB ({@value #COLLECTION}): one document per (activity, user) that
 * ever joined, waited, was invited or was removed: {@code {_id: "<activity>:<user>", activity, user, status: "joined"
 * | "waitlisted" | "none" | "removed", invited (bool), seq (order of the place or of the wait: an id), since (ms),
 * start (the activity's, for the user's lists), v}}. Unique on {@code (activity, user)}, so two concurrent first joins
 * of one user make one document; every status change is a conditional update from the expected status, so of two
 * racing changes exactly one applies.
 */
final class ParticipantStore {

  static final String COLLECTION = "activity_participants";
  /** Status of a user who left (or never joined but was invited). */
  static final String NONE = Activities.NONE;

  private final MongoClient mongo;

  ParticipantStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("activity", 1).put("user", 1),
            new IndexOptions().name("activity_user_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION,
            new JsonObject().put("activity", 1).put("status", 1).put("seq", 1),
            new IndexOptions().name("activity_status_seq")))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION,
            new JsonObject().put("user", 1).put("status", 1).put("start", -1),
            new IndexOptions().name("user_status_start")));
  }

  static String id(long activity, long user) {
    return activity + ":" + user;
  }

  Future<JsonObject> find(long activity, long user) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id(activity, user)), null);
  }

  /** Inserts a first participation; fails with a duplicate key when the user has one already. */
  Future<JsonObject> insert(long activity, long user, String status, boolean invited, long seq, long start, long now) {
    JsonObject doc = new JsonObject().put("_id", id(activity, user)).put("activity", activity).put("user", user)
        .put("status", status).put("invited", invited).put("seq", seq).put("since", now).put("start", start)
        .put("v", 1L);
    return mongo.insert(COLLECTION, doc).map(x -> doc);
  }

  /**
   * Moves a participation from one of {@code from} to what {@code set} says; the new doc, or null if it was not in
   * {@code from}.
   */
  Future<JsonObject> transition(long activity, long user, List<String> from, JsonObject set) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id(activity, user))
            .put("status", new JsonObject().put("$in", new JsonArray(from))),
        new JsonObject().put("$set", set).put("$inc", new JsonObject().put("v", 1)), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** The first user waiting for a place, or null. */
  Future<JsonObject> firstWaiting(long activity) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("activity", activity)
                .put("status", Activities.WAITLISTED),
            new FindOptions().setSort(new JsonObject().put("seq", 1)).setLimit(1))
        .map(l -> l.isEmpty() ? null : l.get(0));
  }

  /** Up to {@code limit} ids of the joined participants, in place order. */
  Future<List<Long>> joinedIds(long activity, int limit) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("activity", activity)
                .put("status", Activities.JOINED),
            new FindOptions().setSort(new JsonObject().put("seq", 1)).setLimit(limit)
                .setFields(new JsonObject().put("user", 1)))
        .map(l -> new ArrayList<>(l.stream().map(d -> d.getLong("user")).toList()));
  }

  /** Every participation of these activities, a page of up to {@code limit} by {@code _id} after {@code afterId}. */
  Future<List<JsonObject>> ofActivities(List<Long> activities, String afterId, int limit) {
    JsonObject query = new JsonObject().put("activity", new JsonObject().put("$in", new JsonArray(activities)));
    if (afterId != null) {
      query.put("_id", new JsonObject().put("$gt", afterId));
    }
    return mongo.findWithOptions(COLLECTION, query,
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Activities (id and start) the user holds a place in, starting at {@code from} or later. */
  Future<List<JsonObject>> joinedFrom(long user, long from, int limit) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("user", user).put("status", Activities.JOINED)
            .put("start", new JsonObject().put("$gte", from)),
        new FindOptions().setFields(new JsonObject().put("activity", 1).put("start", 1)).setLimit(limit));
  }

  /** The user's places in activities that started before {@code before} and before the cursor, latest first. */
  Future<List<JsonObject>> joinedBefore(long user, long before, Long cursorStart, Long cursorId, int limit) {
    JsonObject query = new JsonObject().put("user", user).put("status", Activities.JOINED);
    ActivityStore.and(query, new JsonObject().put("start", new JsonObject().put("$lt", before)),
        ActivityStore.beforeCursor("start", "activity", cursorStart, cursorId));
    return mongo.findWithOptions(COLLECTION, query,
        new FindOptions().setSort(new JsonObject().put("start", -1).put("activity", -1)).setLimit(limit));
  }

  /** Copies a new start time onto the activity's participations (the users' lists are ordered by it). */
  Future<Void> setStart(long activity, long start) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("activity", activity),
        new JsonObject().put("$set", new JsonObject().put("start", start)), new UpdateOptions().setMulti(true))
        .mapEmpty();
  }

  /** Up to {@code limit} ids of users with one of these statuses. */
  Future<List<Long>> userIds(long activity, List<String> statuses, int limit) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("activity", activity)
                .put("status", new JsonObject().put("$in", new JsonArray(statuses))),
            new FindOptions().setLimit(limit).setFields(new JsonObject().put("user", 1)))
        .map(l -> new ArrayList<>(l.stream().map(d -> d.getLong("user")).toList()));
  }

  /**
   * A page of {@code user}'s participations by {@code _id} after {@code afterId} (null: from the first), of these
   * statuses (null: any), for the account erasure and export.
   */
  Future<List<JsonObject>> ofUser(long user, List<String> statuses, String afterId, int limit) {
    JsonObject query = new JsonObject().put("user", user);
    if (statuses != null) {
      query.put("status", new JsonObject().put("$in", new JsonArray(statuses)));
    }
    if (afterId != null) {
      query.put("_id", new JsonObject().put("$gt", afterId));
    }
    return mongo.findWithOptions(COLLECTION, query,
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Deletes participations: those of {@code field} (activity or user) in {@code values}; answers how many went. */
  Future<Long> delete(String field, List<?> values) {
    return mongo.removeDocuments(COLLECTION, new JsonObject().put(field, new JsonObject().put("$in",
        new JsonArray(new ArrayList<>(values))))).map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** How many users hold an invitation to the activity. */
  Future<Long> invitedCount(long activity) {
    return mongo.count(COLLECTION, new JsonObject().put("activity", activity).put("invited", true));
  }
}
