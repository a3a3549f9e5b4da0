package io.kith.bench.scenario.feeds;

import io.kith.bench.report.Figure;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.feeds.service.FeedsSeeder;
import io.kith.platform.Platform;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.store.LuaScripts;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.service.RelationsSeeder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The feeds-fanout scenario's breakdown: the fan-out worker's two steps timed alone, on the scenario's seeded large
 * author. First the relations service's eligible-follower stream over the event bus (cold from MongoDB, in pages of
 * {@value #BATCH} and in the worker's pages); then the worker's insert into {@value #BATCH} existing list timelines,
 * against the same insert into sorted-set timelines and against plain {@code LPUSHX}.
 */
final class FanoutBreakdown {

  /** Followers per page of the timed walk, and timelines per insert round. */
  static final int BATCH = 1_000;
  static final int BREAKDOWN_ROUNDS = 10;
  /**
   * The fan-out worker's insert: the feeds service's own script file (one call adds the post to many list timelines,
   * KEYS, each only if it exists, at the head when newer than the head, else in place, cut back to the cap once
   * {@link #TRIM_SLACK} over it).
   */
  static final String FAN_OUT = FeedsSeeder.FAN_OUT;
  /** The feeds service's {@code Timelines.TRIM_SLACK}. */
  static final int TRIM_SLACK = FeedsSeeder.TRIM_SLACK;
  /** The worker's timelines per script call ({@code feeds.fanout-timelines-per-call}). */
  static final int TIMELINES_PER_CALL = 200;
  /** The worker's follower page ({@code feeds.fanout-page}). */
  static final int WORKER_PAGE = 10_000;
  /** The insert of run 3, into sorted-set timelines scored by id (marker {@code m} scored 2^53). */
  static final String SORTED_SET_FAN_OUT = LuaScripts.resource("io/kith/bench/scenario/feeds/sorted-set-fan-out.lua");
  static final int TIMELINE_CAP = 800;

  private FanoutBreakdown() {
  }

  /** The worker's two steps, timed alone. */
  static Future<Void> measure(ScenarioContext context, Platform platform, long author, List<Figure> figures) {
    RelationsInternal relations = RelationsInternal.proxy(context.kithVertx());
    Context ctx = Vertx.currentContext();
    List<Long> pageNanos = new ArrayList<>();
    List<Long> listNanos = new ArrayList<>();
    List<Long> coldNanos = new ArrayList<>();
    // relations' Redis copy of the follower list dropped first: one walk that loads it from MongoDB
    return platform.redis().send(Request.cmd(Command.DEL).arg(RelationsSeeder.followerListKey(author)))
        .compose(v -> walk(ctx, relations, author, WORKER_PAGE, null, coldNanos))
        .compose(v -> walk(ctx, relations, author, BATCH, null, pageNanos))
        .compose(v -> walk(ctx, relations, author, WORKER_PAGE, null, listNanos))
        .compose(v -> {
      figures.add(Figure.of("eligible pages of the worker, cold (ms)",
          coldNanos.stream().mapToLong(Long::longValue).sum() / 1e6, "ms", String.format(Locale.ROOT, "the same "
              + "list with the relations service's Redis copy of it deleted first: loaded from MongoDB (a scan of "
              + "the edges collection on the embedded store) and copied to Redis, %d page(s)", coldNanos.size())));
      long total = pageNanos.stream().mapToLong(Long::longValue).sum();
      figures.add(Figure.of("eligible page (ms)", total / 1e6 / pageNanos.size(), "ms",
          String.format(Locale.ROOT, "mean of %d pages of RelationsInternal.eligibleFollowers(large author, %d), "
              + "walked in turn over the event bus: a read of 1,000 followers (from the Redis copy of the list)",
              pageNanos.size(), BATCH)));
      long list = listNanos.stream().mapToLong(Long::longValue).sum();
      figures.add(Figure.of("eligible pages of the worker (ms)", list / 1e6, "ms",
          String.format(Locale.ROOT, "the whole eligible-follower list of the large author in the worker's pages of "
              + "%,d (%d page(s)), from the Redis copy: the worker's read per post", WORKER_PAGE, listNanos.size())));
      Redis redis = platform.redis();
      return redis.batch(List.of(Request.cmd(Command.SCRIPT).arg("LOAD").arg(FAN_OUT),
          Request.cmd(Command.SCRIPT).arg("LOAD").arg(SORTED_SET_FAN_OUT))).compose(shas -> {
        String lists = shas.get(0).toString();
        String sortedSets = shas.get(1).toString();
        return pushProbe(redis, false, manyPerCall(lists))
            .compose(worker -> pushProbe(redis, true, manyPerCall(sortedSets)).map(zset -> new double[] {worker, zset}))
            .compose(two -> pushProbe(redis, false, each((key, post) -> Request.cmd(Command.LPUSHX).arg(key)
                .arg(post))).map(lpushx -> new double[] {two[0], two[1], lpushx}));
      }).map(ms -> {
        figures.add(Figure.of("insert batch (ms)", ms[0], "ms", String.format(Locale.ROOT, "mean of %d pipelined "
            + "rounds of the worker's insert into %,d existing list timelines: the multi-timeline script (LINDEX, "
            + "LPUSH; a cut back to the cap every 32 posts), %d timelines per EVALSHA", BREAKDOWN_ROUNDS, BATCH,
            TIMELINES_PER_CALL)));
        figures.add(Figure.of("insert batch, sorted sets (ms)", ms[1], "ms", String.format(Locale.ROOT,
            "the insert of run 3 into %,d sorted-set timelines (ZCARD, ZADD, ZREMRANGEBYRANK only over the cap), "
                + "%d timelines per EVALSHA", BATCH, TIMELINES_PER_CALL)));
        figures.add(Figure.of("LPUSHX batch (ms)", ms[2], "ms", String.format(Locale.ROOT, "mean of %d pipelined "
            + "batches of %,d plain LPUSHX on the same list timelines (no order kept, no trim): the floor of a list "
            + "insert sent one command per timeline", BREAKDOWN_ROUNDS, BATCH)));
        return null;
      });
    });
  }

  /** The multi-timeline script {@code sha}, {@link #TIMELINES_PER_CALL} timelines per call. */
  private static Inserts manyPerCall(String sha) {
    return (keys, post) -> {
      List<Request> calls = new ArrayList<>();
      for (int i = 0; i < keys.size(); i += TIMELINES_PER_CALL) {
        List<String> part = keys.subList(i, Math.min(keys.size(), i + TIMELINES_PER_CALL));
        Request call = Request.cmd(Command.EVALSHA).arg(sha).arg(part.size());
        part.forEach(call::arg);
        calls.add(call.arg(post).arg(TIMELINE_CAP).arg(TRIM_SLACK));
      }
      return calls;
    };
  }

  private static Future<Void> walk(Context ctx, RelationsInternal relations, long author, int limit, String cursor,
                                   List<Long> pageNanos) {
    long start = System.nanoTime();
    return ScenarioContext.onContext(ctx, relations.eligibleFollowers(author, PageRequest.after(cursor, limit))
        .map(Page::toJson)).compose(page -> {
      pageNanos.add(System.nanoTime() - start);
      String next = page.getString("next");
      return next == null ? Future.succeededFuture() : walk(ctx, relations, author, limit, next, pageNanos);
    });
  }

  /** One request per timeline. */
  private interface Insert {
    Request of(String key, long post);
  }

  private static Inserts each(Insert insert) {
    return (keys, post) -> keys.stream().map(k -> insert.of(k, post)).toList();
  }

  /** The requests adding {@code post} to the timelines at {@code keys}. */
  private interface Inserts {
    List<Request> of(List<String> keys, long post);
  }

  /** Timed rounds of {@code insert} into {@link #BATCH} fresh timelines, lists or sorted sets, each with its marker. */
  private static Future<Double> pushProbe(Redis redis, boolean sortedSets, Inserts insert) {
    List<String> keys = new ArrayList<>();
    String prefix = "bench:probe:" + System.nanoTime();
    List<Request> create = new ArrayList<>();
    List<Request> drop = new ArrayList<>();
    for (long u = 0; u < BATCH; u++) {
      String key = prefix + ":{u:" + u + "}";
      keys.add(key);
      create.add(sortedSets ? Request.cmd(Command.ZADD).arg(key).arg("9007199254740992").arg(FeedsSeeder.MARKER)
          : Request.cmd(Command.RPUSH).arg(key).arg(FeedsSeeder.MARKER));
      drop.add(Request.cmd(Command.DEL).arg(key));
    }
    List<Long> nanos = new ArrayList<>();
    return redis.batch(create).compose(v -> probeRound(redis, insert, keys, 0, nanos))
        .compose(v -> redis.batch(drop))
        .map(v -> nanos.stream().mapToLong(Long::longValue).sum() / 1e6 / nanos.size());
  }

  private static Future<Void> probeRound(Redis redis, Inserts insert, List<String> keys, int round,
                                         List<Long> nanos) {
    if (round == BREAKDOWN_ROUNDS) {
      return Future.succeededFuture();
    }
    List<Request> batch = insert.of(keys, round + 1);
    long start = System.nanoTime();
    return redis.batch(batch).compose(r -> {
      nanos.add(System.nanoTime() - start);
      return probeRound(redis, insert, keys, round + 1, nanos);
    });
  }
}
