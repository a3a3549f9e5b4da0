package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cache-aside copies of account documents (without password hashes) in Redis: hash {@code user:<id>} with field
 * {@code doc} (the JSON document), expiring after {@code accounts.profile-cache-ttl-seconds}, deleted on every write.
 * MongoDB is the record; a miss reads it and fills the cache.
 */
final class ProfileCache {

  private final Redis redis;
  private final AccountStore store;
  private final long ttlSeconds;

  ProfileCache(Redis redis, AccountStore store, long ttlSeconds) {
    this.redis = redis;
    this.store = store;
    this.ttlSeconds = ttlSeconds;
  }

  static String key(long id) {
    return "user:" + id;
  }

  /** The account, from the cache or the store; null when it does not exist. */
  Future<JsonObject> get(long id) {
    return getAll(List.of(id)).map(m -> m.get(id));
  }

  /** Accounts by id from the cache, misses from the store in one query; unknown ids are absent. */
  Future<Map<Long, JsonObject>> getAll(Collection<Long> ids) {
    List<Long> order = new ArrayList<>(new java.util.LinkedHashSet<>(ids));
    if (order.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    List<Request> reads = new ArrayList<>();
    for (Long id : order) {
      reads.add(Request.cmd(Command.HGET).arg(key(id)).arg("doc"));
    }
    return redis.batch(reads).compose(replies -> {
      Map<Long, JsonObject> found = new HashMap<>();
      List<Long> misses = new ArrayList<>();
      for (int i = 0; i < order.size(); i++) {
        Response r = replies.get(i);
        if (r == null) {
          misses.add(order.get(i));
        } else {
          found.put(order.get(i), new JsonObject(r.toString()));
        }
      }
      if (misses.isEmpty()) {
        return Future.succeededFuture(found);
      }
      return store.byIds(misses).compose(docs -> {
        List<Request> writes = new ArrayList<>();
        for (JsonObject doc : docs) {
          long id = doc.getLong("_id");
          found.put(id, doc);
          writes.add(Request.cmd(Command.HSET).arg(key(id)).arg("doc").arg(doc.encode()));
          writes.add(Request.cmd(Command.EXPIRE).arg(key(id)).arg(ttlSeconds));
        }
        if (writes.isEmpty()) {
          return Future.succeededFuture(found);
        }
        // a failed cache fill only costs a later miss
        return redis.batch(writes).map(x -> found).otherwise(found);
      });
    });
  }

  /** Replaces the cached copy with the document just written to the record. */
  Future<Void> put(JsonObject doc) {
    long id = doc.getLong("_id");
    return redis.batch(List.of(
            Request.cmd(Command.HSET).arg(key(id)).arg("doc").arg(doc.encode()),
            Request.cmd(Command.EXPIRE).arg(key(id)).arg(ttlSeconds)))
        .<Void>mapEmpty()
        .recover(e -> invalidate(id));
  }

  /** Drops the cached copy (after a write to the record). */
  Future<Void> invalidate(long id) {
    return redis.send(Request.cmd(Command.DEL).arg(key(id))).mapEmpty();
  }
}
