package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.store.ExpiringMembers;
import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * The Redis side of activities: what reads use so that current activities never need MongoDB. Everything here is
 * derived from the MongoDB record and rebuilt from it (see the module README for the key table).
 *
 * <ul>
 *   <li>{@code act:{a<id>}}: hash {@code doc} (the record as JSON), {@code v} (its version), {@code loaded} (set once
 *   the participant keys below are complete);</li>
 *   <li>{@code act:{a<id>}:p} (joined, scored by place order), {@code :w} (waitlisted, by wait order), {@code :i}
 *   (invited), {@code :r} (removed), {@code :pv} (each user's participation version);</li>
 *   <li>{@code act:{u<id>}:own} and {@code act:{u<id>}:joined}: the user's activities scored by start, with the marker
 *   member {@code m} (score 0) once complete;</li>
 *   <li>{@code act:{geo}} (GEO) and {@code act:{geo}:starts} (by start): upcoming open public activities with
 *   coordinates; {@code act:due}: reminders by due time; {@code act:warm}: time of the last complete warm load.</li>
 * </ul>
 *
 * <p>Writers copy a record after each MongoDB change; a copy only replaces an older one (versions), so concurrent
 * writers and a loader racing with them converge on the newest record in any order.
 *
 * <p>Why one class of ~470 lines: it is the one place that knows the key layout above, the version rule and the Lua
 * scripts that apply it; every feature file reads and writes through it by intent ({@code read}, {@code joinedPage},
 * {@code near}, {@code putParticipant}...), so a change of layout touches one file. Its methods are short; split by
 * feature, each part would repeat the key formats and the version rule.
 */
final class HotActivities {

  static final String GEO = "act:{geo}";
  static final String GEO_STARTS = "act:{geo}:starts";
  static final String DUE = "act:due";
  static final String WARM = "act:warm";
  static final String WARM_LOCK = "act:warm:lock";
  /** The marker member of a complete user list. */
  static final String MARKER = "m";
  /** GEOADD refuses latitudes beyond this (Web Mercator). */
  private static final double GEO_MAX_LATITUDE = 85.05112878;

  /** Copies a record if newer; marks the participant keys complete with ARGV[4] = 1. */
  static final LuaScripts.Script PUT_DOC = LuaScripts.load(HotActivities.class, "hot-put-doc.lua");
  /**
   * Copies one participation unless older: KEYS p, w, i, r, pv; ARGV user, v, status, seq, invited, expire-at. The same
   * version applies again (the same record: no change) so that a retried copy also redoes the user's list entry.
   */
  static final LuaScripts.Script PUT_PART = LuaScripts.load(HotActivities.class, "hot-put-part.lua");
  private static final LuaScripts.Script UNLOCK = LuaScripts.load(HotActivities.class, "hot-unlock.lua");

  private final Redis redis;
  private final RedisAPI api;
  private final long warmMillis;

  HotActivities(Redis redis, long warmMillis) {
    this.redis = redis;
    this.api = RedisAPI.api(redis);
    this.warmMillis = warmMillis;
  }

  static String activity(long id) {
    return "act:{a" + id + "}";
  }

  static String joinedSet(long id) {
    return activity(id) + ":p";
  }

  static String waitSet(long id) {
    return activity(id) + ":w";
  }

  static String invitedSet(long id) {
    return activity(id) + ":i";
  }

  static String removedSet(long id) {
    return activity(id) + ":r";
  }

  static String versions(long id) {
    return activity(id) + ":pv";
  }

  static String ownList(long user) {
    return "act:{u" + user + "}:own";
  }

  static String joinedList(long user) {
    return "act:{u" + user + "}:joined";
  }

  /** When an activity's keys expire: {@code warm-days} after its end, and not within the next hour. */
  long expireAt(JsonObject doc, long now) {
    return Math.max(doc.getLong("end") + warmMillis, now + 3_600_000L);
  }

  // ---------------------------------------------------------------- reading

  /**
   * An activity as Redis holds it, and the viewer's part in it.
   *
   * @param doc       the record, or null when Redis has no complete copy
   * @param joinedAt  the viewer's place order when joined, else null
   * @param waitRank  the viewer's 0-based rank in the waitlist, else null
   * @param invited   whether the viewer holds an invitation
   * @param removed   whether the organiser removed the viewer
   * @param waiting   how many wait
   */
  record Hot(JsonObject doc, Long joinedAt, Long waitRank, boolean invited, boolean removed, long waiting) {

    String status() {
      if (joinedAt != null) {
        return Activities.JOINED;
      }
      if (waitRank != null) {
        return Activities.WAITLISTED;
      }
      if (removed) {
        return Activities.REMOVED;
      }
      return invited ? Activities.INVITED : Activities.NONE;
    }

    /** Joined, waiting or invited: what lets a user see a friends-only or invitation-only activity. */
    boolean involved() {
      return joinedAt != null || waitRank != null || invited;
    }
  }

  private static final int PER_ACTIVITY = 6;

  /**
   * Activities read per Redis batch: {@value #PER_ACTIVITY} commands each, so that a batch stays far below the
   * client's waiting-handler limit ({@code redis.max-waiting-handlers}, 4,096 by default). A nearby search reads up to
   * {@code activities.nearby-candidates} (1,000) activities: in one batch of 6,000 commands the client refused it.
   */
  static final int READ_CHUNK = 128;

  /** The activities and the viewer's part in each (null entries where Redis has no complete copy). */
  Future<List<Hot>> read(List<Long> ids, long viewer) {
    if (ids.size() <= READ_CHUNK) {
      return readChunk(ids, viewer);
    }
    // one chunk after the other: chunks sent together would queue on the same connections
    List<Hot> all = new ArrayList<>(ids.size());
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < ids.size(); from += READ_CHUNK) {
      List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + READ_CHUNK));
      chain = chain.compose(v -> readChunk(chunk, viewer).map(part -> {
        all.addAll(part);
        return null;
      }));
    }
    return chain.map(v -> all);
  }

  private Future<List<Hot>> readChunk(List<Long> ids, long viewer) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Request> batch = new ArrayList<>();
    String v = Long.toString(viewer);
    for (long id : ids) {
      batch.add(Request.cmd(Command.HMGET).arg(activity(id)).arg("doc").arg("loaded"));
      batch.add(Request.cmd(Command.ZSCORE).arg(joinedSet(id)).arg(v));
      batch.add(Request.cmd(Command.ZRANK).arg(waitSet(id)).arg(v));
      batch.add(Request.cmd(Command.SISMEMBER).arg(invitedSet(id)).arg(v));
      batch.add(Request.cmd(Command.SISMEMBER).arg(removedSet(id)).arg(v));
      batch.add(Request.cmd(Command.ZCARD).arg(waitSet(id)));
    }
    return redis.batch(batch).map(r -> {
      List<Hot> out = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        int b = i * PER_ACTIVITY;
        Response fields = r.get(b);
        Response doc = fields == null ? null : fields.get(0);
        Response loaded = fields == null ? null : fields.get(1);
        if (doc == null || loaded == null) {
          out.add(null);
          continue;
        }
        Response joined = r.get(b + 1);
        Response rank = r.get(b + 2);
        out.add(new Hot(new JsonObject(doc.toString()),
            joined == null ? null : (long) Double.parseDouble(joined.toString()),
            rank == null ? null : rank.toLong(),
            r.get(b + 3).toInteger() == 1, r.get(b + 4).toInteger() == 1, r.get(b + 5).toLong()));
      }
      return out;
    });
  }

  /** Joined users of an activity after place order {@code afterSeq} (exclusive), up to {@code count}: [user, seq]. */
  Future<List<long[]>> joinedPage(long id, String set, Long afterSeq, int count) {
    String key = Activities.WAITLISTED.equals(set) ? waitSet(id) : joinedSet(id);
    return api.zrangebyscore(List.of(key, afterSeq == null ? "-inf" : "(" + afterSeq, "+inf", "WITHSCORES",
        "LIMIT", "0", Integer.toString(count))).map(HotActivities::pairs);
  }

  /**
   * Users holding an invitation to an activity: every member of the set, sorted by id. Read whole on each page of the
   * organiser's invitee list; the set is bounded by {@code activities.max-invitees} (1,000; at most 100 more per
   * invitation call racing another of the same activity), so this stays a small read.
   */
  Future<List<Long>> invited(long id) {
    return api.smembers(invitedSet(id)).map(r -> {
      List<Long> out = new ArrayList<>();
      for (Response m : r) {
        out.add(Long.parseLong(m.toString()));
      }
      out.sort(Long::compare);
      return out;
    });
  }

  /** For each user: holds a place ({@code joined}), waits ({@code waitlisted}), or neither ({@code invited}). */
  Future<List<String>> statuses(long id, List<Long> users) {
    if (users.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Request> batch = new ArrayList<>();
    for (long u : users) {
      batch.add(Request.cmd(Command.ZSCORE).arg(joinedSet(id)).arg(u));
      batch.add(Request.cmd(Command.ZSCORE).arg(waitSet(id)).arg(u));
    }
    return redis.batch(batch).map(r -> {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < users.size(); i++) {
        out.add(r.get(2 * i) != null ? Activities.JOINED
            : r.get(2 * i + 1) != null ? Activities.WAITLISTED : Activities.INVITED);
      }
      return out;
    });
  }

  private static List<long[]> pairs(Response r) {
    List<long[]> out = new ArrayList<>();
    if (r == null) {
      return out;
    }
    // RESP2 WITHSCORES: member, score, member, score...
    for (int i = 0; i + 1 < r.size(); i += 2) {
      String member = r.get(i).toString();
      if (MARKER.equals(member)) {
        continue;
      }
      out.add(new long[] {Long.parseLong(member), (long) Double.parseDouble(r.get(i + 1).toString())});
    }
    return out;
  }

  /** Whether the user list exists with its completeness marker. */
  Future<Boolean> listComplete(String key) {
    return api.zscore(key, MARKER).map(r -> r != null);
  }

  /**
   * Entries [activity, start] of a user list with start in {@code [min, max]}, ascending or descending (the bounds as
   * ZRANGEBYSCORE takes them), from {@code offset}, up to {@code count}.
   */
  Future<List<long[]>> listRange(String key, String min, String max, boolean descending, int offset, int count) {
    List<String> args = descending
        ? List.of(key, max, min, "WITHSCORES", "LIMIT", Integer.toString(offset), Integer.toString(count))
        : List.of(key, min, max, "WITHSCORES", "LIMIT", Integer.toString(offset), Integer.toString(count));
    return (descending ? api.zrevrangebyscore(args) : api.zrangebyscore(args)).map(HotActivities::pairs);
  }

  /** Upcoming entries of several users' joined lists (at most {@code each} per user): [activity, start, user]. */
  Future<List<long[]>> joinedByUsers(List<Long> users, long from, int each) {
    if (users.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Request> batch = new ArrayList<>();
    for (long u : users) {
      batch.add(Request.cmd(Command.ZRANGEBYSCORE).arg(joinedList(u)).arg("(" + from).arg("+inf")
          .arg("WITHSCORES").arg("LIMIT").arg(0).arg(each));
    }
    return redis.batch(batch).map(r -> {
      List<long[]> out = new ArrayList<>();
      for (int i = 0; i < users.size(); i++) {
        for (long[] p : pairs(r.get(i))) {
          out.add(new long[] {p[0], p[1], users.get(i)});
        }
      }
      return out;
    });
  }

  /** Activity ids within {@code radiusKm}, nearest first, with distance in km: [id, distance * 1000 (m)]. */
  Future<List<double[]>> near(double lat, double lon, double radiusKm, int count) {
    Request search = Request.cmd(Command.GEOSEARCH).arg(GEO).arg("FROMLONLAT").arg(lon).arg(lat)
        .arg("BYRADIUS").arg(radiusKm).arg("km").arg("ASC").arg("COUNT").arg(count).arg("WITHDIST");
    return redis.send(search).map(r -> {
      List<double[]> out = new ArrayList<>();
      if (r != null) {
        for (Response item : r) {
          out.add(new double[] {Long.parseLong(item.get(0).toString()), Double.parseDouble(item.get(1).toString())});
        }
      }
      return out;
    });
  }

  // ---------------------------------------------------------------- writing

  /**
   * Copies a record and what derives from it: the hash (if newer), the organiser's list, the nearby set and the
   * reminder queue. {@code loaded}: the caller also wrote every participation (a load).
   */
  Future<Void> putActivity(JsonObject doc, boolean loaded, long now) {
    long id = doc.getLong("_id");
    long start = doc.getLong("start");
    String expireAt = Long.toString(expireAt(doc, now));
    Future<Response> hash = PUT_DOC.run(api, List.of("1", activity(id), Long.toString(doc.getLong("v", 0L)),
        doc.encode(), expireAt, loaded ? "1" : "0"));
    List<Request> batch = new ArrayList<>();
    String member = Long.toString(id);
    batch.add(Request.cmd(Command.ZADD).arg(ownList(doc.getLong("organiser"))).arg(start).arg(member));
    JsonObject place = doc.getJsonObject("place", new JsonObject());
    boolean open = Activities.OPEN.equals(doc.getString("status"));
    Double lat = place.getDouble("lat");
    Double lon = place.getDouble("lon");
    if (open && Activities.PUBLIC.equals(doc.getString("visibility")) && lat != null && lon != null
        && Math.abs(lat) <= GEO_MAX_LATITUDE && start > now) {
      batch.add(Request.cmd(Command.GEOADD).arg(GEO).arg(lon).arg(lat).arg(member));
      batch.add(Request.cmd(Command.ZADD).arg(GEO_STARTS).arg(start).arg(member));
    } else {
      batch.add(Request.cmd(Command.ZREM).arg(GEO).arg(member));
      batch.add(Request.cmd(Command.ZREM).arg(GEO_STARTS).arg(member));
    }
    Long remindAt = doc.getLong("remind_at");
    if (open && remindAt != null && !doc.getBoolean("reminded", false) && start > now) {
      batch.add(Request.cmd(Command.ZADD).arg(DUE).arg(remindAt).arg(member));
    } else {
      batch.add(Request.cmd(Command.ZREM).arg(DUE).arg(member));
    }
    return Future.all(hash, redis.batch(batch)).mapEmpty();
  }

  /** Copies one participation (unless older) and the user's joined list. */
  Future<Void> putParticipant(JsonObject part, JsonObject activityDoc, long now) {
    long id = part.getLong("activity");
    long user = part.getLong("user");
    String status = part.getString("status");
    Future<Response> sets = PUT_PART.run(api, List.of("5", joinedSet(id), waitSet(id), invitedSet(id), removedSet(id),
        versions(id), Long.toString(user), Long.toString(part.getLong("v", 0L)), status,
        Long.toString(part.getLong("seq", 0L)), part.getBoolean("invited", false) ? "1" : "0",
        Long.toString(expireAt(activityDoc, now))));
    return sets.compose(applied -> {
      if (applied.toInteger() != 1) {
        return Future.succeededFuture();
      }
      // a stale entry this may leave behind (two writers reordered) is dropped by reads, which check the place
      String list = joinedList(user);
      return (Activities.JOINED.equals(status)
          ? api.zadd(List.of(list, Long.toString(activityDoc.getLong("start")), Long.toString(id)))
          : api.zrem(List.of(list, Long.toString(id)))).mapEmpty();
    });
  }

  /** Moves an activity in its participants' joined lists to a new start. */
  Future<Void> restart(long id, List<Long> users, long start) {
    if (users.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Request> batch = new ArrayList<>();
    for (long u : users) {
      batch.add(Request.cmd(Command.ZADD).arg(joinedList(u)).arg("XX").arg(start).arg(id));
    }
    return redis.batch(batch).mapEmpty();
  }

  /** Fills a user list (own or joined) with [activity, start] entries and marks it complete; trims old entries. */
  Future<Void> fillList(String key, List<long[]> entries, long windowStart) {
    List<Request> batch = new ArrayList<>();
    for (long[] e : entries) {
      batch.add(Request.cmd(Command.ZADD).arg(key).arg(e[1]).arg(e[0]));
    }
    batch.add(Request.cmd(Command.ZADD).arg(key).arg(0).arg(MARKER));
    batch.add(Request.cmd(Command.ZREMRANGEBYSCORE).arg(key).arg("(0").arg("(" + windowStart));
    return redis.batch(batch).mapEmpty();
  }

  /** Marks user lists complete (after a warm load wrote every activity of the window). */
  Future<Void> markLists(List<String> keys, long windowStart) {
    if (keys.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Request> batch = new ArrayList<>();
    for (String key : keys) {
      batch.add(Request.cmd(Command.ZADD).arg(key).arg(0).arg(MARKER));
      batch.add(Request.cmd(Command.ZREMRANGEBYSCORE).arg(key).arg("(0").arg("(" + windowStart));
    }
    return redis.batch(batch).mapEmpty();
  }

  /** Takes the completeness marker off user lists, so that their next read rebuilds them from MongoDB. */
  Future<Void> forgetLists(List<String> keys) {
    if (keys.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Request> batch = new ArrayList<>();
    for (String key : keys) {
      batch.add(Request.cmd(Command.ZREM).arg(key).arg(MARKER));
    }
    return redis.batch(batch).mapEmpty();
  }

  /** Activities whose reminder is due, up to {@code limit}. */
  Future<List<Long>> due(long now, int limit) {
    return api.zrangebyscore(List.of(DUE, "-inf", Long.toString(now), "LIMIT", "0", Integer.toString(limit)))
        .map(r -> {
          List<Long> out = new ArrayList<>();
          for (Response m : r) {
            out.add(Long.parseLong(m.toString()));
          }
          return out;
        });
  }

  /** Takes a due reminder off the queue: true for exactly one of several nodes racing for it. */
  Future<Boolean> takeDue(long id) {
    return api.zrem(List.of(DUE, Long.toString(id))).map(r -> r.toInteger() == 1);
  }

  /** Puts a reminder back on the queue (its event could not be appended). */
  Future<Void> requeueDue(long id, long at) {
    return api.zadd(List.of(DUE, Long.toString(at), Long.toString(id))).mapEmpty();
  }

  /** Takes started activities out of the nearby set. */
  Future<Integer> sweepStarted(long now) {
    return ExpiringMembers.sweep(redis, GEO, GEO_STARTS, now);
  }

  Future<Boolean> warm() {
    return api.exists(List.of(WARM)).map(r -> r.toInteger() == 1);
  }

  Future<Void> markWarm(long now) {
    return api.set(List.of(WARM, Long.toString(now))).mapEmpty();
  }

  /** Drops the warm marker: the next sweep loads every activity of the window again. */
  Future<Void> forgetWarm() {
    return api.del(List.of(WARM)).mapEmpty();
  }

  /** Takes the warm-load lock for {@code millis}; true when taken. */
  Future<Boolean> lockWarm(String token, long millis) {
    return api.set(List.of(WARM_LOCK, token, "NX", "PX", Long.toString(millis))).map(r -> r != null);
  }

  Future<Void> unlockWarm(String token) {
    return UNLOCK.run(api, List.of("1", WARM_LOCK, token)).mapEmpty();
  }
}
