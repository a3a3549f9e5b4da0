package io.kith.moderation.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

/**
 * Appeals in MongoDB collection {@value #COLLECTION}: {@code {_id, key, user, text, state, created, appealed: {kind,
 * sanction_id?, report_id?, by}, decision?: {decision, by, reason, at}}}. {@code key} ({@code sanction:<id>} or
 * {@code report:<id>}) is unique, so a decision has at most one appeal even when two requests race.
 */
final class AppealStore {

  static final String COLLECTION = "moderation_appeals";
  /** The state of an appeal whose appellant's account was erased before a decision. */
  static final String WITHDRAWN = "withdrawn";

  /** Updates every matching document (the client's default is the first only). */
  private static final UpdateOptions MANY = new UpdateOptions().setMulti(true);

  private final MongoClient mongo;

  AppealStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("key", 1),
            new IndexOptions().name("one_per_decision").unique(true))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("state", 1).put("_id", -1),
            new IndexOptions().name("by_state")))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("user", 1).put("_id", 1),
            new IndexOptions().name("by_user")));
  }

  Future<Void> insert(JsonObject appeal) {
    return mongo.insert(COLLECTION, appeal).mapEmpty();
  }

  Future<JsonObject> find(long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id), null);
  }

  /** Appeals matching {@code query}, newest first. */
  Future<Page> list(JsonObject query, PageRequest page) {
    int limit = Pages.limit(page);
    JsonObject q = query.copy();
    if (page.maxId() > 0) {
      q.put("_id", new JsonObject().put("$lt", page.maxId()));
    }
    return mongo.findWithOptions(COLLECTION, q, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit + 1)).map(docs -> Pages.byId(docs, limit, AppealStore::view));
  }

  /** Closes an open appeal; the appeal after the change, or null when it was not open. */
  Future<JsonObject> close(long id, String state, JsonObject decision) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id).put("state", "open"),
        new JsonObject().put("$set", new JsonObject().put("state", state).put("decision", decision)),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * Closes {@code user}'s open appeals as {@code withdrawn} (their account was erased: nobody is left to answer);
   * answers how many.
   */
  Future<Long> withdrawAll(long user) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("user", user).put("state", "open"),
            new JsonObject().put("$set", new JsonObject().put("state", WITHDRAWN)
                .put("withdrawn_at", System.currentTimeMillis())), MANY)
        .map(r -> r == null ? 0L : r.getDocModified());
  }

  /** Empties the text of {@code user}'s appeals (their account was erased); answers how many changed. */
  Future<Long> clearTexts(long user) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("user", user)
                .put("text", new JsonObject().put("$ne", "")),
            new JsonObject().put("$set", new JsonObject().put("text", "")), MANY)
        .map(r -> r == null ? 0L : r.getDocModified());
  }

  /** An appeal as the API shows it. */
  static JsonObject view(JsonObject doc) {
    JsonObject out = doc.copy();
    out.remove("key");
    out.put("id", out.remove("_id"));
    out.put("user_id", out.remove("user"));
    return out;
  }
}
