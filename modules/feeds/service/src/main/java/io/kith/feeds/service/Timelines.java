package io.kith.feeds.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Timelines in Redis: lists of post ids, newest first, {@code feed:{u:<id>}:tl:home}, {@code feed:{u:<id>}:tl:moments}
 * and {@code feed:{u:<id>}:tl:own} (the user's own recent posts). Reads see the newest
 * {@link FeedsSettings#timelineCap()} posts; a list is cut back to the cap when it has {@link #TRIM_SLACK} more.
 *
 * <p>Every write goes through a script that keeps the list in strict order, ids decreasing (ids are time-ordered
 * integers below 2^53, exact as Lua numbers), without duplicates, so the common write is one {@code LPUSH} at the head
 * (a new post is newer than what the timeline holds) and a page is one {@code LRANGE}, after a binary search for
 * {@code max_id}. A post older than the head (a backfill, or fan-outs finishing out of order) is inserted in place.
 *
 * <p>A timeline exists only when it was built: it ends with the marker element {@code m}, so it exists while it holds
 * no post (Redis deletes empty lists) and trimming keeps it. Fan-out adds only to timelines that exist: a user whose
 * timeline expired (unread for {@link FeedsSettings#timelineTtlSeconds()}, i.e. inactive) is skipped, and their
 * timeline is rebuilt from MongoDB on their next read. A rebuild first creates the marker and then loads, so a post
 * fanned out meanwhile lands in it and a post published before is found by the load.
 *
 * <p>Why one class of over 400 lines: it is the one owner of the timeline lists' invariants (strict order, the marker,
 * the cap and its slack), so every write and read path to them, the scripts' loading and the fan-out's in-order
 * connection stay together; the scripts themselves live in {@code timeline-*.lua} beside it.
 */
final class Timelines {

  static final String HOME = "home";
  static final String MOMENTS = "moments";
  static final String OWN = "own";
  /** Set of authors at or above the celebrity threshold (not fanned out). */
  static final String CELEBRITIES = "feed:celebs";
  /** Posts a timeline may hold beyond the cap before it is cut back (reads never look past the cap). */
  static final int TRIM_SLACK = 32;
  private static final String MARKER = "m";
  /**
   * Adds one post to many timelines ({@code timeline-push.lua} beside this class; the bench runs the same file): KEYS
   * are the timelines, ARGV the post id, the cap and {@link #TRIM_SLACK}. A post newer than a timeline's head is
   * pushed there, an older one placed in order, one already there skipped; a list more than the slack over the cap is
   * cut back. Returns how many timelines gained the post.
   */
  private static final LuaScripts.Script PUSH = LuaScripts.load(Timelines.class, "timeline-push.lua");
  /**
   * Merges posts into one timeline if it exists ({@code timeline-merge.lua}): KEYS[1] the timeline, ARGV the cap then
   * the post ids, in any order. The timeline is rewritten in order, without duplicates, cut to the cap, its marker and
   * expiry kept. Returns how many of the ids were new to it.
   */
  private static final LuaScripts.Script MERGE = LuaScripts.load(Timelines.class, "timeline-merge.lua");
  /**
   * Removes posts from one timeline ({@code timeline-remove.lua}): KEYS[1] the timeline, ARGV the post ids. Order,
   * marker and expiry are kept.
   */
  private static final LuaScripts.Script REMOVE = LuaScripts.load(Timelines.class, "timeline-remove.lua");
  /**
   * A page of one timeline ({@code timeline-range.lua}): KEYS[1] the timeline, ARGV max id (exclusive, 0: none), since
   * id (exclusive, 0: none), count, cap. Ids newest first, only among the newest cap entries; a binary search finds
   * where {@code max_id} starts.
   */
  private static final LuaScripts.Script RANGE = LuaScripts.load(Timelines.class, "timeline-range.lua");
  /** Creates a timeline (its marker) unless it exists, and sets its expiry ({@code timeline-create.lua}). */
  private static final LuaScripts.Script CREATE = LuaScripts.load(Timelines.class, "timeline-create.lua");
  private static final long CELEBRITY_CACHE_MILLIS = 5_000;
  /** How often the node's copy of the celebrity set is refreshed ahead of reads. */
  static final long CELEBRITY_REFRESH_MILLIS = CELEBRITY_CACHE_MILLIS / 2;

  /** Loads the post ids a missing timeline should hold, newest first. */
  interface Loader {
    Future<List<Long>> load();
  }

  private final Redis redis;
  /**
   * The connection fan-out inserts are sent on, one after the other: Redis then applies the inserts of posts fanned out
   * at the same time post by post, in the order they were sent, instead of interleaved across pooled connections, so
   * nearly every insert is the one-push path (a newer post than the head) rather than an insert in place. Opened on
   * first use, and again after it failed or closed.
   */
  private Future<RedisConnection> lane;
  private final int cap;
  private final int ttlSeconds;
  private final int perCall;
  private final boolean sameSlot;
  private final Map<String, Future<Void>> building = new ConcurrentHashMap<>();
  private volatile List<Long> celebrities = List.of();
  private volatile long celebritiesAt;

  Timelines(Redis redis, FeedsSettings settings) {
    this.redis = redis;
    this.cap = settings.timelineCap();
    this.ttlSeconds = settings.timelineTtlSeconds();
    this.perCall = settings.fanoutTimelinesPerCall();
    this.sameSlot = settings.fanoutSameSlot();
  }

  static String key(String kind, long user) {
    return "feed:{u:" + user + "}:tl:" + kind;
  }

  /**
   * Makes sure the timeline exists (renewing its expiry), building it with {@code loader} when missing; concurrent
   * callers on this node share one build.
   */
  Future<Void> ensure(String kind, long user, Loader loader) {
    String key = key(kind, user);
    return redis.send(Request.cmd(Command.EXPIRE).arg(key).arg(ttlSeconds)).compose(r -> {
      if (r.toInteger() == 1) {
        return Future.succeededFuture();
      }
      Promise<Void> mine = Promise.promise();
      Future<Void> running = building.putIfAbsent(key, mine.future());
      if (running != null) {
        return running;
      }
      Future<Void> build = runScripts(List.of(script(CREATE, key, List.of(ttlSeconds))))
          .compose(x -> loader.load())
          .compose(ids -> add(key, ids))
          .recover(e -> redis.send(Request.cmd(Command.DEL).arg(key)).transform(x -> Future.failedFuture(e)));
      build.onComplete(ar -> {
        building.remove(key);
        if (ar.succeeded()) {
          mine.complete();
        } else {
          mine.fail(ar.cause());
        }
      });
      return mine.future();
    });
  }

  /** Merges ids into an existing timeline, in order, cut to the cap. */
  private Future<Void> add(String key, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    return runScripts(List.of(script(MERGE, key, capThen(ids)))).mapEmpty();
  }

  /** Ids in an existing timeline below {@code maxId} and above {@code sinceId} (0: unbounded), newest first. */
  Future<List<Long>> range(String kind, long user, long maxId, long sinceId, int count) {
    return runScripts(List.of(rangeRequest(kind, user, maxId, sinceId, count))).map(r -> ids(r.get(0)));
  }

  private LuaScripts.Call rangeRequest(String kind, long user, long maxId, long sinceId, int count) {
    return script(RANGE, key(kind, user), List.of(Math.max(0, maxId), Math.max(0, sinceId), count, cap));
  }

  /** A call of a one-key script; arguments follow. */
  private static LuaScripts.Call script(LuaScripts.Script script, String key, List<?> args) {
    List<Object> all = new ArrayList<>(args.size() + 2);
    all.add(1);
    all.add(key);
    all.addAll(args);
    return new LuaScripts.Call(script, all);
  }

  /** The cap, then the post ids: the arguments of a merge. */
  private List<Object> capThen(Collection<Long> ids) {
    List<Object> args = new ArrayList<>(ids.size() + 1);
    args.add(cap);
    args.addAll(ids);
    return args;
  }

  /** Ranges of several users' timelines of one kind in one round trip (for merging celebrities' recent posts). */
  Future<List<Long>> ranges(String kind, Collection<Long> users, long maxId, long sinceId, int count) {
    if (users.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<LuaScripts.Call> batch = new ArrayList<>();
    for (long user : users) {
      batch.add(rangeRequest(kind, user, maxId, sinceId, count));
    }
    return runScripts(batch).map(responses -> {
      List<Long> out = new ArrayList<>();
      responses.forEach(r -> out.addAll(ids(r)));
      return out;
    });
  }

  /**
   * One read of a page's candidates in one round trip: ids in the user's timeline and in the {@code own} timelines of
   * {@code celebrities}, below {@code maxId} and above {@code sinceId}, merged newest first, at most {@code count}.
   * With a {@code loader} the same script says whether the timeline exists and renews its expiry at most once a day
   * (no EXPIRE per read), and a missing timeline is built with it (as {@link #ensure}) and read again; without one
   * the timeline is known to exist (a later round of the same page).
   */
  Future<List<Long>> read(String kind, long user, Loader loader, List<Long> celebrities, long maxId, long sinceId,
                          int count) {
    List<LuaScripts.Call> batch = new ArrayList<>(celebrities.size() + 1);
    // the first read asks the script to say whether the timeline exists and to renew its expiry now and then
    batch.add(loader == null ? rangeRequest(kind, user, maxId, sinceId, count)
        : script(RANGE, key(kind, user), List.of(Math.max(0, maxId), Math.max(0, sinceId), count, cap, ttlSeconds)));
    for (long celebrity : celebrities) {
      batch.add(rangeRequest(OWN, celebrity, maxId, sinceId, count));
    }
    return runScripts(batch).compose(replies -> {
      if (loader != null && replies.get(0) == null) {
        return ensure(kind, user, loader).compose(v -> read(kind, user, null, celebrities, maxId, sinceId, count));
      }
      if (celebrities.isEmpty()) {
        return Future.succeededFuture(ids(replies.get(0)));
      }
      java.util.TreeSet<Long> merged = new java.util.TreeSet<>(java.util.Comparator.reverseOrder());
      for (Response r : replies) {
        merged.addAll(ids(r));
      }
      return Future.succeededFuture(merged.stream().limit(count).toList());
    });
  }

  private static List<Long> ids(Response r) {
    List<Long> out = new ArrayList<>(r == null ? 0 : r.size());
    if (r != null) {
      for (Response item : r) {
        String s = item.toString();
        if (!MARKER.equals(s)) {
          out.add(Long.parseLong(s));
        }
      }
    }
    return out;
  }

  /**
   * Adds a post to the existing timelines of these users, {@link FeedsSettings#fanoutTimelinesPerCall()} timelines
   * per script call (pipelined); missing timelines are skipped. With {@link FeedsSettings#fanoutSameSlot()} (Redis
   * Cluster) one call holds only timelines of one hash slot.
   *
   * @return how many timelines did not hold the post before
   */
  Future<Integer> push(String kind, Collection<Long> users, long postId) {
    return push(kind, users, postId, false);
  }

  /**
   * {@link #push(String, Collection, long)} for the fan-out worker: the calls go out on the worker's own connection,
   * after those it sent before ({@link #lane}), rather than through the pool, where a post's own push on publish must
   * not wait behind a fan-out.
   */
  Future<Integer> fanOut(String kind, Collection<Long> users, long postId) {
    return push(kind, users, postId, true);
  }

  private Future<Integer> push(String kind, Collection<Long> users, long postId, boolean inOrder) {
    if (users.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<String> keys = new ArrayList<>(users.size());
    for (long user : users) {
      keys.add(key(kind, user));
    }
    String post = Long.toString(postId);
    List<LuaScripts.Call> calls = new ArrayList<>();
    for (List<String> group : callGroups(keys, perCall, sameSlot)) {
      List<Object> args = new ArrayList<>(group.size() + 4);
      args.add(group.size());
      args.addAll(group);
      args.addAll(List.of(post, cap, TRIM_SLACK));
      calls.add(new LuaScripts.Call(PUSH, args));
    }
    return (inOrder ? inOrder(calls) : runScripts(calls)).map(responses -> {
      int added = 0;
      for (Response r : responses) {
        added += r.toInteger();
      }
      return added;
    });
  }

  /** Adds posts to one user's existing timeline, in order (skipped when it does not exist). */
  Future<Void> pushAll(String kind, long user, Collection<Long> postIds) {
    if (postIds.isEmpty()) {
      return Future.succeededFuture();
    }
    return runScripts(List.of(script(MERGE, key(kind, user), capThen(postIds)))).mapEmpty();
  }

  /**
   * Sends script calls on the fan-out's own connection, after those sent before; when the connection is lost the
   * calls go through the pool (they are idempotent, and correct in any order).
   */
  private synchronized Future<List<Response>> inOrder(List<LuaScripts.Call> calls) {
    Future<RedisConnection> current = lane;
    if (current == null) {
      // a connect that fails at once drops the lane in onFailure below: keep using the local, not the field
      Future<RedisConnection> opening = redis.connect();
      lane = opening;
      current = opening;
      opening.onSuccess(c -> c.endHandler(v -> dropLane(opening)).exceptionHandler(e -> dropLane(opening)))
          .onFailure(e -> dropLane(opening));
    }
    Future<RedisConnection> used = current;
    // a script Redis did not know is sent again by text on the same connection (LuaScripts.batch)
    return used.compose(c -> LuaScripts.batch(c::batch, calls)).recover(e -> {
      dropLane(used);
      return runScripts(calls);
    });
  }

  /** Gives the fan-out's connection back to the pool (the feeds verticle stops); a later fan-out opens another. */
  synchronized Future<Void> close() {
    Future<RedisConnection> open = lane;
    lane = null;
    return open == null ? Future.succeededFuture()
        : open.compose(RedisConnection::close).otherwiseEmpty();
  }

  private synchronized void dropLane(Future<RedisConnection> failed) {
    if (lane == failed) {
      lane = null;
      failed.onSuccess(RedisConnection::close);
    }
  }

  /**
   * Sends calls pipelined, scripts by digest; when Redis does not know a script (restarted or flushed) the batch is
   * sent again by text (every call sent this way is idempotent).
   */
  private Future<List<Response>> runScripts(List<LuaScripts.Call> calls) {
    return LuaScripts.batch(redis::batch, calls);
  }

  /**
   * Splits keys into script calls of at most {@code perCall} keys; with {@code sameSlot}, keys of one call share their
   * Redis Cluster hash slot (a cluster refuses a script whose keys span slots), in first-seen order.
   */
  static List<List<String>> callGroups(List<String> keys, int perCall, boolean sameSlot) {
    int size = Math.max(1, perCall);
    List<List<String>> out = new ArrayList<>();
    if (!sameSlot) {
      for (int i = 0; i < keys.size(); i += size) {
        out.add(keys.subList(i, Math.min(keys.size(), i + size)));
      }
      return out;
    }
    Map<Integer, List<String>> open = new LinkedHashMap<>();
    for (String key : keys) {
      int slot = slot(key);
      List<String> group = open.computeIfAbsent(slot, s -> {
        List<String> g = new ArrayList<>();
        out.add(g);
        return g;
      });
      group.add(key);
      if (group.size() == size) {
        open.remove(slot);
      }
    }
    return out;
  }

  /**
   * The Redis Cluster hash slot of a key, as {@code CLUSTER KEYSLOT} computes it: CRC16 (XMODEM) of the key, or of
   * its hash tag (what lies between the first <code>{</code> and the next <code>}</code>, when not empty), modulo
   * 16384.
   */
  static int slot(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    int from = 0;
    int to = bytes.length;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '{') {
        for (int j = i + 1; j < bytes.length; j++) {
          if (bytes[j] == '}') {
            if (j > i + 1) {
              from = i + 1;
              to = j;
            }
            break;
          }
        }
        break;
      }
    }
    int crc = 0;
    for (int i = from; i < to; i++) {
      crc ^= (bytes[i] & 0xff) << 8;
      for (int bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
      }
      crc &= 0xffff;
    }
    return crc & 16383;
  }

  /** Removes posts from one user's timeline. */
  Future<Void> remove(String kind, long user, Collection<Long> postIds) {
    if (postIds.isEmpty()) {
      return Future.succeededFuture();
    }
    return runScripts(List.of(script(REMOVE, key(kind, user), new ArrayList<>(postIds)))).mapEmpty();
  }

  /** Removes posts from the timelines of these users, one script call per timeline, pipelined. */
  Future<Void> removeFromAll(String kind, Collection<Long> users, Collection<Long> postIds) {
    if (users.isEmpty() || postIds.isEmpty()) {
      return Future.succeededFuture();
    }
    List<LuaScripts.Call> calls = new ArrayList<>(users.size());
    users.forEach(user -> calls.add(script(REMOVE, key(kind, user), new ArrayList<>(postIds))));
    return runScripts(calls).mapEmpty();
  }

  /** Removes one post from the timelines of these users (pipelined). */
  Future<Void> removeFrom(String kind, Collection<Long> users, long postId) {
    if (users.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Request> batch = new ArrayList<>(users.size());
    for (long user : users) {
      batch.add(Request.cmd(Command.LREM).arg(key(kind, user)).arg(1).arg(postId));
    }
    return redis.batch(batch).mapEmpty();
  }

  /** Drops a timeline (it is rebuilt on the next read). */
  Future<Void> drop(String kind, long user) {
    return redis.send(Request.cmd(Command.DEL).arg(key(kind, user))).mapEmpty();
  }

  // ---------------------------------------------------------------- celebrities

  Future<Void> markCelebrity(long author, boolean celebrity) {
    Request req = Request.cmd(celebrity ? Command.SADD : Command.SREM).arg(CELEBRITIES).arg(author);
    return redis.send(req).onSuccess(r -> {
      if (r.toInteger() > 0) {
        celebritiesAt = 0;
      }
    }).mapEmpty();
  }

  /** Whether the author is marked a celebrity now: asks Redis, not this node's copy of the set. */
  Future<Boolean> markedCelebrity(long author) {
    return redis.send(Request.cmd(Command.SISMEMBER).arg(CELEBRITIES).arg(author))
        .map(r -> r != null && r.toInteger() == 1);
  }

  /** The celebrity authors (cached on this node for a few seconds). */
  Future<List<Long>> celebrities() {
    if (System.currentTimeMillis() - celebritiesAt < CELEBRITY_CACHE_MILLIS) {
      return Future.succeededFuture(celebrities);
    }
    return refreshCelebrities();
  }

  /**
   * Reads the celebrity set into this node's copy. A timer calls it every {@link #CELEBRITY_REFRESH_MILLIS}, so that
   * a read seldom waits for it even on a quiet node.
   */
  Future<List<Long>> refreshCelebrities() {
    long now = System.currentTimeMillis();
    return redis.send(Request.cmd(Command.SMEMBERS).arg(CELEBRITIES)).map(r -> {
      List<Long> out = new ArrayList<>();
      if (r != null) {
        r.forEach(item -> out.add(Long.parseLong(item.toString())));
      }
      celebrities = List.copyOf(out);
      celebritiesAt = now;
      return celebrities;
    });
  }
}
