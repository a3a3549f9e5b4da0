package io.kith.moderation.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;

/**
 * Sanctions in MongoDB collection {@value #COLLECTION}: {@code {_id, user, kind, until?, reason, by, at, report_id?}},
 * one per decision on a user (direct or a report's), never changed: the record an appeal refers to.
 */
final class SanctionStore {

  static final String COLLECTION = "moderation_sanctions";

  private final MongoClient mongo;

  SanctionStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("user", 1).put("_id", -1),
        new IndexOptions().name("by_user"));
  }

  Future<Void> insert(JsonObject sanction) {
    return mongo.insert(COLLECTION, sanction).mapEmpty();
  }

  Future<JsonObject> find(long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id), null);
  }

  /** The user's latest suspension (the one in force when accounts says they are suspended), or null. */
  Future<JsonObject> latestSuspension(long user) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("user", user).put("kind", "suspend"),
            new FindOptions().setSort(new JsonObject().put("_id", -1)).setLimit(1))
        .map(docs -> docs.isEmpty() ? null : docs.get(0));
  }

  /** A sanction as the API shows it. */
  static JsonObject view(JsonObject doc) {
    JsonObject out = doc.copy();
    out.put("id", out.remove("_id"));
    out.put("user_id", out.remove("user"));
    return out;
  }
}
