package io.kith.push.service.announcements;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;

import java.util.List;

/**
 * Announcement jobs in MongoDB ({@value #COLLECTION}): {@code {_id, type, fields, key, after, told, state:
 * "running"|"done", created, done_at?, lease_until}}; {@code after} is the last account id told, so a job taken over
 * by another node (its lease ran out) goes on from there.
 */
final class AnnouncementStore {

  static final String COLLECTION = "announcements";
  static final String RUNNING = "running";
  static final String DONE = "done";

  private final MongoClient mongo;

  AnnouncementStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> insert(JsonObject job) {
    return mongo.insert(COLLECTION, job).mapEmpty();
  }

  /** Running jobs whose lease is free, oldest first. */
  Future<List<JsonObject>> due(long now, int limit) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("state", RUNNING)
        .put("lease_until", new JsonObject().put("$lte", now)), new FindOptions()
        .setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Takes a job for one batch until {@code until}; null when another node took it first. */
  Future<JsonObject> claim(long id, long now, long until) {
    return mongo.findOneAndUpdate(COLLECTION, new JsonObject().put("_id", id).put("state", RUNNING)
            .put("lease_until", new JsonObject().put("$lte", now)),
        new JsonObject().put("$set", new JsonObject().put("lease_until", until)));
  }

  /** Records a told batch: the new cursor (null: the walk ended) and how many were told. */
  Future<Void> advance(long id, Long next, long told) {
    JsonObject set = new JsonObject().put("lease_until", 0L);
    if (next == null) {
      set.put("state", DONE).put("done_at", System.currentTimeMillis());
    } else {
      set.put("after", next);
    }
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id), new JsonObject().put("$set", set)
        .put("$inc", new JsonObject().put("told", told))).mapEmpty();
  }
}
