package io.kith.feeds.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Brings a post's counters ({@code likes, comments, reposts, reposts_total}) back to what the records hold after a
 * write stopped half-way (a node died between a like's insert and its {@code $inc}, or between a repost's delete and
 * the original's {@code reposts - 1}).
 *
 * <p>Every counted write touches the post before it changes a record and again after its {@code $inc}: the post is
 * put in a Redis sorted set, due {@code settle} later ({@code ZADD LT}: an earlier due time stands, so a busy post is
 * still recounted), and the time of the touch is kept beside it. Every node recounts due posts: it leases them (their
 * score becomes a deadline {@code settle} + {@value #LEASE_MILLIS} ms ahead, so a recounter that dies leaves them to
 * another), counts the records, and sets the counters with a compare-and-set on the values it read before counting.
 * A write landing meanwhile either changed a counter (the set is refused and the post is due again), or touched the
 * post after its {@code $inc} (a touch lowers the lease's score, so the post stays and is recounted once more), or
 * touched it within {@code settle} before the lease was taken (its record change may come after the count, and the
 * node may die before its {@code $inc}: the post is due again {@code settle} later). A post leaves the set only when
 * none of these happened. The one assumption: a write changes its record within {@code settle} of its first touch.
 *
 * <p>The set is split in {@value #SHARDS} keys by post id ({@code feed:recount:{<n>}}, the touch times in
 * {@code feed:recount:{<n>}:t}), so that a Redis Cluster spreads it.
 */
final class CounterRecount {

  static final int SHARDS = 16;
  /** How long, beyond {@code settle}, a recounter holds the posts it took before another node may take them. */
  static final long LEASE_MILLIS = 300_000L;
  /** Posts one recounter takes from one shard per round. */
  static final int BATCH = 100;
  private static final Logger LOG = LoggerFactory.getLogger(CounterRecount.class);

  /** KEYS[1]: a shard; ARGV: now, the lease's deadline, most to take. Leases and answers the due posts. */
  private static final LuaScripts.Script CLAIM = LuaScripts.load(CounterRecount.class, "recount-claim.lua");
  /** KEYS: the post's shard and its touch times; ARGV: post id, now, due. Marks the post and records the touch. */
  private static final LuaScripts.Script TOUCH = LuaScripts.load(CounterRecount.class, "recount-touch.lua");
  /**
   * KEYS: the post's shard and its touch times; ARGV: post id, lease deadline, the earliest touch that keeps the post
   * (the lease's time less settle), the due time to keep it with. Removes the post unless it was touched since the
   * lease (its score moved) or not long enough before it.
   */
  private static final LuaScripts.Script FINISH = LuaScripts.load(CounterRecount.class, "recount-finish.lua");

  private final RedisAPI redis;
  private final PostStore posts;
  private final PostCache cache;
  private final long settleMillis;

  CounterRecount(RedisAPI redis, PostStore posts, PostCache cache, long settleMillis) {
    this.redis = redis;
    this.posts = posts;
    this.cache = cache;
    this.settleMillis = settleMillis;
  }

  static String key(long postId) {
    return shard(Math.floorMod(postId, SHARDS));
  }

  static String shard(int n) {
    return "feed:recount:{" + n + "}";
  }

  static String touches(long postId) {
    return key(postId) + ":t";
  }

  /**
   * Marks the post for a recount {@code settle} from now (unless it is due sooner). Never fails: a write goes on when
   * Redis refuses the mark, which only loses this write's protection against a crash (logged).
   */
  Future<Void> touch(long postId) {
    long now = System.currentTimeMillis();
    return TOUCH.run(redis, List.of("2", key(postId), touches(postId), Long.toString(postId), Long.toString(now),
            Long.toString(now + settleMillis))).<Void>mapEmpty()
        .recover(e -> {
          LOG.warn("Could not mark post {} for a counter recount: {}", postId, e.toString());
          return Future.succeededFuture();
        });
  }

  /**
   * One round over every shard (the shards at once, the posts of one shard one after the other): recounts the due
   * posts; answers how many posts' counters it corrected.
   */
  Future<Integer> round() {
    List<Future<Integer>> shards = new ArrayList<>();
    for (int n = 0; n < SHARDS; n++) {
      shards.add(shardRound(n));
    }
    return Future.all(shards).map(all -> {
      int fixed = 0;
      for (Future<Integer> f : shards) {
        fixed += f.result();
      }
      return fixed;
    });
  }

  private Future<Integer> shardRound(int shard) {
    long now = System.currentTimeMillis();
    Lease lease = new Lease(now, Long.toString(now + settleMillis + LEASE_MILLIS));
    return CLAIM.run(redis, List.of("1", shard(shard), Long.toString(now), lease.deadline(),
            Integer.toString(BATCH)))
        .compose(due -> {
          List<Long> ids = new ArrayList<>();
          if (due != null) {
            for (Response id : due) {
              ids.add(id.toLong());
            }
          }
          Future<Integer> chain = Future.succeededFuture(0);
          for (long id : ids) {
            chain = chain.compose(fixed -> recount(id, lease).map(changed -> fixed + (changed ? 1 : 0)));
          }
          return chain;
        });
  }

  /**
   * Recounts one leased post; true when its counters were wrong and are now set. A post whose counters moved while
   * it was counted is left due again (touched), as is one whose recount failed.
   */
  Future<Boolean> recount(long postId, Lease lease) {
    return posts.find(postId).compose(post -> recount(postId, lease, post)).recover(e -> {
      LOG.warn("Recounting the counters of post {} failed (it stays due): {}", postId, e.toString());
      return touch(postId).map(false);
    });
  }

  /** Counts the interactions of the post as read, and corrects its counters when they differ. */
  private Future<Boolean> recount(long postId, Lease lease, JsonObject post) {
    if (post == null || post.getBoolean("deleted", false)) {
      // nothing to keep exact: a deleted post shows no counters
      return finish(postId, lease).map(false);
    }
    JsonObject seen = PostStore.counters(post);
    return posts.countInteractions(postId).compose(counted -> correct(postId, lease, seen, counted));
  }

  /** Sets the counters to those counted, unless a write changed one since it was read ({@code seen}). */
  private Future<Boolean> correct(long postId, Lease lease, JsonObject seen, JsonObject counted) {
    if (counted.equals(seen)) {
      return finish(postId, lease).map(false);
    }
    return posts.setCounters(postId, seen, counted).compose(set -> {
      if (!set) {
        // a write changed a counter since it was read: count again later
        return touch(postId).map(false);
      }
      LOG.info("Post {} counters recounted from the records: {} became {}", postId, seen.encode(),
          counted.encode());
      return cache.changed(postId).otherwiseEmpty().compose(v -> finish(postId, lease)).map(true);
    });
  }

  /**
   * Recounts a post's counters at once, without a lease (an account's erasure changed the records of many posts): sets
   * them from the records unless a write changed one since they were read, in which case the post is left to a round
   * (touched). A missing or deleted post shows no counters and is left alone.
   */
  Future<Void> now(long postId) {
    return posts.find(postId).compose(post -> {
      if (post == null || post.getBoolean("deleted", false)) {
        return Future.succeededFuture();
      }
      JsonObject seen = PostStore.counters(post);
      return posts.countInteractions(postId).compose(counted -> counted.equals(seen) ? Future.<Void>succeededFuture()
          : posts.setCounters(postId, seen, counted).compose(set -> set ? cache.changed(postId) : touch(postId)));
    });
  }

  /** A lease taken at {@code taken}, the posts' score until it ends ({@code deadline}). */
  record Lease(long taken, String deadline) {
  }

  private Future<Void> finish(long postId, Lease lease) {
    return FINISH.run(redis, List.of("2", key(postId), touches(postId), Long.toString(postId), lease.deadline(),
        Long.toString(lease.taken() - settleMillis), Long.toString(System.currentTimeMillis() + settleMillis)))
        .mapEmpty();
  }
}
