package io.kith.feeds.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The viewer's flags on a page of posts (liked, reposted) from Redis, so that a timeline read does not query MongoDB
 * for them: {@code feed:{u:<id>}:liked}, a sorted set of the user's most recent liked post ids (score: the like id),
 * and {@code feed:{u:<id>}:reposted}, the same for the originals the user has live reposts of.
 *
 * <p>A set exists only once built from MongoDB, with one marker member scored 2^53: {@code c} when it holds all of
 * the user's likes (reposts), {@code p} when it holds only the newest {@link #CAP} and a miss must be checked in
 * MongoDB. Every write bumps a generation counter; a build stores its result only if the counter did not move while it
 * read MongoDB (else a like or unlike racing the build could be lost or resurrected), as relations' hot sets do.
 * Writes change a set only when it exists. Sets expire a day after they were built or last written; reads do not
 * renew them (an EXPIRE per read was a tenth of a home page's Redis commands), so a reader who neither likes nor
 * reposts has the set built again once a day.
 */
final class ViewerFlags {

  static final String LIKED = "liked";
  static final String REPOSTED = "reposted";
  /** Most entries kept per set. */
  static final int CAP = 1_000;
  static final long TTL_SECONDS = 86_400;
  private static final LuaScripts.Script ADD = LuaScripts.load(ViewerFlags.class, "flags-add.lua");
  private static final LuaScripts.Script REMOVE = LuaScripts.load(ViewerFlags.class, "flags-remove.lua");
  private static final LuaScripts.Script FILL = LuaScripts.load(ViewerFlags.class, "flags-fill.lua");

  /** Loads up to {@code limit} (id, score) pairs of a user's set from the record, newest first. */
  interface Loader {
    Future<List<long[]>> load(long user, int limit);
  }

  /** Checks in the record which of the ids are in a user's set. */
  interface Checker {
    Future<Set<Long>> among(long user, Collection<Long> ids);
  }

  private final Redis redis;

  ViewerFlags(Redis redis) {
    this.redis = redis;
  }

  static String key(String set, long user) {
    return "feed:{u:" + user + "}:" + set;
  }

  /** Records that {@code user} now has {@code member} in the set (a like, a repost of that original). */
  Future<Void> add(String set, long user, long member, long score) {
    return ADD.run(redis, List.of(2, key(set, user), key(set, user) + ":gen", member, score, TTL_SECONDS, CAP))
        .mapEmpty();
  }

  /** Records that {@code user} no longer has {@code member} in the set. */
  Future<Void> remove(String set, long user, long member) {
    return REMOVE.run(redis, List.of(2, key(set, user), key(set, user) + ":gen", member, 0, TTL_SECONDS)).mapEmpty();
  }

  /** Which of {@code ids} are in the user's set: from Redis, with MongoDB only for misses of a partial set. */
  Future<Set<Long>> among(String set, long user, Collection<Long> ids, Loader loader, Checker checker) {
    if (user == 0 || ids.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    List<Long> list = List.copyOf(new HashSet<>(ids));
    return redis.batch(requests(set, user, list)).compose(r -> resolve(seen(set, user, list, r, 0), list, loader,
        checker));
  }

  /**
   * The request that asks the set about {@code ids} and its two markers (whether it exists, whether it is complete),
   * to send in a batch with other reads of a page; {@link #seen} reads its answer. Reads do not renew the set's
   * expiry: writes and builds do, and a reader's set that expired is built again (one MongoDB query a day at most).
   */
  List<Request> requests(String set, long user, List<Long> ids) {
    Request zms = Request.cmd(Command.ZMSCORE).arg(key(set, user)).arg("c").arg("p");
    ids.forEach(zms::arg);
    return List.of(zms);
  }

  /** What the set said to {@link #requests}, whose answer is at {@code replies[at]}. */
  Seen seen(String set, long user, List<Long> ids, List<Response> replies, int at) {
    Response scores = replies.get(at);
    boolean present = scores != null && scores.size() == ids.size() + 2
        && (scores.get(0) != null || scores.get(1) != null);
    if (!present) {
      return new Seen(set, user, Set.copyOf(ids), false, false, Set.of());
    }
    Set<Long> in = new HashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      if (scores.get(i + 2) != null) {
        in.add(ids.get(i));
      }
    }
    return new Seen(set, user, Set.copyOf(ids), true, scores.get(0) != null, in);
  }

  /**
   * A set's answer about the ids {@code asked}, as read in a batch: whether the set existed, whether it is complete,
   * and which of the ids it holds.
   */
  record Seen(String set, long user, Set<Long> asked, boolean present, boolean complete, Set<Long> in) {
  }

  /**
   * Which of {@code ids} (asked before, in {@code seen}) are in the set: from the answer when the set existed and is
   * complete; MongoDB for the misses of a partial set; a missing set is built and asked again.
   */
  Future<Set<Long>> resolve(Seen seen, Collection<Long> ids, Loader loader, Checker checker) {
    if (seen.user() == 0 || ids.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    if (!seen.present()) {
      List<Long> list = List.copyOf(new HashSet<>(ids));
      return build(seen.set(), seen.user(), loader).compose(v -> {
        Request zms = Request.cmd(Command.ZMSCORE).arg(key(seen.set(), seen.user())).arg("c");
        list.forEach(zms::arg);
        return redis.send(zms);
      }).compose(scores -> {
        if (scores == null || scores.size() != list.size() + 1) {
          return checker.among(seen.user(), list);
        }
        Set<Long> in = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
          if (scores.get(i + 1) != null) {
            in.add(list.get(i));
          }
        }
        return resolve(new Seen(seen.set(), seen.user(), Set.copyOf(list), true, scores.get(0) != null, in), list,
            loader, checker);
      });
    }
    Set<Long> in = new HashSet<>();
    List<Long> unknown = new ArrayList<>();
    for (long id : ids) {
      if (seen.in().contains(id)) {
        in.add(id);
      } else if (!seen.complete()) {
        unknown.add(id);
      }
    }
    if (unknown.isEmpty()) {
      return Future.succeededFuture(in);
    }
    return checker.among(seen.user(), unknown).map(more -> {
      in.addAll(more);
      return in;
    });
  }

  /** Builds a set from the record; a build that lost a race with a write stores nothing (the next read retries). */
  private Future<Void> build(String set, long user, Loader loader) {
    String key = key(set, user);
    return redis.send(Request.cmd(Command.GET).arg(key + ":gen")).compose(g -> {
      String generation = g == null ? "0" : g.toString();
      return loader.load(user, CAP + 1).compose(rows -> {
        boolean complete = rows.size() <= CAP;
        List<Object> fill = new ArrayList<>(List.of(2, key, key + ":gen", generation, complete ? "c" : "p",
            TTL_SECONDS));
        for (long[] row : rows.subList(0, Math.min(rows.size(), CAP))) {
          fill.add(row[1]);
          fill.add(row[0]);
        }
        return FILL.run(redis, fill).mapEmpty();
      });
    });
  }

  /** For tests: the members of a set as stored (markers included), or null when it does not exist. */
  Future<List<String>> stored(String set, long user) {
    return redis.send(Request.cmd(Command.ZRANGE).arg(key(set, user)).arg(0).arg(-1)).map(r -> {
      if (r == null || r.size() == 0) {
        return null;
      }
      List<String> out = new ArrayList<>();
      for (Response item : r) {
        out.add(item.toString());
      }
      return out;
    });
  }
}
