package io.kith.relations.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Copies of users' follower lists in Redis, for the fan-out's follower pages ({@code eligibleFollowers}): a sorted set
 * {@code rel:{u:<id>}:fl} of follower ids scored by follow-edge id (the paging key of the {@code edges} collection, so
 * a cursor means the same from either), plus the member {@code v} scored {@code -1 - version}: the follower version
 * the copy was taken at, below every edge id, in the same key so that it expires with the list.
 *
 * <p>The version is {@code fv} in the user's {@code relation_counts} document, incremented in the same update as the
 * follower count by every follow and unfollow ({@link EdgeStore#incFollowers}), after the edge changed. A page is
 * served from the copy only while the copy's version equals the current one (checked with the page, atomically, by a
 * script); otherwise the list is loaded from MongoDB and stored with the version read <em>before</em> loading. So a
 * copy never stands for a list that a finished follow or unfollow changed: an edge written while a copy was being
 * taken bumps the version after it, and the copy is taken again on the next page. What a page may miss is only a
 * follow still in progress (its count not yet updated), exactly as a MongoDB read made a moment earlier would; the
 * follow's own backfill then brings the author's recent posts. A copy whose version could no longer move (a node died
 * between an edge write and its count update) lives at most {@link #TTL_SECONDS}.
 *
 * <p>Only lists of at most {@link #MAX} followers are copied (the authors who are fanned out); longer lists page from
 * MongoDB.
 */
final class FollowerLists {

  /** Longest list copied to Redis. */
  static final int MAX = RelationsServiceImpl.MAX_FOLLOWER_PAGE;
  /** A copy unused this long expires; reading a page renews it. */
  static final long TTL_SECONDS = 600;
  private static final Logger LOG = LoggerFactory.getLogger(FollowerLists.class);
  // KEYS: the list. ARGV: version, max score ("(<cursor>" or "+inf"), page size, ttl. False when the copy is missing or
  // of another version; else {followers newest first, the edge id of the last one when more follow (else false)}.
  private static final LuaScripts.Script READ = new LuaScripts.Script(
      "local v = redis.call('zscore', KEYS[1], 'v') "
          + "if not v or tonumber(v) ~= -1 - tonumber(ARGV[1]) then return false end "
          + "redis.call('expire', KEYS[1], ARGV[4]) "
          + "local n = tonumber(ARGV[3]) "
          + "local page = redis.call('zrevrangebyscore', KEYS[1], ARGV[2], '0', 'LIMIT', 0, n + 1) "
          + "local next = false "
          + "if #page > n then page[#page] = nil next = redis.call('zscore', KEYS[1], page[#page]) end "
          + "return {page, next}");
  // KEYS: the list. ARGV: version, ttl, then edge id, follower pairs. A copy of a newer version is kept.
  private static final LuaScripts.Script STORE = new LuaScripts.Script(
      "local v = redis.call('zscore', KEYS[1], 'v') "
          + "if v and -1 - tonumber(v) > tonumber(ARGV[1]) then return 0 end "
          + "redis.call('del', KEYS[1]) "
          + "redis.call('zadd', KEYS[1], -1 - tonumber(ARGV[1]), 'v') "
          + "for i = 3, #ARGV, 1000 do redis.call('zadd', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV))) end "
          + "redis.call('expire', KEYS[1], ARGV[2]) return 1");

  private final RedisAPI api;
  private final EdgeStore edges;

  FollowerLists(Redis redis, EdgeStore edges) {
    this.api = RedisAPI.api(redis);
    this.edges = edges;
  }

  static String key(long user) {
    return "rel:{u:" + user + "}:fl";
  }

  /**
   * A page of one user's followers, newest first, and the cursor of the next page: the edge id of the last follower
   * when more follow, else null.
   */
  record Page(long[] followers, Long next) {

    /** The page of at most {@code n} of these edges ({@code {_id, a}}, newest first), {@code n + 1} telling more. */
    static Page of(List<JsonObject> docs, int n) {
      int size = Math.min(n, docs.size());
      long[] followers = new long[size];
      for (int i = 0; i < size; i++) {
        followers[i] = docs.get(i).getLong("a");
      }
      return new Page(followers, docs.size() > n ? docs.get(n - 1).getLong("_id") : null);
    }
  }

  /**
   * Up to {@code n} followers of {@code user} whose follow edges are older than {@code before} (null: from the
   * newest), newest first: from the Redis copy when it is current, else from MongoDB.
   */
  Future<Page> page(long user, Long before, int n) {
    return edges.followerVersion(user).compose(v -> {
      if (v.count() > MAX) {
        return edges.ends(EdgeStore.FOLLOW, "b", user, before, n + 1, "a").map(docs -> Page.of(docs, n));
      }
      return read(user, v.version(), before, n).compose(hit -> hit != null ? Future.succeededFuture(hit)
          : load(user, v.version(), before, n));
    });
  }

  private Future<Page> read(long user, long version, Long before, int n) {
    return READ.run(api, List.of("1", key(user), Long.toString(version), before == null ? "+inf" : "(" + before,
        Integer.toString(n), Long.toString(TTL_SECONDS))).map(r -> {
          if (r == null) {
            return null;
          }
          Response items = r.get(0);
          long[] followers = new long[items.size()];
          for (int i = 0; i < followers.length; i++) {
            followers[i] = items.get(i).toLong();
          }
          Response next = r.get(1);
          // scores are edge ids below 2^53: exact as doubles
          return new Page(followers, next == null ? null : (long) Double.parseDouble(next.toString()));
        });
  }

  /** Loads the whole list, stores it when it fits, and answers the page from it. */
  private Future<Page> load(long user, long version, Long before, int n) {
    return edges.ends(EdgeStore.FOLLOW, "b", user, null, MAX + 1, "a").compose(all -> {
      if (all.size() > MAX) {
        // the count said otherwise (it lags a follow in progress): page from MongoDB this time
        return edges.ends(EdgeStore.FOLLOW, "b", user, before, n + 1, "a").map(docs -> Page.of(docs, n));
      }
      return store(user, version, all).map(v -> {
        int from = 0;
        while (before != null && from < all.size() && all.get(from).getLong("_id") >= before) {
          from++;
        }
        return Page.of(all.subList(from, Math.min(all.size(), from + n + 1)), n);
      });
    });
  }

  private Future<Void> store(long user, long version, List<JsonObject> all) {
    List<String> args = new ArrayList<>(4 + 2 * all.size());
    args.add("1");
    args.add(key(user));
    args.add(Long.toString(version));
    args.add(Long.toString(TTL_SECONDS));
    for (JsonObject edge : all) {
      args.add(Long.toString(edge.getLong("_id")));
      args.add(Long.toString(edge.getLong("a")));
    }
    // the page is answered from what was loaded either way; a failed store only costs the next page a load
    return STORE.run(api, args).<Void>mapEmpty().recover(e -> {
      LOG.warn("Could not store the follower list of {}: {}", user, e.toString());
      return Future.succeededFuture();
    });
  }
}
