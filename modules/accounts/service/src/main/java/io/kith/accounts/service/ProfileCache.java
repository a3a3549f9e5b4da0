package io.kith.accounts.service;

import io.kith.platform.store.LuaScripts;
import io.kith.platform.store.ParsedCopies;
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
 * Cache-aside copies of account documents (without password hashes) in Redis: string {@code user:<id>:doc}, the JSON
 * document with its version (field {@code v}, see {@link AccountStore#VERSION}), expiring after
 * {@code accounts.profile-cache-ttl-seconds}. MongoDB is the record; a miss reads it and fills the cache, and every
 * write puts the document it wrote. A page's accounts are one {@code MGET} (one per slot on a Redis Cluster), which
 * is why the copy is a string and not a hash (one HGET per account was a quarter of a home page's Redis commands).
 *
 * <p>Both go through one compare-and-set that only replaces a cached copy of a lower version: a miss that read the
 * record before a write and fills the cache after the write's put cannot bring the older copy back.
 *
 * <p>Parsing the copies was a tenth of a home timeline read's CPU (author summaries), so each node also keeps the
 * parsed documents of the accounts it read last ({@link #PARSED_MAX}) with the bytes they were parsed from, and reuses
 * one only while Redis answers exactly those bytes: Redis stays the only source, and a changed (or dropped and
 * refilled) copy is parsed afresh. The documents handed out are therefore shared: callers must not change them.
 */
final class ProfileCache {

  private static final LuaScripts.Script PUT = LuaScripts.load(ProfileCache.class, "profile-put.lua");

  /** Most parsed documents kept on this node. */
  static final int PARSED_MAX = 4_096;

  private final Redis redis;
  private final AccountStore store;
  private final long ttlSeconds;
  private final ParsedCopies parsed = new ParsedCopies(PARSED_MAX);

  ProfileCache(Redis redis, AccountStore store, long ttlSeconds) {
    this.redis = redis;
    this.store = store;
    this.ttlSeconds = ttlSeconds;
  }

  static String key(long id) {
    return "user:" + id + ":doc";
  }

  /** The account, from the cache or the store; null when it does not exist. */
  Future<JsonObject> get(long id) {
    return getAll(List.of(id)).map(m -> m.get(id));
  }

  /**
   * Accounts by id from the cache, misses from the store in one query; unknown ids, and accounts pending deletion or
   * erased, are absent. The documents may be
   * shared with other readers: do not change them.
   */
  Future<Map<Long, JsonObject>> getAll(Collection<Long> ids) {
    List<Long> order = new ArrayList<>(new java.util.LinkedHashSet<>(ids));
    if (order.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    Request mget = Request.cmd(Command.MGET);
    order.forEach(id -> mget.arg(key(id)));
    return redis.send(mget).compose(replies -> {
      Map<Long, JsonObject> found = new HashMap<>();
      List<Long> misses = new ArrayList<>();
      for (int i = 0; i < order.size(); i++) {
        Response r = replies.get(i);
        if (r == null) {
          misses.add(order.get(i));
        } else {
          JsonObject doc = parsed.parse(order.get(i), r);
          // an account pending deletion (or suspended) is cached with its mark, and answers like a missing one
          if (!Deletion.marked(doc) && !Suspension.active(doc)) {
            found.put(order.get(i), doc);
          }
        }
      }
      if (misses.isEmpty()) {
        return Future.succeededFuture(found);
      }
      return store.byIds(misses).compose(docs -> {
        List<Future<Void>> fills = new ArrayList<>();
        for (JsonObject doc : docs) {
          found.put(doc.getLong("_id"), doc);
          fills.add(fill(doc));
        }
        // a failed cache fill only costs a later miss
        return Future.join(fills).transform(x -> Future.succeededFuture(found));
      });
    });
  }

  /** Fills the cache with a document read from the record on a miss, unless a newer copy is cached meanwhile. */
  Future<Void> fill(JsonObject doc) {
    return PUT.run(redis, putArgs(doc)).mapEmpty();
  }

  private List<Object> putArgs(JsonObject doc) {
    return List.of(1, key(doc.getLong("_id")), doc.encode(), doc.getLong(AccountStore.VERSION, 0L), ttlSeconds);
  }

  /** Replaces the cached copy with the document just written to the record (unless a newer one got there first). */
  Future<Void> put(JsonObject doc) {
    // when the put fails, drop the copy rather than leave an older one for the TTL
    return fill(doc).recover(e -> invalidate(doc.getLong("_id")));
  }

  /** {@link #put} for many documents, pipelined; when the batch fails, their copies are dropped instead. */
  Future<Void> putAll(List<JsonObject> docs) {
    if (docs.isEmpty()) {
      return Future.succeededFuture();
    }
    List<List<Object>> puts = new ArrayList<>(docs.size());
    List<Request> drops = new ArrayList<>(docs.size());
    for (JsonObject doc : docs) {
      puts.add(putArgs(doc));
      drops.add(Request.cmd(Command.DEL).arg(key(doc.getLong("_id"))));
    }
    // a put is safe to run twice (the batch is sent again by text when Redis does not know the script)
    return PUT.batch(redis, puts).<Void>mapEmpty().recover(e -> redis.batch(drops).mapEmpty());
  }

  /** Drops the cached copy. */
  Future<Void> invalidate(long id) {
    return redis.send(Request.cmd(Command.DEL).arg(key(id))).mapEmpty();
  }
}
