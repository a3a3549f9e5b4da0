package io.kith.push.service.webhooks;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;

/**
 * The record of webhook deliveries in MongoDB ({@value #COLLECTION}): {@code {_id, endpoint, event_id, key?, type,
 * resource, seq, body, state: "pending"|"delivered"|"dead", attempts, created, next_at, lease_until, delivered?,
 * replay_of?, last?: <answer>, history: [<answer>]}}, an answer being {@code {at, status?, latency_ms, body?,
 * error?}}.
 *
 * <p>{@code key} ({@code <endpoint>:<event id>:<type>}, unique) makes a redelivered domain event queue nothing new;
 * replays have none. {@code seq} orders a resource's queue: the domain event's id (time-ordered), a replay's own id.
 */
final class WebhookDeliveries {

  static final String COLLECTION = "webhook_deliveries";
  static final String PENDING = "pending";
  static final String DELIVERED = "delivered";
  static final String DEAD = "dead";
  /** Answers kept per delivery (the latest ones). */
  static final int HISTORY = 20;

  private final MongoClient mongo;

  WebhookDeliveries(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("key", 1),
            new IndexOptions().name("key_unique").unique(true).sparse(true))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("endpoint", 1).put("_id", -1),
            new IndexOptions().name("endpoint_newest")))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("state", 1).put("seq", 1),
            new IndexOptions().name("state_seq")));
  }

  /** Queues a delivery; a duplicate of its {@code key} is left as it is. */
  Future<Void> enqueue(JsonObject delivery) {
    return mongo.insert(COLLECTION, delivery).<Void>mapEmpty()
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture() : Future.failedFuture(e));
  }

  /** The oldest pending deliveries, in queue order: {@code {_id, endpoint, resource, next_at, lease_until}}. */
  Future<List<JsonObject>> pending(int batch) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("state", PENDING), new FindOptions()
        .setSort(new JsonObject().put("seq", 1).put("_id", 1)).setLimit(batch)
        .setFields(new JsonObject().put("_id", 1).put("endpoint", 1).put("resource", 1).put("next_at", 1)
            .put("lease_until", 1)));
  }

  /** Takes a pending delivery for one attempt until {@code until}; null when another node holds it or it settled. */
  Future<JsonObject> claim(long id, long now, long until) {
    return mongo.findOneAndUpdate(COLLECTION, new JsonObject().put("_id", id).put("state", PENDING)
            .put("lease_until", new JsonObject().put("$lte", now)),
        new JsonObject().put("$set", new JsonObject().put("lease_until", until)));
  }

  /** Records an attempt's answer and the delivery's new state ({@code set}: state, next_at, delivered...). */
  Future<Void> record(long id, JsonObject answer, JsonObject set) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id), new JsonObject()
        .put("$set", set.copy().put("last", answer).put("lease_until", 0L))
        .put("$inc", new JsonObject().put("attempts", 1))
        .put("$push", new JsonObject().put("history", new JsonObject()
            .put("$each", new io.vertx.core.json.JsonArray().add(answer)).put("$slice", -HISTORY)))).mapEmpty();
  }

  /** Ends every pending delivery of a removed endpoint. */
  Future<Void> abandon(long endpoint, long now) {
    return mongo.updateCollectionWithOptions(COLLECTION, new JsonObject().put("endpoint", endpoint)
            .put("state", PENDING), new JsonObject().put("$set", new JsonObject().put("state", DEAD)
            .put("last", new JsonObject().put("at", now).put("error", "endpoint removed"))),
        new UpdateOptions().setMulti(true)).mapEmpty();
  }

  Future<JsonObject> find(long endpoint, long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id).put("endpoint", endpoint), null);
  }

  /** The endpoint's deliveries older than {@code maxId} (0: the newest), newest first, {@code limit} of them. */
  Future<List<JsonObject>> page(long endpoint, long maxId, int limit) {
    JsonObject query = new JsonObject().put("endpoint", endpoint);
    if (maxId > 0) {
      query.put("_id", new JsonObject().put("$lt", maxId));
    }
    return mongo.findWithOptions(COLLECTION, query, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit));
  }

  /** A delivery as the admin API shows it. */
  static JsonObject view(JsonObject d) {
    JsonObject v = new JsonObject().put("id", d.getLong("_id")).put("event_id", d.getLong("event_id"))
        .put("type", d.getString("type")).put("resource", d.getString("resource"))
        .put("state", d.getString("state")).put("attempts", d.getInteger("attempts", 0))
        .put("created", d.getLong("created"));
    if (PENDING.equals(d.getString("state"))) {
      v.put("next_attempt", d.getLong("next_at"));
    }
    for (String optional : List.of("delivered", "replay_of", "last")) {
      if (d.getValue(optional) != null) {
        v.put(optional, d.getValue(optional));
      }
    }
    v.put("history", d.getJsonArray("history", new io.vertx.core.json.JsonArray()));
    return v;
  }
}
