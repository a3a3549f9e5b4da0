package io.kith.feeds.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
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
 * Timelines in Redis: sorted sets of post ids scored by id (ids are time-ordered and below 2^53, exact as scores),
 * {@code feed:{u:<id>}:home}, {@code feed:{u:<id>}:moments} and {@code feed:{u:<id>}:own} (the user's own recent
 * posts), capped at {@link FeedsSettings#timelineCap()} entries.
 *
 * <p>A timeline exists only when it was built: it holds the marker member {@code m} scored 2^53, above every id, so
 * trimming the oldest never removes it and ranges below a post id never return it. Fan-out adds only to timelines
 * that exist: a user whose timeline expired (unread for {@link FeedsSettings#timelineTtlSeconds()}, i.e. inactive) is
 * skipped, and their timeline is rebuilt from MongoDB on their next read. A rebuild first creates the marker and then
 * loads, so a post fanned out meanwhile lands in it and a post published before is found by the load.
 */
final class Timelines {

  static final String HOME = "home";
  static final String MOMENTS = "moments";
  static final String OWN = "own";
  /** Set of authors at or above the celebrity threshold (not fanned out). */
  static final String CELEBRITIES = "feed:celebs";
  private static final String MARKER = "m";
  private static final String MARKER_SCORE = "9007199254740992";
  /**
   * Adds one post to many timelines: KEYS are the timelines, ARGV the post id and the cap. A timeline exists when it
   * holds anything (at least its marker): ZCARD tells that and its size in one call, so the trim runs only when the
   * add took it over the cap (a full timeline trims its oldest on every new post). Returns how many timelines gained
   * the post.
   */
  private static final String FAN_OUT =
      "local id = ARGV[1] local keep = tonumber(ARGV[2]) + 1 local added = 0 "
          + "for i = 1, #KEYS do "
          + "local n = redis.call('zcard', KEYS[i]) "
          + "if n > 0 then "
          + "local a = redis.call('zadd', KEYS[i], id, id) added = added + a "
          + "if n + a > keep then redis.call('zremrangebyrank', KEYS[i], 0, -keep - 1) end "
          + "end end return added";
  private static final String FAN_OUT_SHA = LuaScripts.sha1(FAN_OUT);
  /** Adds posts to one timeline if it exists, then trims: KEYS[1] the timeline, ARGV the cap then the post ids. */
  private static final String BACKFILL =
      "local n = redis.call('zcard', KEYS[1]) if n == 0 then return 0 end "
          + "local keep = tonumber(ARGV[1]) + 1 local added = 0 "
          + "for i = 2, #ARGV do added = added + redis.call('zadd', KEYS[1], ARGV[i], ARGV[i]) end "
          + "if n + added > keep then redis.call('zremrangebyrank', KEYS[1], 0, -keep - 1) end return added";
  private static final String BACKFILL_SHA = LuaScripts.sha1(BACKFILL);
  private static final long CELEBRITY_CACHE_MILLIS = 5_000;
  /** How often the node's copy of the celebrity set is refreshed ahead of reads. */
  static final long CELEBRITY_REFRESH_MILLIS = CELEBRITY_CACHE_MILLIS / 2;

  /** Loads the post ids a missing timeline should hold, newest first. */
  interface Loader {
    Future<List<Long>> load();
  }

  private final Redis redis;
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
    return "feed:{u:" + user + "}:" + kind;
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
      Future<Void> build = redis.send(Request.cmd(Command.ZADD).arg(key).arg(MARKER_SCORE).arg(MARKER))
          .compose(x -> redis.send(Request.cmd(Command.EXPIRE).arg(key).arg(ttlSeconds)))
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

  private Future<Void> add(String key, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Request> batch = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += 500) {
      Request zadd = Request.cmd(Command.ZADD).arg(key);
      for (Long id : ids.subList(i, Math.min(ids.size(), i + 500))) {
        zadd.arg(id).arg(id);
      }
      batch.add(zadd);
    }
    batch.add(Request.cmd(Command.ZREMRANGEBYRANK).arg(key).arg(0).arg(-cap - 2));
    return redis.batch(batch).mapEmpty();
  }

  /** Ids in an existing timeline below {@code maxId} and above {@code sinceId} (0: unbounded), newest first. */
  Future<List<Long>> range(String kind, long user, long maxId, long sinceId, int count) {
    return redis.send(rangeRequest(kind, user, maxId, sinceId, count)).map(Timelines::ids);
  }

  private static Request rangeRequest(String kind, long user, long maxId, long sinceId, int count) {
    return Request.cmd(Command.ZREVRANGEBYSCORE).arg(key(kind, user))
        .arg(maxId > 0 ? "(" + maxId : "(" + MARKER_SCORE)
        .arg(sinceId > 0 ? "(" + sinceId : "-inf")
        .arg("LIMIT").arg(0).arg(count);
  }

  /** Ranges of several users' timelines of one kind in one round trip (for merging celebrities' recent posts). */
  Future<List<Long>> ranges(String kind, Collection<Long> users, long maxId, long sinceId, int count) {
    if (users.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Request> batch = new ArrayList<>();
    for (long user : users) {
      batch.add(rangeRequest(kind, user, maxId, sinceId, count));
    }
    return redis.batch(batch).map(responses -> {
      List<Long> out = new ArrayList<>();
      responses.forEach(r -> out.addAll(ids(r)));
      return out;
    });
  }

  /**
   * One read of a page's candidates in one round trip: ids in the user's timeline and in the {@code own} timelines of
   * {@code celebrities}, below {@code maxId} and above {@code sinceId}, merged newest first, at most {@code count}.
   * With a {@code loader} the same trip renews the timeline's expiry, and a missing timeline is built with it (as
   * {@link #ensure}) and read again; without one the timeline is known to exist (a later round of the same page).
   */
  Future<List<Long>> read(String kind, long user, Loader loader, List<Long> celebrities, long maxId, long sinceId,
                          int count) {
    List<Request> batch = new ArrayList<>(celebrities.size() + 2);
    if (loader != null) {
      batch.add(Request.cmd(Command.EXPIRE).arg(key(kind, user)).arg(ttlSeconds));
    }
    int at = batch.size();
    batch.add(rangeRequest(kind, user, maxId, sinceId, count));
    for (long celebrity : celebrities) {
      batch.add(rangeRequest(OWN, celebrity, maxId, sinceId, count));
    }
    return redis.batch(batch).compose(replies -> {
      if (loader != null && replies.get(0).toInteger() != 1) {
        return ensure(kind, user, loader).compose(v -> read(kind, user, null, celebrities, maxId, sinceId, count));
      }
      if (celebrities.isEmpty()) {
        return Future.succeededFuture(ids(replies.get(at)));
      }
      java.util.TreeSet<Long> merged = new java.util.TreeSet<>(java.util.Comparator.reverseOrder());
      for (int i = at; i < replies.size(); i++) {
        merged.addAll(ids(replies.get(i)));
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
    if (users.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<String> keys = new ArrayList<>(users.size());
    for (long user : users) {
      keys.add(key(kind, user));
    }
    String post = Long.toString(postId);
    List<Request> calls = new ArrayList<>();
    for (List<String> group : callGroups(keys, perCall, sameSlot)) {
      Request call = Request.cmd(Command.EVALSHA).arg(FAN_OUT_SHA).arg(group.size());
      group.forEach(call::arg);
      calls.add(call.arg(post).arg(cap));
    }
    return runScripts(calls).map(responses -> {
      int added = 0;
      for (Response r : responses) {
        added += r.toInteger();
      }
      return added;
    });
  }

  /** Adds posts to one user's existing timeline (skipped when it does not exist). */
  Future<Void> pushAll(String kind, long user, Collection<Long> postIds) {
    if (postIds.isEmpty()) {
      return Future.succeededFuture();
    }
    Request call = Request.cmd(Command.EVALSHA).arg(BACKFILL_SHA).arg(1).arg(key(kind, user)).arg(cap);
    postIds.forEach(call::arg);
    return runScripts(List.of(call)).mapEmpty();
  }

  /**
   * Sends script calls pipelined, by digest; when Redis does not know a script (restarted or flushed) the scripts are
   * loaded and the batch is sent again (the scripts are idempotent).
   */
  private Future<List<Response>> runScripts(List<Request> calls) {
    return redis.batch(calls).recover(e -> {
      if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
        return Future.failedFuture(e);
      }
      return redis.batch(List.of(Request.cmd(Command.SCRIPT).arg("LOAD").arg(FAN_OUT),
              Request.cmd(Command.SCRIPT).arg("LOAD").arg(BACKFILL)))
          .compose(r -> redis.batch(calls));
    });
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
    Request zrem = Request.cmd(Command.ZREM).arg(key(kind, user));
    postIds.forEach(zrem::arg);
    return redis.send(zrem).mapEmpty();
  }

  /** Removes one post from the timelines of these users (pipelined). */
  Future<Void> removeFrom(String kind, Collection<Long> users, long postId) {
    if (users.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Request> batch = new ArrayList<>(users.size());
    for (long user : users) {
      batch.add(Request.cmd(Command.ZREM).arg(key(kind, user)).arg(postId));
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
