package io.kith.feeds.service;

import io.kith.platform.metrics.KithMetrics;
import io.kith.platform.store.LuaScripts;
import io.kith.platform.store.ParsedCopies;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Post documents cached in Redis for the read paths (timelines, post views, and the visibility checks other modules
 * ask for with {@code visiblePosts}, such as each notifications page), cache-aside with a version guard:
 * {@code feed:{p:<id>}} holds the document as JSON for {@code feeds.post-cache-ttl-seconds} from its fill (reads do
 * not renew it: a hot post is read from MongoDB once per that period), {@code feed:{p:<id>}:v} counts changes.
 * Every change of a post (counters, edit, delete) bumps the version and drops the copy after MongoDB changed; a reader
 * that missed reads the version before MongoDB and stores its copy only if the version did not move meanwhile, so a
 * slow reader never puts back a document older than a change. Write paths read MongoDB directly.
 *
 * <p>Parsing the copies is a good part of a timeline read's CPU, so each node also keeps the parsed documents of the
 * posts it read last ({@link #PARSED_MAX}) with the bytes they were parsed from, and reuses one only while Redis
 * answers exactly those bytes: Redis stays the only source, and a changed (or dropped and refilled) copy is parsed
 * afresh. The documents handed out are therefore shared: callers must not change them.
 */
final class PostCache {

  /** Most parsed documents kept on this node. */
  static final int PARSED_MAX = 4_096;
  private static final LuaScripts.Script FILL = LuaScripts.load(PostCache.class, "post-cache-fill.lua");
  private static final LuaScripts.Script BUMP = LuaScripts.load(PostCache.class, "post-cache-bump.lua");

  private final Redis redis;
  private final PostStore posts;
  private final ParsedCopies parsed = new ParsedCopies(PARSED_MAX);
  private final long ttlSeconds;
  private final Counter hits;
  private final Counter misses;

  /**
   * A cache whose copies live {@code ttlSeconds} and whose hits and misses count on {@code metrics}
   * ({@value KithMetrics#POST_COPIES}).
   */
  PostCache(Redis redis, PostStore posts, long ttlSeconds, KithMetrics metrics) {
    this.redis = redis;
    this.posts = posts;
    this.ttlSeconds = ttlSeconds;
    this.hits = copies(metrics, "hit");
    this.misses = copies(metrics, "miss");
  }

  /** A cache with the configured default life, whose hits and misses nothing publishes (tests). */
  PostCache(Redis redis, PostStore posts) {
    this(redis, posts, FeedsSettings.from(new JsonObject()).postCacheTtlSeconds(), KithMetrics.unpublished());
  }

  private static Counter copies(KithMetrics metrics, String result) {
    return Counter.builder(KithMetrics.POST_COPIES).description("Post documents looked up in the Redis post cache "
        + "by reads, by result (miss: read from MongoDB)").tag("result", result).register(metrics.registry());
  }

  static String key(long id) {
    return "feed:{p:" + id + "}";
  }

  /** Posts by id (deleted ones included), from Redis where cached, else from MongoDB (then cached). */
  Future<Map<Long, JsonObject>> getAll(Collection<Long> ids) {
    List<Long> list = List.copyOf(new LinkedHashSet<>(ids));
    if (list.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    return redis.batch(requests(list)).compose(replies -> complete(list, replies, 0), e -> posts.findAll(list));
  }

  /**
   * The request that reads these posts, to send in a batch with other reads of a page: one {@code MGET} of each
   * post's copy and version, which a Redis Cluster client sends as one MGET per slot (platform README, "Redis
   * Cluster"); {@link #complete} reads its answer.
   */
  List<Request> requests(List<Long> ids) {
    Request mget = Request.cmd(Command.MGET);
    for (long id : ids) {
      mget.arg(key(id)).arg(key(id) + ":v");
    }
    return List.of(mget);
  }

  /**
   * The posts asked with {@link #requests} (its answer at {@code replies[at]}): the cached copies, and the misses
   * from MongoDB, cached if their version did not move since it was read.
   */
  Future<Map<Long, JsonObject>> complete(List<Long> ids, List<Response> replies, int at) {
    Map<Long, JsonObject> out = new HashMap<>();
    Map<Long, String> versions = new HashMap<>();
    Response all = replies.get(at);
    for (int i = 0; i < ids.size(); i++) {
      Response doc = all.get(2 * i);
      if (doc != null) {
        out.put(ids.get(i), parsed.parse(ids.get(i), doc));
      } else {
        Response v = all.get(2 * i + 1);
        versions.put(ids.get(i), v == null ? "0" : v.toString());
      }
    }
    hits.increment(out.size());
    misses.increment(versions.size());
    if (versions.isEmpty()) {
      return Future.succeededFuture(out);
    }
    return posts.findAll(versions.keySet()).compose(found -> {
      out.putAll(found);
      List<List<Object>> fills = new ArrayList<>(found.size());
      found.forEach((id, doc) -> fills.add(List.of(2, key(id), key(id) + ":v", versions.get(id), doc.encode(),
          ttlSeconds)));
      return fills.isEmpty() ? Future.succeededFuture(out)
          : FILL.batch(redis, fills).map(x -> out).recover(e -> Future.succeededFuture(out));
    });
  }

  /**
   * The author of a post this node parsed lately, or null: known before its copy is read again, and exact, since a
   * post never changes author (whether it still exists or may be seen is for the copy to say). Only ids read from a
   * copy are known: nothing here is ever taken for the copy itself.
   */
  Long knownAuthor(long id) {
    JsonObject known = parsed.lastParsed(id);
    return known == null ? null : known.getLong("author");
  }

  /** The original of a repost this node parsed lately (0: not a repost), or null: fixed too. */
  Long knownOriginal(long id) {
    JsonObject known = parsed.lastParsed(id);
    return known == null ? null : known.getLong("repost_of", 0L);
  }

  /** Drops the cached copy of a post that just changed in MongoDB. */
  Future<Void> changed(long id) {
    return BUMP.run(redis, List.of(2, key(id), key(id) + ":v", 2 * ttlSeconds)).mapEmpty();
  }
}
