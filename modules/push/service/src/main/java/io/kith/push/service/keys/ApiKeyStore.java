package io.kith.push.service.keys;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;

import java.util.List;

/**
 * API keys in MongoDB ({@value #COLLECTION}): {@code {_id, name, scopes, hash, created, last_used?, revoked?}};
 * {@code hash}, the SHA-256 of the key (unique), is how a presented key is found: the key itself is never stored.
 */
final class ApiKeyStore {

  static final String COLLECTION = "api_keys";
  /** A key's last use is written at most this often (a busy backend would otherwise write on every call). */
  static final long LAST_USED_EVERY_MS = 60_000;

  private final MongoClient mongo;

  ApiKeyStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("hash", 1),
        new IndexOptions().name("hash_unique").unique(true));
  }

  Future<Void> insert(JsonObject key) {
    return mongo.insert(COLLECTION, key).mapEmpty();
  }

  Future<JsonObject> byHash(String hash) {
    return mongo.findOne(COLLECTION, new JsonObject().put("hash", hash), null);
  }

  Future<List<JsonObject>> all() {
    return mongo.findWithOptions(COLLECTION, new JsonObject(),
        new FindOptions().setSort(new JsonObject().put("_id", 1)));
  }

  /** Marks a key revoked (keeping an earlier revocation time); null when there is no such key. */
  Future<JsonObject> revoke(long id, long now) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id).put("revoked", null),
            new JsonObject().put("$set", new JsonObject().put("revoked", now)))
        .compose(r -> mongo.findOne(COLLECTION, new JsonObject().put("_id", id), null));
  }

  /** Records a use, unless one was recorded within {@link #LAST_USED_EVERY_MS}. */
  Future<Void> used(long id, long now) {
    JsonArray stale = new JsonArray().add(new JsonObject().put("last_used", null))
        .add(new JsonObject().put("last_used", new JsonObject().put("$lt", now - LAST_USED_EVERY_MS)));
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id).put("$or", stale),
        new JsonObject().put("$set", new JsonObject().put("last_used", now))).mapEmpty();
  }

  /** A key as the admin API shows it (never its hash). */
  static JsonObject view(JsonObject key) {
    JsonObject v = new JsonObject().put("id", key.getLong("_id")).put("name", key.getString("name"))
        .put("scopes", key.getJsonArray("scopes")).put("created", key.getLong("created"));
    for (String optional : List.of("last_used", "revoked")) {
      if (key.getValue(optional) != null) {
        v.put(optional, key.getValue(optional));
      }
    }
    return v;
  }
}
