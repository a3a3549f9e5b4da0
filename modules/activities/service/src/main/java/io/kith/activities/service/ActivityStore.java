package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;

/**
 * The record of activities in MongoDB ({@value #COLLECTION}): {@code {_id, organiser, title, introduction, start,
 * end, place, capacity, waitlist, visibility, cover, status: "open" | "cancelled", joined_count, waiting, discussion
 * (group id or null), disc_dirty, disc_tried, remind_at, reminded, created, updated, v}}.
 *
 * <p>{@code joined_count} and {@code waiting} only move by conditional single-document updates, which is what keeps
 * the capacity exact: a place is claimed with {@code joined_count < cap} in the filter and {@code $inc} in the update,
 * so concurrent claims on any number of nodes can never take more places than there are. Every change increments
 * {@code v}, the version Redis copies are compared by.
 */
final class ActivityStore {

  static final String COLLECTION = "activities";

  private final MongoClient mongo;

  ActivityStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("organiser", 1).put("start", -1),
            new IndexOptions().name("organiser_start"))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("start", 1),
            new IndexOptions().name("start")));
  }

  /**
   * Moves coordinates stored under the names used before the lat/lon rename (CHANGELOG, Unreleased) ({@code place.latitude}, {@code place.longitude}) to
   * {@code place.lat} and {@code place.lon}; answers how many activities were rewritten. Each rewritten activity gets
   * a new version, so the warm load that follows replaces its Redis copy (and puts it back in the GEO index) instead
   * of keeping the copy with the old names. Idempotent: a second run finds nothing.
   */
  Future<Long> renameOldCoordinates() {
    JsonObject old = new JsonObject().put("$or", new JsonArray()
        .add(new JsonObject().put("place.latitude", new JsonObject().put("$exists", true)))
        .add(new JsonObject().put("place.longitude", new JsonObject().put("$exists", true))));
    JsonObject rename = new JsonObject()
        .put("$rename", new JsonObject().put("place.latitude", "place.lat").put("place.longitude", "place.lon"))
        .put("$inc", new JsonObject().put("v", 1));
    return mongo.updateCollectionWithOptions(COLLECTION, old, rename, new UpdateOptions().setMulti(true))
        .map(result -> result == null ? 0L : result.getDocModified());
  }

  Future<Void> insert(JsonObject doc) {
    return mongo.insert(COLLECTION, doc).mapEmpty();
  }

  Future<JsonObject> byId(long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id), null);
  }

  Future<List<JsonObject>> byIds(List<Long> ids) {
    return mongo.find(COLLECTION, new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(ids))));
  }

  /**
   * Runs {@code update} (with {@code v} incremented and {@code updated} set) where {@code filter} matches; the new doc
   * or null.
   */
  private Future<JsonObject> change(JsonObject filter, JsonObject update, long now) {
    JsonObject u = update.copy();
    JsonObject inc = u.getJsonObject("$inc", new JsonObject()).put("v", 1);
    u.put("$inc", inc);
    u.put("$set", u.getJsonObject("$set", new JsonObject()).put("updated", now));
    return mongo.findOneAndUpdateWithOptions(COLLECTION, filter, u, new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** The filter of an open activity that has not started, with the capacity it was read with. */
  private static JsonObject joinable(long id, Integer capacity, long now) {
    return new JsonObject().put("_id", id).put("status", Activities.OPEN)
        .put("start", new JsonObject().put("$gt", now)).put("capacity", capacity);
  }

  /**
   * Takes a place for a new participant: only while places are free and nobody waits (a fresh joiner never overtakes
   * the waitlist). {@code capacity} is the stored value (null: none) and {@code cap} the number of places it means.
   */
  Future<JsonObject> claimPlace(long id, Integer capacity, int cap, long now) {
    return change(joinable(id, capacity, now).put("joined_count", new JsonObject().put("$lt", cap)).put("waiting", 0),
        new JsonObject().put("$inc", new JsonObject().put("joined_count", 1)), now);
  }

  /** Moves one place from the waitlist's count to the participants' (a promotion), while a place is free. */
  Future<JsonObject> claimPromotion(long id, Integer capacity, int cap, long now) {
    return change(joinable(id, capacity, now).put("joined_count", new JsonObject().put("$lt", cap))
            .put("waiting", new JsonObject().put("$gt", 0)),
        new JsonObject().put("$inc", new JsonObject().put("joined_count", 1).put("waiting", -1)), now);
  }

  /** Takes a waitlist slot while the waitlist has fewer than {@code max}. */
  Future<JsonObject> claimWaitSlot(long id, int max, long now) {
    return change(new JsonObject().put("_id", id).put("status", Activities.OPEN)
            .put("start", new JsonObject().put("$gt", now)).put("waiting", new JsonObject().put("$lt", max)),
        new JsonObject().put("$inc", new JsonObject().put("waiting", 1)), now);
  }

  /** Unconditional counter moves: giving back a place or slot (a lost race, a leave, an undone promotion). */
  Future<JsonObject> move(long id, int joinedDelta, int waitingDelta, long now) {
    return change(new JsonObject().put("_id", id),
        new JsonObject().put("$inc", new JsonObject().put("joined_count", joinedDelta).put("waiting", waitingDelta)),
        now);
  }

  /**
   * Applies an organiser's changes to their open activity; with {@code newCapacity} (a new capacity, or the cap when
   * it is cleared) the filter also requires {@code joined_count <= newCapacity}. Null when nothing matched.
   */
  Future<JsonObject> update(long id, long organiser, JsonObject set, Integer newCapacity, long now) {
    JsonObject filter = new JsonObject().put("_id", id).put("organiser", organiser).put("status", Activities.OPEN);
    if (newCapacity != null) {
      filter.put("joined_count", new JsonObject().put("$lte", newCapacity));
    }
    return change(filter, new JsonObject().put("$set", set), now);
  }

  Future<JsonObject> cancel(long id, long organiser, long now) {
    return change(new JsonObject().put("_id", id).put("organiser", organiser).put("status", Activities.OPEN),
        new JsonObject().put("$set", new JsonObject().put("status", Activities.CANCELLED)), now);
  }

  /**
   * Marks an activity removed by a moderator and cancels it if it is open; the record after, or null when it was
   * removed already.
   */
  Future<JsonObject> markRemoved(long id, JsonObject removal, long now) {
    return change(new JsonObject().put("_id", id).put("removed", new JsonObject().put("$exists", false)),
        new JsonObject().put("$set", new JsonObject().put("status", Activities.CANCELLED).put("removed", removal)),
        now);
  }

  /**
   * Claims the reminder of an open activity not started yet whose reminder time on the record is due
   * ({@code remind_at <= now}): the one place where "exactly once" is decided. The due condition matters when the
   * organiser moved the start later after a sweep read the old due entry: the record's new {@code remind_at} is not
   * due, the claim fails, and the sweep re-queues it at its new time (see {@code Reminders}).
   */
  Future<JsonObject> claimReminder(long id, long now) {
    return change(new JsonObject().put("_id", id).put("status", Activities.OPEN).put("reminded", false)
            .put("remind_at", new JsonObject().put("$lte", now))
            .put("start", new JsonObject().put("$gt", now)),
        new JsonObject().put("$set", new JsonObject().put("reminded", true)), now);
  }

  /** Gives a claimed reminder back (its event could not be appended). */
  Future<JsonObject> unclaimReminder(long id, long now) {
    return change(new JsonObject().put("_id", id).put("reminded", true),
        new JsonObject().put("$set", new JsonObject().put("reminded", false)), now);
  }

  /** Records the discussion group, unless one is recorded already; the doc either way. */
  Future<JsonObject> setDiscussion(long id, long group, long now) {
    return change(new JsonObject().put("_id", id).put("discussion", null),
        new JsonObject().put("$set", new JsonObject().put("discussion", group).put("disc_dirty", false)), now)
        .compose(doc -> doc != null ? Future.succeededFuture(doc) : byId(id));
  }

  /** Marks (or clears) that the discussion group's members may lag behind the participants. */
  Future<Void> discussionDirty(long id, boolean dirty) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id),
        new JsonObject().put("$set", new JsonObject().put("disc_dirty", dirty))).mapEmpty();
  }

  /** Notes when the repair last tried this activity's discussion. */
  Future<Void> discussionTried(long id, long now) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id),
        new JsonObject().put("$set", new JsonObject().put("disc_tried", now))).mapEmpty();
  }

  /** Activities whose discussion group is missing or lagging, not over yet, those tried longest ago first. */
  Future<List<JsonObject>> needingDiscussion(long now, int limit) {
    JsonObject query = new JsonObject().put("end", new JsonObject().put("$gt", now)).put("$or", new JsonArray()
        .add(new JsonObject().put("discussion", null).put("status", Activities.OPEN))
        .add(new JsonObject().put("disc_dirty", true)));
    return mongo.findWithOptions(COLLECTION, query,
        new FindOptions().setSort(new JsonObject().put("disc_tried", 1).put("_id", 1)).setLimit(limit));
  }

  /** A page of activities starting at {@code from} or later, by id after {@code afterId}. */
  Future<List<JsonObject>> startingFrom(long from, long afterId, int limit) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("start", new JsonObject().put("$gte", from))
            .put("_id", new JsonObject().put("$gt", afterId)),
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Ids and starts of a user's activities starting at {@code from} or later (at most {@code limit}). */
  Future<List<JsonObject>> organisedFrom(long organiser, long from, int limit) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("organiser", organiser)
            .put("start", new JsonObject().put("$gte", from)),
        new FindOptions().setFields(new JsonObject().put("_id", 1).put("start", 1)).setLimit(limit));
  }

  /** A user's activities that started before {@code before} (and before the cursor), latest start first. */
  Future<List<JsonObject>> organisedBefore(long organiser, long before, Long cursorStart, Long cursorId, int limit) {
    JsonObject query = new JsonObject().put("organiser", organiser);
    and(query, new JsonObject().put("start", new JsonObject().put("$lt", before)),
        beforeCursor("start", "_id", cursorStart, cursorId));
    return mongo.findWithOptions(COLLECTION, query,
        new FindOptions().setSort(new JsonObject().put("start", -1).put("_id", -1)).setLimit(limit));
  }

  /** A page of a user's activities by id after {@code afterId} (erasure, export); with {@code openOnly}, open ones. */
  Future<List<JsonObject>> organisedPage(long organiser, long afterId, boolean openOnly, int limit) {
    JsonObject query = new JsonObject().put("organiser", organiser).put("_id", new JsonObject().put("$gt", afterId));
    if (openOnly) {
      query.put("status", Activities.OPEN);
    }
    return mongo.findWithOptions(COLLECTION, query,
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Deletes these activities of {@code organiser}; answers how many went. */
  Future<Long> deleteOrganised(long organiser, List<Long> ids) {
    return mongo.removeDocuments(COLLECTION, new JsonObject().put("organiser", organiser)
            .put("_id", new JsonObject().put("$in", new JsonArray(ids))))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** Adds the clauses that are not null to {@code query} under {@code $and}. */
  static void and(JsonObject query, JsonObject... clauses) {
    JsonArray all = new JsonArray();
    for (JsonObject c : clauses) {
      if (c != null) {
        all.add(c);
      }
    }
    query.put("$and", all);
  }

  /** {@code (start, id) < (cursorStart, cursorId)}, or null when there is no cursor. */
  static JsonObject beforeCursor(String startField, String idField, Long cursorStart, Long cursorId) {
    if (cursorStart == null) {
      return null;
    }
    return new JsonObject().put("$or", new JsonArray()
        .add(new JsonObject().put(startField, new JsonObject().put("$lt", cursorStart)))
        .add(new JsonObject().put(startField, cursorStart).put(idField, new JsonObject().put("$lt", cursorId))));
  }
}
