package io.kith.moderation.service;

import io.kith.moderation.api.ContentFilterErrors;
import io.kith.moderation.api.ContentFiltersService;
import io.kith.moderation.api.Moderation;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.text.ContentFilters;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;

/**
 * The filter lists in MongoDB collection {@link ContentFilters#COLLECTION}: validated by the same code that compiles
 * them on every node, audited, and announced on {@link ContentFilters#CHANGED_ADDRESS} after each write.
 */
final class ContentFiltersServiceImpl implements ContentFiltersService {

  // a list read whole by every node every few seconds: bounded so it stays cheap to load and to match
  static final int MAX_FILTERS = 1_000;

  private final Vertx vertx;
  private final MongoClient mongo;
  private final Roles roles;
  private final AuditLog audit;
  private final IdGenerator ids;

  ContentFiltersServiceImpl(Vertx vertx, MongoClient mongo, Roles roles, AuditLog audit, IdGenerator ids) {
    this.vertx = vertx;
    this.mongo = mongo;
    this.roles = roles;
    this.audit = audit;
    this.ids = ids;
  }

  @Override
  public Future<JsonObject> add(long actor, JsonObject filter) {
    // the role first, so a user learns nothing about what a filter may be
    return roles.require(actor, Moderation.ADMIN)
        .map(r -> category(filter))
        .map(r -> ContentFilters.validate(filter).put("_id", ids.next()).put("created_by", actor)
            .put("created_at", System.currentTimeMillis()))
        .compose(doc -> mongo.count(ContentFilters.COLLECTION, new JsonObject())
            .compose(n -> n >= MAX_FILTERS
                ? Failures.<Void>fail(ContentFilterErrors.LIMIT_REACHED, "at most " + MAX_FILTERS + " filters")
                : Future.succeededFuture())
            .compose(v -> mongo.insert(ContentFilters.COLLECTION, doc))
            .compose(v -> changed(actor, "filter.add", doc))
            .map(v -> view(doc)));
  }

  // the category of the reports a hold files: a report category, "other" when absent
  private static JsonObject category(JsonObject filter) {
    Object category = filter.getValue("category");
    if (category != null && !Moderation.CATEGORIES.contains(category)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "category", "category must be one of "
          + Moderation.CATEGORIES);
    }
    return filter;
  }

  @Override
  public Future<JsonObject> list(long actor) {
    return roles.require(actor, Moderation.MODERATOR)
        .compose(r -> mongo.findWithOptions(ContentFilters.COLLECTION, new JsonObject(),
            new FindOptions().setSort(new JsonObject().put("_id", -1))))
        .map(docs -> new JsonObject().put("items", new JsonArray(docs.stream().map(ContentFiltersServiceImpl::view)
            .toList())));
  }

  @Override
  public Future<Void> remove(long actor, long filterId) {
    JsonObject key = new JsonObject().put("_id", filterId);
    return roles.require(actor, Moderation.ADMIN)
        .compose(r -> mongo.findOneAndDelete(ContentFilters.COLLECTION, key))
        .compose(doc -> doc == null
            ? Failures.<Void>fail(ContentFilterErrors.FILTER_NOT_FOUND, "no filter " + filterId)
            : changed(actor, "filter.remove", doc));
  }

  // the audit entry first (an unaudited change must not spread), then every node reloads
  private Future<Void> changed(long actor, String action, JsonObject doc) {
    JsonObject details = new JsonObject().put("kind", doc.getString("kind")).put("value", doc.getString("value"))
        .put("action", doc.getString("action")).put("contexts", doc.getJsonArray("contexts"))
        .put("category", doc.getString("category"));
    return audit.append(actor, action, "filter", doc.getLong("_id"), details)
        .onSuccess(v -> vertx.eventBus().publish(ContentFilters.CHANGED_ADDRESS, doc.getLong("_id")));
  }

  private static JsonObject view(JsonObject doc) {
    JsonObject out = doc.copy();
    out.put("id", out.remove("_id"));
    return out;
  }
}
