package io.kith.moderation.service;

import io.kith.platform.id.IdGenerator;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;

/**
 * The append-only audit log of operator actions, in MongoDB collection {@value #COLLECTION}:
 * {@code {_id, at, actor, action, target: {type, id}, details}}. Nothing updates or deletes an entry.
 */
final class AuditLog {

  static final String COLLECTION = "moderation_audit";

  private final MongoClient mongo;
  private final IdGenerator ids;

  AuditLog(MongoClient mongo, IdGenerator ids) {
    this.mongo = mongo;
    this.ids = ids;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("action", 1).put("_id", -1),
        new IndexOptions().name("by_action"));
  }

  /** Appends one entry; {@code targetType} may be null for an action without a target. */
  Future<Void> append(long actor, String action, String targetType, long targetId, JsonObject details) {
    JsonObject entry = new JsonObject().put("_id", ids.next()).put("at", System.currentTimeMillis())
        .put("actor", actor).put("action", action).put("details", details);
    if (targetType != null) {
      entry.put("target", new JsonObject().put("type", targetType).put("id", targetId));
    }
    return mongo.insert(COLLECTION, entry).mapEmpty();
  }

  /** Entries newest first, filtered by {@code action}, {@code actor} and {@code target_id}. */
  Future<Page> list(JsonObject filter, PageRequest page) {
    JsonObject query = new JsonObject();
    if (filter.getString("action") != null) {
      query.put("action", filter.getString("action"));
    }
    if (filter.getLong("actor") != null) {
      query.put("actor", filter.getLong("actor"));
    }
    if (filter.getLong("target_id") != null) {
      query.put("target.id", filter.getLong("target_id"));
    }
    int limit = Pages.limit(page);
    if (page.maxId() > 0) {
      query.put("_id", new JsonObject().put("$lt", page.maxId()));
    }
    return mongo.findWithOptions(COLLECTION, query, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit + 1)).map(docs -> Pages.byId(docs, limit, AuditLog::view));
  }

  private static JsonObject view(JsonObject doc) {
    JsonObject out = doc.copy();
    out.put("id", out.remove("_id"));
    return out;
  }
}
