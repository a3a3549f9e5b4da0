package io.kith.feeds.service;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.Collection;
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
  private static final String PUSH = "if redis.call('exists', KEYS[1]) == 1 then "
      + "redis.call('zadd', KEYS[1], ARGV[1], ARGV[1]) "
      + "redis.call('zremrangebyrank', KEYS[1], 0, -tonumber(ARGV[2]) - 2) end return 1";
  private static final String PUSH_SHA = io.kith.platform.store.LuaScripts.sha1(PUSH);
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
  private final Map<String, Future<Void>> building = new ConcurrentHashMap<>();
  private volatile List<Long> celebrities = List.of();
  private volatile long celebritiesAt;

  Timelines(Redis redis, FeedsSettings settings) {
    this.redis = redis;
    this.cap = settings.timelineCap();
    this.ttlSeconds = settings.timelineTtlSeconds();
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

  /** Adds a post to the existing timelines of these users (pipelined; missing timelines are skipped). */
  Future<Void> push(String kind, Collection<Long> users, long postId) {
    List<String[]> calls = new ArrayList<>(users.size());
    for (long user : users) {
      calls.add(new String[] {key(kind, user), Long.toString(postId)});
    }
    return pushScript(calls);
  }

  /** Adds posts to one user's existing timeline. */
  Future<Void> pushAll(String kind, long user, Collection<Long> postIds) {
    List<String[]> calls = new ArrayList<>(postIds.size());
    for (long id : postIds) {
      calls.add(new String[] {key(kind, user), Long.toString(id)});
    }
    return pushScript(calls);
  }

  /**
   * Runs the push script for each (key, post id), pipelined, by its SHA; when Redis does not know the script (restarted
   * or flushed) it is loaded and the batch is sent again (the script is idempotent).
   */
  private Future<Void> pushScript(List<String[]> calls) {
    if (calls.isEmpty()) {
      return Future.succeededFuture();
    }
    return redis.batch(pushRequests(calls)).<Void>mapEmpty().recover(e -> {
      if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
        return Future.failedFuture(e);
      }
      return redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(PUSH))
          .compose(r -> redis.batch(pushRequests(calls))).mapEmpty();
    });
  }

  private List<Request> pushRequests(List<String[]> calls) {
    List<Request> batch = new ArrayList<>(calls.size());
    for (String[] call : calls) {
      batch.add(Request.cmd(Command.EVALSHA).arg(PUSH_SHA).arg(1).arg(call[0]).arg(call[1]).arg(cap));
    }
    return batch;
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
