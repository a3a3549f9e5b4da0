package io.kith.push.service.announcements;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;

import java.util.List;

/**
 * Announcement jobs in MongoDB ({@value #COLLECTION}): {@code {_id, type, fields, key, after, told, state:
 * "running"|"done"|"failed", created, done_at?, lease_until, failures?}}; {@code after} is the last account id told,
 * so a job taken over by another node (its lease ran out) goes on from there; {@code failures} counts the failed
 * tries of the batch after it.
 */
final class AnnouncementStore {

  static final String COLLECTION = "announcements";
  static final String RUNNING = "running";
  static final String DONE = "done";
  static final String FAILED = "failed";

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
    JsonObject set = new JsonObject().put("lease_until", 0L).put("failures", 0);
    if (next == null) {
      set.put("state", DONE).put("done_at", System.currentTimeMillis());
    } else {
      set.put("after", next);
    }
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id), new JsonObject().put("$set", set)
        .put("$inc", new JsonObject().put("told", told))).mapEmpty();
  }

  /** Records a failed batch: told again from the same cursor once {@code at} has come. */
  Future<Void> retryAt(long id, long at, int failures) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id), new JsonObject().put("$set",
        new JsonObject().put("lease_until", at).put("failures", failures))).mapEmpty();
  }

  /** Gives a job up after too many failures of one batch: no node takes it again. */
  Future<Void> giveUp(long id, int failures) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id), new JsonObject().put("$set",
        new JsonObject().put("state", FAILED).put("failures", failures).put("lease_until", 0L)
            .put("done_at", System.currentTimeMillis()))).mapEmpty();
  }
}
