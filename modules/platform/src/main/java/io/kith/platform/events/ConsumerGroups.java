package io.kith.platform.events;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

/**
 * The consumer groups this deployment has run, remembered in MongoDB ({@value #COLLECTION}, one document
 * {@code {_id: "<stream> <group>", since}} per group), because the groups themselves live in Redis and vanish with
 * its data. A consumer that starts and finds its group missing in Redis asks here where to create it: a group that
 * ran before lost it with Redis (a flush, a restart without persistence, perhaps while every consumer of the group was
 * down), so it is created at the stream's start and handles every event appended since the loss; a group new to the
 * deployment starts at the stream's end, so that adding a module does not replay the retained history to it.
 */
final class ConsumerGroups {

  /** The collection. */
  static final String COLLECTION = "kith_event_groups";

  private final MongoClient mongo;

  ConsumerGroups(MongoClient mongo) {
    this.mongo = mongo;
  }

  private static JsonObject id(String stream, String group) {
    return new JsonObject().put("_id", stream + " " + group);
  }

  /** Whether the group has run before. */
  Future<Boolean> known(String stream, String group) {
    return mongo.findOne(COLLECTION, id(stream, group), new JsonObject().put("_id", 1)).map(doc -> doc != null);
  }

  /** Records that the group runs (idempotent). */
  Future<Void> remember(String stream, String group) {
    return mongo.updateCollectionWithOptions(COLLECTION, id(stream, group),
            new JsonObject().put("$setOnInsert", new JsonObject().put("since", System.currentTimeMillis())),
            new UpdateOptions().setUpsert(true))
        .mapEmpty();
  }
}
