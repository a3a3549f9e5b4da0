package io.kith.moderation.service;

import io.kith.moderation.api.Moderation;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reports in MongoDB collection {@value #COLLECTION}: {@code {_id, reporter, target: {type, id}, target_owner,
 * category, comment, evidence_ids, state, created, assignee?, decision?: {decision, by, reason, at}, open_key?}}.
 * {@code open_key} ({@code reporter:type:id}) exists only while the report is open and is unique, so one reporter has
 * at most one open report per target even when two requests race.
 */
final class ReportStore {

  static final String COLLECTION = "moderation_reports";

  /** Updates every matching document (the client's default is the first only). */
  private static final UpdateOptions MANY = new UpdateOptions().setMulti(true);

  private final MongoClient mongo;

  ReportStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("open_key", 1),
            new IndexOptions().name("one_open_per_target").unique(true).sparse(true))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("reporter", 1).put("_id", -1),
            new IndexOptions().name("by_reporter")))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("state", 1).put("_id", -1),
            new IndexOptions().name("by_state")));
  }

  static String openKey(long reporter, String type, long id) {
    return reporter + ":" + type + ":" + id;
  }

  Future<Void> insert(JsonObject report) {
    return mongo.insert(COLLECTION, report).mapEmpty();
  }

  Future<JsonObject> find(long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id), null);
  }

  /** The reporter's reports, newest first. */
  Future<Page> byReporter(long reporter, PageRequest page) {
    return list(new JsonObject().put("reporter", reporter), page, ReportStore::reporterView);
  }

  /** Reports matching {@code query}, newest first, as moderators see them. */
  Future<Page> list(JsonObject query, PageRequest page, Function<JsonObject, JsonObject> view) {
    int limit = Pages.limit(page);
    JsonObject q = query.copy();
    if (page.maxId() > 0) {
      q.put("_id", new JsonObject().put("$lt", page.maxId()));
    }
    return mongo.findWithOptions(COLLECTION, q, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit + 1)).map(docs -> Pages.byId(docs, limit, view));
  }

  /** Open reports matching {@code match} grouped by target, the most reported first, at most 100 targets. */
  Future<List<JsonObject>> groupedByTarget(JsonObject match) {
    JsonArray pipeline = new JsonArray()
        .add(new JsonObject().put("$match", match.copy().put("state", Moderation.OPEN)))
        .add(new JsonObject().put("$group", new JsonObject()
            .put("_id", new JsonObject().put("type", "$target.type").put("id", "$target.id"))
            .put("open_reports", new JsonObject().put("$sum", 1))
            .put("owner", new JsonObject().put("$first", "$target_owner"))
            .put("oldest", new JsonObject().put("$min", "$created"))
            .put("newest", new JsonObject().put("$max", "$created"))
            .put("categories", new JsonObject().put("$addToSet", "$category"))))
        .add(new JsonObject().put("$sort", new JsonObject().put("open_reports", -1).put("oldest", 1)))
        .add(new JsonObject().put("$limit", 100));
    List<JsonObject> out = new ArrayList<>();
    var promise = Promise.<List<JsonObject>>promise();
    mongo.aggregate(COLLECTION, pipeline).handler(out::add).exceptionHandler(promise::tryFail)
        .endHandler(v -> promise.tryComplete(out));
    return promise.future();
  }

  /** Sets the assignee of an open report; the report after the change, or null when it is not open. */
  Future<JsonObject> assign(long id, long assignee) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id).put("state", Moderation.OPEN),
        new JsonObject().put("$set", new JsonObject().put("assignee", assignee)), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** How many reports were ever filed on a target. */
  Future<Long> countOn(String type, long id) {
    return mongo.count(COLLECTION, new JsonObject().put("target.type", type).put("target.id", id));
  }

  /** Closes an open report with {@code decision}; the report after the change, or null when it was not open. */
  Future<JsonObject> close(long id, String state, JsonObject decision) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id).put("state", Moderation.OPEN),
        new JsonObject().put("$set", new JsonObject().put("state", state).put("decision", decision))
            .put("$unset", new JsonObject().put("open_key", "")), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * Anonymises the reports {@code reporter} filed (their account was erased): the reporter becomes 0 and the comment
   * empty, and an open report loses its uniqueness key (it named the reporter) but stays open in the queue. Answers
   * how many changed; a second run changes none.
   */
  Future<Long> anonymise(long reporter) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("reporter", reporter),
            new JsonObject().put("$set", new JsonObject().put("reporter", 0L).put("comment", ""))
                .put("$unset", new JsonObject().put("open_key", "")), MANY)
        .map(r -> r == null ? 0L : r.getDocModified());
  }

  /** Takes {@code assignee} (an erased moderator) off the open reports assigned to them; answers how many. */
  Future<Long> unassign(long assignee) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("assignee", assignee).put("state", Moderation.OPEN),
            new JsonObject().put("$unset", new JsonObject().put("assignee", "")), MANY)
        .map(r -> r == null ? 0L : r.getDocModified());
  }

  /** A report as its reporter sees it: no assignee, no moderator's name. */
  static JsonObject reporterView(JsonObject doc) {
    JsonObject out = new JsonObject().put("id", doc.getLong("_id")).put("target", doc.getJsonObject("target"))
        .put("category", doc.getString("category")).put("comment", doc.getString("comment"))
        .put("state", doc.getString("state")).put("created", doc.getLong("created"));
    JsonObject decision = doc.getJsonObject("decision");
    if (decision != null) {
      out.put("decided", new JsonObject().put("decision", decision.getString("decision"))
          .put("at", decision.getLong("at")));
    }
    return out;
  }

  /** A report as moderators see it: everything but the uniqueness key. */
  static JsonObject moderatorView(JsonObject doc) {
    JsonObject out = doc.copy();
    out.remove("open_key");
    out.put("id", out.remove("_id"));
    return out;
  }
}
