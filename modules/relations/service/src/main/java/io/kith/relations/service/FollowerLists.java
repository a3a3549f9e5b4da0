package io.kith.relations.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
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
  // KEYS: the list. ARGV: version, max score ("(<cursor>" or "+inf"), count, ttl. False when the copy is missing or of
  // another version; else [follower, edge id, ...] newest first.
  private static final LuaScripts.Script READ = new LuaScripts.Script(
      "local v = redis.call('zscore', KEYS[1], 'v') "
          + "if not v or tonumber(v) ~= -1 - tonumber(ARGV[1]) then return false end "
          + "redis.call('expire', KEYS[1], ARGV[4]) "
          + "return redis.call('zrevrangebyscore', KEYS[1], ARGV[2], '0', 'WITHSCORES', 'LIMIT', 0, ARGV[3])");
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

  /** Follow edges into one user, newest first: the edge ids (the paging key) and the followers. */
  record Page(long[] edges, long[] followers) {

    int size() {
      return edges.length;
    }

    static Page of(List<JsonObject> docs) {
      long[] edges = new long[docs.size()];
      long[] followers = new long[docs.size()];
      for (int i = 0; i < edges.length; i++) {
        edges[i] = docs.get(i).getLong("_id");
        followers[i] = docs.get(i).getLong("a");
      }
      return new Page(edges, followers);
    }
  }

  /**
   * Up to {@code limit} follow edges into {@code user} older than {@code before} (null: from the newest), newest
   * first: from the Redis copy when it is current, else from MongoDB.
   */
  Future<Page> page(long user, Long before, int limit) {
    return edges.followerVersion(user).compose(v -> {
      if (v.count() > MAX) {
        return edges.ends(EdgeStore.FOLLOW, "b", user, before, limit, "a").map(Page::of);
      }
      return read(user, v.version(), before, limit).compose(hit -> hit != null ? Future.succeededFuture(hit)
          : load(user, v.version(), before, limit));
    });
  }

  private Future<Page> read(long user, long version, Long before, int limit) {
    return READ.run(api, List.of("1", key(user), Long.toString(version), before == null ? "+inf" : "(" + before,
        Integer.toString(limit), Long.toString(TTL_SECONDS))).map(r -> {
          if (r == null) {
            return null;
          }
          int n = r.size() / 2;
          long[] edges = new long[n];
          long[] followers = new long[n];
          for (int i = 0; i < n; i++) {
            followers[i] = r.get(2 * i).toLong();
            // scores are edge ids below 2^53: exact as doubles
            edges[i] = (long) Double.parseDouble(r.get(2 * i + 1).toString());
          }
          return new Page(edges, followers);
        });
  }

  /** Loads the whole list, stores it when it fits, and answers the page from it. */
  private Future<Page> load(long user, long version, Long before, int limit) {
    return edges.ends(EdgeStore.FOLLOW, "b", user, null, MAX + 1, "a").compose(all -> {
      if (all.size() > MAX) {
        // the count said otherwise (it lags a follow in progress): page from MongoDB this time
        return edges.ends(EdgeStore.FOLLOW, "b", user, before, limit, "a").map(Page::of);
      }
      Page whole = Page.of(all);
      return store(user, version, whole).map(v -> slice(whole, before, limit));
    });
  }

  private Future<Void> store(long user, long version, Page all) {
    List<String> args = new ArrayList<>(4 + 2 * all.size());
    args.add("1");
    args.add(key(user));
    args.add(Long.toString(version));
    args.add(Long.toString(TTL_SECONDS));
    for (int i = 0; i < all.size(); i++) {
      args.add(Long.toString(all.edges()[i]));
      args.add(Long.toString(all.followers()[i]));
    }
    // the page is answered from what was loaded either way; a failed store only costs the next page a load
    return STORE.run(api, args).<Void>mapEmpty().recover(e -> {
      LOG.warn("Could not store the follower list of {}: {}", user, e.toString());
      return Future.succeededFuture();
    });
  }

  private static Page slice(Page newestFirst, Long before, int limit) {
    int from = 0;
    while (before != null && from < newestFirst.size() && newestFirst.edges()[from] >= before) {
      from++;
    }
    int to = Math.min(newestFirst.size(), from + limit);
    return new Page(Arrays.copyOfRange(newestFirst.edges(), from, to),
        Arrays.copyOfRange(newestFirst.followers(), from, to));
  }
}
