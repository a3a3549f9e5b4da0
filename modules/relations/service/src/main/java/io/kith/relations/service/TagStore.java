package io.kith.relations.service;

import io.kith.platform.id.IdGenerator;
import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Contact tags in {@value #TAGS}: {@code {_id: <Kith id>, owner, tag, tag_lc, target, at}}, unique on owner + tag_lc +
 * target. Tags are private to their owner: every query is scoped by owner except {@link #placing}, which answers
 * "who tagged this viewer" for visibility checks and never leaves the service.
 */
final class TagStore {

  static final String TAGS = "contact_tags";

  private final MongoClient mongo;
  private final IdGenerator ids;

  TagStore(MongoClient mongo, IdGenerator ids) {
    this.mongo = mongo;
    this.ids = ids;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(TAGS, new JsonObject().put("owner", 1).put("tag_lc", 1).put("target", 1),
            new IndexOptions().name("owner_tag_target_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(TAGS, new JsonObject().put("owner", 1).put("tag_lc", 1)
            .put("_id", -1), new IndexOptions().name("owner_tag_newest")))
        .compose(v -> mongo.createIndexWithOptions(TAGS, new JsonObject().put("owner", 1).put("target", 1),
            new IndexOptions().name("owner_target")))
        .compose(v -> mongo.createIndexWithOptions(TAGS, new JsonObject().put("target", 1),
            new IndexOptions().name("target")));
  }

  /** Tags {@code target}; true when the tag was new on them. */
  Future<Boolean> tag(long owner, long target, String tag) {
    JsonObject doc = new JsonObject().put("_id", ids.next()).put("owner", owner).put("tag", tag)
        .put("tag_lc", tag.toLowerCase(Locale.ROOT)).put("target", target).put("at", System.currentTimeMillis());
    return mongo.insert(TAGS, doc).map(x -> true)
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture(false) : Future.failedFuture(e));
  }

  Future<Void> untag(long owner, long target, String tag) {
    return mongo.removeDocument(TAGS, new JsonObject().put("owner", owner)
        .put("tag_lc", tag.toLowerCase(Locale.ROOT)).put("target", target)).mapEmpty();
  }

  Future<Boolean> hasTag(long owner, String tag) {
    return mongo.count(TAGS, new JsonObject().put("owner", owner).put("tag_lc", tag.toLowerCase(Locale.ROOT)))
        .map(n -> n > 0);
  }

  /** The owner's distinct tags with counts, via aggregation. */
  Future<JsonArray> tags(long owner) {
    JsonArray pipeline = new JsonArray()
        .add(new JsonObject().put("$match", new JsonObject().put("owner", owner)))
        .add(new JsonObject().put("$group", new JsonObject().put("_id", "$tag_lc")
            .put("tag", new JsonObject().put("$first", "$tag")).put("count", new JsonObject().put("$sum", 1))))
        .add(new JsonObject().put("$sort", new JsonObject().put("_id", 1)));
    JsonArray out = new JsonArray();
    io.vertx.core.Promise<JsonArray> done = io.vertx.core.Promise.promise();
    mongo.aggregate(TAGS, pipeline)
        .handler(row -> out.add(new JsonObject().put("tag", row.getString("tag")).put("count", row.getInteger("count"))))
        .exceptionHandler(done::tryFail)
        .endHandler(v -> done.tryComplete(out));
    return done.future();
  }

  Future<Long> distinctTagCount(long owner) {
    return tags(owner).map(a -> (long) a.size());
  }

  Future<List<JsonObject>> tagged(long owner, String tag, Long before, int limit) {
    JsonObject query = new JsonObject().put("owner", owner).put("tag_lc", tag.toLowerCase(Locale.ROOT));
    if (before != null) {
      query.put("_id", new JsonObject().put("$lt", before));
    }
    return mongo.findWithOptions(TAGS, query, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit));
  }

  Future<List<JsonObject>> on(long owner, Collection<Long> targets) {
    if (targets.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return mongo.find(TAGS, new JsonObject().put("owner", owner)
        .put("target", new JsonObject().put("$in", new JsonArray(List.copyOf(targets)))));
  }

  /** The tags {@code owner} put, after tag row {@code after} (null: from the first), oldest first: export pages. */
  Future<List<JsonObject>> ownedAfter(long owner, Long after, int limit) {
    JsonObject query = new JsonObject().put("owner", owner);
    return mongo.findWithOptions(TAGS, after == null ? query : query.put("_id", new JsonObject().put("$gt", after)),
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Deletes the tag rows whose {@code field} ({@code owner} or {@code target}) is {@code user}; returns how many. */
  Future<Long> deleteBy(String field, long user) {
    return mongo.removeDocuments(TAGS, new JsonObject().put(field, user))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  Future<List<JsonObject>> placing(long target, int max) {
    return mongo.findWithOptions(TAGS, new JsonObject().put("target", target), new FindOptions().setLimit(max));
  }

  /** The tags these owners put on {@code target} (at most 200 per owner, so the answer is never cut short). */
  Future<List<JsonObject>> placingBy(long target, java.util.Collection<Long> owners) {
    return mongo.find(TAGS, new JsonObject().put("target", target)
        .put("owner", new JsonObject().put("$in", new io.vertx.core.json.JsonArray(List.copyOf(owners)))));
  }
}
