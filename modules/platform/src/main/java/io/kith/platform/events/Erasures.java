package io.kith.platform.events;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

/**
 * The erasure report of each domain for each deleted account, in the MongoDB collection {@value #COLLECTION}: one
 * document {@code {_id: "<domain>:<user>", domain, user, steps: [..], counts: {<kind>: n}, finished_at}}. A domain
 * consuming {@code AccountDeleted} erases the user's data in idempotent steps, calls {@link #step} after each (so that
 * a handler run again after a crash skips what is done, see {@link #done}) and {@link #finish} at the end. The
 * contract is written in the accounts README, "Deletion".
 */
public final class Erasures {

  /** The collection of erasure reports. */
  public static final String COLLECTION = "account_erasures";

  private final MongoClient mongo;

  /** Creates the recorder over the node's MongoDB client. */
  public Erasures(MongoClient mongo) {
    this.mongo = mongo;
  }

  private static String id(String domain, long user) {
    return domain + ":" + user;
  }

  /** The report of {@code domain} for {@code user} so far, or null when it has not begun. */
  public Future<JsonObject> report(String domain, long user) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id(domain, user)), null);
  }

  /** Whether {@code domain} already recorded the step {@code step} for {@code user} (a resumed erasure skips it). */
  public Future<Boolean> done(String domain, long user, String step) {
    return mongo.count(COLLECTION, new JsonObject().put("_id", id(domain, user)).put("steps", step))
        .map(n -> n > 0);
  }

  /**
   * Records that {@code domain} finished {@code step} for {@code user}, erasing {@code count} things of {@code kind}
   * (set, not added: a step run again reports what its last run erased).
   */
  public Future<Void> step(String domain, long user, String step, String kind, long count) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("_id", id(domain, user)),
        new JsonObject()
            .put("$setOnInsert", new JsonObject().put("domain", domain).put("user", user))
            .put("$addToSet", new JsonObject().put("steps", step))
            .put("$set", new JsonObject().put("counts." + kind, count)),
        new UpdateOptions().setUpsert(true)).mapEmpty();
  }

  /** Marks {@code domain}'s erasure of {@code user} finished (the first finish time stays); returns the report. */
  public Future<JsonObject> finish(String domain, long user) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id(domain, user)),
        new JsonObject().put("$setOnInsert", new JsonObject().put("domain", domain).put("user", user)
                .put("counts", new JsonObject()))
            .put("$min", new JsonObject().put("finished_at", System.currentTimeMillis())),
        new FindOptions(), new UpdateOptions().setUpsert(true).setReturningNewDocument(true));
  }
}
