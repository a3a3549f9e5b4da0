package io.kith.push.service.webhooks;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * Webhook endpoints in MongoDB ({@value #COLLECTION}): {@code {_id, url, events: [types or "*"], description,
 * source: "admin"|"config", config_url?, secrets: [{value, created, expires?}] (newest first), created}}.
 *
 * <p>Secrets are kept as they are, not hashed: signing needs them. An endpoint from configuration is keyed by its
 * URL ({@code config_url}, unique) so a restart updates it instead of adding a copy.
 */
final class WebhookEndpoints {

  static final String COLLECTION = "webhook_endpoints";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final MongoClient mongo;

  WebhookEndpoints(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("config_url", 1),
        new IndexOptions().name("config_url_unique").unique(true).sparse(true));
  }

  /** A new signing secret: 32 random bytes, {@code whsec_} and base64url. */
  static String newSecret() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  Future<JsonObject> insert(JsonObject endpoint) {
    return mongo.insert(COLLECTION, endpoint).map(id -> endpoint);
  }

  /**
   * Writes a configured endpoint over the one of the same URL (its secret too), or adds it with {@code newId}. (An
   * update, then an insert, rather than an upsert: the id must be a Kith id, which an upsert's {@code $setOnInsert}
   * of {@code _id} does not give on every server.) Two nodes starting at once race on the unique URL, and the loser
   * updates.
   */
  Future<Void> upsertConfigured(long newId, JsonObject endpoint) {
    String url = endpoint.getString("url");
    JsonObject set = endpoint.copy().put("config_url", url);
    set.remove("_id");
    set.remove("created");
    JsonObject byUrl = new JsonObject().put("config_url", url);
    JsonObject update = new JsonObject().put("$set", set);
    return mongo.updateCollection(COLLECTION, byUrl, update).compose(r -> r.getDocMatched() > 0
        ? Future.<Void>succeededFuture()
        : mongo.insert(COLLECTION, set.copy().put("_id", newId).put("created", endpoint.getLong("created")))
            .<Void>mapEmpty()
            .recover(e -> MongoErrors.isDuplicateKey(e)
                ? mongo.updateCollection(COLLECTION, byUrl, update).mapEmpty() : Future.failedFuture(e)));
  }

  /** Removes configured endpoints whose URL is no longer in the configuration. */
  Future<Void> dropConfiguredExcept(List<String> urls) {
    return mongo.removeDocuments(COLLECTION, new JsonObject().put("source", "config")
        .put("config_url", new JsonObject().put("$nin", new JsonArray(urls)))).mapEmpty();
  }

  Future<JsonObject> find(long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id), null);
  }

  Future<List<JsonObject>> all() {
    return mongo.findWithOptions(COLLECTION, new JsonObject(), new FindOptions().setSort(new JsonObject().put("_id", 1)));
  }

  /** Endpoints subscribed to {@code type}. */
  Future<List<JsonObject>> subscribedTo(String type) {
    return mongo.find(COLLECTION, new JsonObject().put("events", new JsonObject()
        .put("$in", new JsonArray().add(type).add(io.kith.push.api.Webhooks.ALL))));
  }

  Future<Boolean> remove(long id) {
    return mongo.removeDocuments(COLLECTION, new JsonObject().put("_id", id))
        .map(r -> r != null && r.getRemovedCount() > 0);
  }

  /** Puts {@code secret} first and gives the others {@code expires} (unless earlier); drops expired ones. */
  Future<Boolean> rotate(long id, String secret, long now, long expires) {
    return find(id).compose(endpoint -> {
      if (endpoint == null) {
        return Future.succeededFuture(false);
      }
      JsonArray kept = new JsonArray().add(new JsonObject().put("value", secret).put("created", now));
      for (Object o : endpoint.getJsonArray("secrets", new JsonArray())) {
        JsonObject s = ((JsonObject) o).copy();
        long until = Math.min(s.getLong("expires", Long.MAX_VALUE), expires);
        if (until > now) {
          kept.add(s.put("expires", until));
        }
      }
      return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id),
          new JsonObject().put("$set", new JsonObject().put("secrets", kept))).map(r -> true);
    });
  }

  /** The secrets valid at {@code now}, newest first. */
  static List<String> validSecrets(JsonObject endpoint, long now) {
    return endpoint.getJsonArray("secrets", new JsonArray()).stream().map(o -> (JsonObject) o)
        .filter(s -> s.getLong("expires", Long.MAX_VALUE) > now).map(s -> s.getString("value")).toList();
  }

  /** The endpoint as the admin API shows it (no secret). */
  static JsonObject view(JsonObject endpoint) {
    JsonObject v = new JsonObject().put("id", endpoint.getLong("_id")).put("url", endpoint.getString("url"))
        .put("events", endpoint.getJsonArray("events", new JsonArray()))
        .put("description", endpoint.getString("description", ""))
        .put("source", endpoint.getString("source", "admin")).put("created", endpoint.getLong("created"));
    JsonArray secrets = endpoint.getJsonArray("secrets", new JsonArray());
    if (secrets.size() > 1) {
      v.put("previous_secret_expires", secrets.getJsonObject(1).getLong("expires"));
    }
    return v;
  }
}
