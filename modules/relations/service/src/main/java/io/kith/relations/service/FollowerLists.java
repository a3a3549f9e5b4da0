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
 * served from the copy only while the copy's version equals the current one; otherwise the list is loaded from
 * MongoDB and stored with the version read <em>before</em> loading. So a copy never stands for a list that a finished
 * follow or unfollow changed: an edge written while a copy was being taken bumps the version after it, and the copy
 * is taken again on the next page. What a page may miss is only a follow still in progress (its count not yet
 * updated), exactly as a MongoDB read made a moment earlier would; the follow's own backfill then brings the author's
 * recent posts. A copy whose version could no longer move (a node died between an edge write and its count update)
 * lives at most {@link #TTL_SECONDS} unread.
 *
 * <p>The current version is read from MongoDB at the same time as the copy's page, not before it (the script returns
 * the copy's version, read atomically with the page, and the comparison is made here): the check needs only that
 * both reads start after the page was asked for. A copy at version {@code V} was loaded after {@code V} was read, so
 * after every edge change whose count update made a version up to {@code V}; a follow or unfollow finished before the
 * page was asked for made a version up to the one read now. So equal versions mean the copy holds every finished
 * change, whichever of the two reads reached its store first.
 *
 * <p>A page from the copy is one script call: the list and the asked hot sets of the same user (one hash tag, one
 * slot, every key in KEYS) answer together, the followers and each one's set bits packed into one bulk string, so a
 * page of 10,000 is one reply to parse rather than a reply element per follower and an argument and an answer per id
 * and set. Sets the script finds missing are named, and the caller asks {@link HotSets} for them (which rebuilds them
 * with its generation check).
 *
 * <p>Only lists of at most {@link #MAX} followers are copied (the authors who are fanned out); longer lists page from
 * MongoDB.
 */
final class FollowerLists {

  /** Longest list copied to Redis. */
  static final int MAX = GraphQueries.MAX_FOLLOWER_PAGE;
  /** A copy unused this long expires; reading a page renews it. */
  static final long TTL_SECONDS = 600;
  /** Most hot sets a page asks: a follower's bits are one letter, {@code a} (1) to {@code o} (15). */
  static final int MAX_SETS = 4;
  private static final Logger LOG = LoggerFactory.getLogger(FollowerLists.class);
  private static final LuaScripts.Script READ = LuaScripts.load(FollowerLists.class, "followers-read.lua");
  private static final LuaScripts.Script STORE = LuaScripts.load(FollowerLists.class, "followers-store.lua");

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
   * A page of one user's followers, newest first; for each, the bits of the asked sets that hold it (bit {@code i} for
   * the {@code i}-th set), among the sets the page answered; the bits of the sets it did not answer ({@code unanswered}:
   * sets missing from Redis, or every set when the page came from MongoDB); and the cursor of the next page, the edge
   * id of the last follower when more follow, else null.
   */
  record Page(long[] followers, int[] masks, int unanswered, Long next) {

    /**
     * The page of at most {@code n} of these edges ({@code {_id, a}}, newest first; {@code n + 1} tells more), with
     * none of the {@code sets} answered.
     */
    static Page of(List<JsonObject> docs, int n, int sets) {
      int size = Math.min(n, docs.size());
      long[] followers = new long[size];
      for (int i = 0; i < size; i++) {
        followers[i] = docs.get(i).getLong("a");
      }
      return new Page(followers, new int[size], (1 << sets) - 1, docs.size() > n ? docs.get(n - 1).getLong("_id")
          : null);
    }
  }

  /**
   * Up to {@code n} followers of {@code user} whose follow edges are older than {@code before} (null: from the
   * newest), newest first: from the Redis copy when it is current, else from MongoDB. {@code sets} names at most
   * {@link #MAX_SETS} of the user's hot sets ({@link HotSets}) whose membership the page answers for each follower
   * when it comes from the copy and the sets are present: the same call, renewing their TTL as a hot-set question
   * does.
   */
  Future<Page> page(long user, Long before, int n, List<String> sets) {
    if (sets.size() > MAX_SETS) {
      throw new IllegalArgumentException("at most " + MAX_SETS + " sets per page");
    }
    if (n < 1) {
      throw new IllegalArgumentException("a page holds at least one follower");
    }
    // both at once: the check needs the version read after the page was asked for, not before the copy is read
    Future<EdgeStore.FollowerVersion> current = edges.followerVersion(user);
    Future<Copied> copied = read(user, before, n, sets);
    return Future.all(current, copied).compose(both -> {
      EdgeStore.FollowerVersion v = current.result();
      Copied copy = copied.result();
      if (v.count() > MAX) {
        // a copy left from when the list was shorter would be read, and renewed, by every page: drop it
        Future<?> dropped = copy == null ? Future.succeededFuture() : drop(user);
        return dropped.compose(x -> edges.ends(EdgeStore.FOLLOW, "b", user, before, n + 1, "a"))
            .map(docs -> Page.of(docs, n, sets.size()));
      }
      return copy != null && copy.version() == v.version() ? Future.succeededFuture(copy.page())
          : load(user, v.version(), before, n, sets.size());
    });
  }

  /** The copy's page and the version the copy was taken at. */
  private record Copied(long version, Page page) {
  }

  /** The page from the copy, whatever its version; null when there is no copy. */
  private Future<Copied> read(long user, Long before, int n, List<String> sets) {
    List<String> args = new ArrayList<>(6 + sets.size());
    args.add(Integer.toString(1 + sets.size()));
    args.add(key(user));
    sets.forEach(set -> args.add(HotSets.key(set, user)));
    args.add(before == null ? "+inf" : "(" + before);
    args.add(Integer.toString(n));
    args.add(Long.toString(TTL_SECONDS));
    args.add(Long.toString(HotSets.TTL_SECONDS));
    return READ.run(api, args).compose(r -> {
      if (r == null) {
        return Future.succeededFuture(null);
      }
      try {
        Response next = r.get(3);
        // scores are edge ids below 2^53: exact as doubles
        Long cursor = next == null ? null : (long) Double.parseDouble(next.toString());
        return Future.succeededFuture(new Copied(r.get(0).toLong(), unpack(r.get(2).toBytes(), r.get(1).toInteger(),
            cursor)));
      } catch (RuntimeException e) {
        // a copy that does not parse (written by something else, or damaged) would fail every page until the list
        // changes: it goes, and the page is read from MongoDB, which takes a new copy
        LOG.warn("Dropping the unreadable follower list copy of {}: {}", user, e.toString());
        return drop(user).map(x -> (Copied) null);
      }
    });
  }

  /**
   * Parses a packed page: followers separated by commas, each its decimal id followed, when sets hold it, by one
   * letter, {@code a} - 1 plus its set bits.
   */
  static Page unpack(byte[] packed, int unanswered, Long next) {
    if (packed.length == 0) {
      return new Page(new long[0], new int[0], unanswered, next);
    }
    int count = 1;
    for (byte b : packed) {
      if (b == ',') {
        count++;
      }
    }
    long[] followers = new long[count];
    int[] masks = new int[count];
    int k = 0;
    long id = 0;
    int digits = 0;
    int mask = 0;
    for (int i = 0; i <= packed.length; i++) {
      byte b = i == packed.length ? (byte) ',' : packed[i];
      if (b >= '0' && b <= '9' && mask == 0 && digits < 18) {
        id = id * 10 + (b - '0');
        digits++;
      } else if (b >= 'a' && b < 'a' + (1 << MAX_SETS) - 1 && mask == 0 && digits > 0) {
        mask = b - 'a' + 1;
      } else if (b == ',' && digits > 0) {
        followers[k] = id;
        masks[k++] = mask;
        id = 0;
        digits = 0;
        mask = 0;
      } else {
        throw new IllegalStateException("not a packed follower page at byte " + i);
      }
    }
    return new Page(followers, masks, unanswered, next);
  }

  private Future<Void> drop(long user) {
    return api.del(List.of(key(user))).<Void>mapEmpty().recover(e -> {
      LOG.warn("Could not drop the follower list copy of {}: {}", user, e.toString());
      return Future.succeededFuture();
    });
  }

  /** Loads the whole list, stores it when it fits, and answers the page from it. */
  private Future<Page> load(long user, long version, Long before, int n, int sets) {
    return edges.ends(EdgeStore.FOLLOW, "b", user, null, MAX + 1, "a").compose(all -> {
      if (all.size() > MAX) {
        // the count said otherwise (it lags a follow in progress): page from MongoDB this time
        return edges.ends(EdgeStore.FOLLOW, "b", user, before, n + 1, "a").map(docs -> Page.of(docs, n, sets));
      }
      return store(user, version, all).map(v -> {
        int from = 0;
        while (before != null && from < all.size() && all.get(from).getLong("_id") >= before) {
          from++;
        }
        return Page.of(all.subList(from, Math.min(all.size(), from + n + 1)), n, sets);
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
