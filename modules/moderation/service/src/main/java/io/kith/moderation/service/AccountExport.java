package io.kith.moderation.service;

import io.kith.platform.events.Exports;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Moderation's part of an account export ({@link Exports}, served at {@code kith.export.moderation}):
 * {@code reports.json} (the reports the user filed, as {@code GET /reports} shows them), {@code sanctions.json} (the
 * sanctions against them: id, kind, reason, at, until, report_id; never the moderator) and {@code appeals.json}
 * (their appeals: the appealed decision, text, state, created, the decision and when; never the moderator). Each
 * file is read from MongoDB by the user's index in {@code _id} order; the cursor is {@code <file index>:<last id>}.
 */
final class AccountExport implements Exports.Source {

  /** One file of the part: its collection, the member naming the user, and the view of a document. */
  private record Part(String file, String collection, String owner, Function<JsonObject, JsonObject> view) {
  }

  private static final List<Part> PARTS = List.of(
      new Part("reports.json", ReportStore.COLLECTION, "reporter", ReportStore::reporterView),
      new Part("sanctions.json", SanctionStore.COLLECTION, "user", AccountExport::sanction),
      new Part("appeals.json", AppealStore.COLLECTION, "user", AccountExport::appeal));

  private final MongoClient mongo;
  private final int pageSize;

  AccountExport(MongoClient mongo, int pageSize) {
    this.mongo = mongo;
    this.pageSize = Math.min(pageSize, Exports.MAX_RECORDS);
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    int part = 0;
    long after = 0L;
    if (cursor != null) {
      int colon = cursor.indexOf(':');
      part = Integer.parseInt(cursor.substring(0, colon));
      after = Long.parseLong(cursor.substring(colon + 1));
    }
    return fill(user, part, after, new ArrayList<>());
  }

  /** Appends the part's documents after {@code after} until the page is full or the last part ends. */
  private Future<Exports.Page> fill(long user, int index, long after, List<Exports.Record> records) {
    if (index == PARTS.size()) {
      return Future.succeededFuture(new Exports.Page(records, null));
    }
    int room = pageSize - records.size();
    if (room == 0) {
      return Future.succeededFuture(new Exports.Page(records, index + ":" + after));
    }
    Part part = PARTS.get(index);
    JsonObject query = new JsonObject().put(part.owner(), user).put("_id", new JsonObject().put("$gt", after));
    return mongo.findWithOptions(part.collection(), query, new FindOptions()
        .setSort(new JsonObject().put("_id", 1)).setLimit(room)).compose(docs -> {
          docs.forEach(d -> records.add(new Exports.Record(part.file(), part.view().apply(d))));
          return docs.size() == room
              ? Future.succeededFuture(new Exports.Page(records, index + ":" + docs.get(room - 1).getLong("_id")))
              : fill(user, index + 1, 0L, records);
        });
  }

  /** A sanction as its user may see it: what, why, when, until when; not the moderator. */
  private static JsonObject sanction(JsonObject doc) {
    JsonObject out = new JsonObject().put("id", doc.getLong("_id")).put("kind", doc.getString("kind"))
        .put("reason", doc.getString("reason")).put("at", doc.getLong("at")).put("until", doc.getLong("until"));
    if (doc.getLong("report_id") != null) {
      out.put("report_id", doc.getLong("report_id"));
    }
    return out;
  }

  /** An appeal as its appellant may see it: no moderator on either decision. */
  private static JsonObject appeal(JsonObject doc) {
    JsonObject appealed = doc.getJsonObject("appealed", new JsonObject()).copy();
    appealed.remove("by");
    JsonObject out = new JsonObject().put("id", doc.getLong("_id")).put("appealed", appealed)
        .put("text", doc.getString("text")).put("state", doc.getString("state")).put("created", doc.getLong("created"));
    JsonObject decision = doc.getJsonObject("decision");
    if (decision != null) {
      out.put("decision", new JsonObject().put("decision", decision.getString("decision"))
          .put("at", decision.getLong("at")));
    }
    return out;
  }
}
