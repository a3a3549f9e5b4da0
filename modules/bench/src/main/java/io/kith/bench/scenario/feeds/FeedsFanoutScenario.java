package io.kith.bench.scenario.feeds;

import io.kith.bench.load.Operation;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.EdgeSeeder;
import io.kith.bench.scenario.RedisWork;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.service.FeedsSeeder;
import io.kith.platform.Platform;
import io.kith.relations.service.RelationsSeeder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fan-out of posts into followers' home timelines, against the speed of plain pipelined {@code LPUSH} on the same
 * Redis.
 *
 * <p>Set-up registers two authors over HTTP and writes {@code --followers} (10,000) follow edges to the large one and
 * {@code --small-followers} (100) to the small one straight into MongoDB (edges and counts, from the relations
 * test-jar's {@code RelationsSeeder}, bypassing the relations service), from user ids 1..N that are not accounts,
 * oldest first. Every follower is made active by creating their home timeline's marker directly in Redis (an
 * {@code RPUSH} of {@code FeedsSeeder.MARKER} to {@code FeedsSeeder.timelineKey}, with an expiry), since the fan-out
 * worker adds only to timelines that exist. Posts are published through the feeds service proxy on the in-process
 * Kith's event bus; the authors are accounts because a publish replies with the hydrated view.
 *
 * <p>Three parts, one run:
 * <ol>
 *   <li>Latency (open loop, {@code --publish-rate} posts per second from each author, interleaved): each operation
 *   publishes a public post and completes when the post is in the home timeline of a sample of the author's
 *   followers, among them the oldest, which is on the last page of the worker's eligible-follower stream (polled
 *   with pipelined {@code LPOS} every {@value FeedsSeed#POLL_MILLIS} ms). Its latency is publish to last follower.</li>
 *   <li>Throughput (burst): with the worker idle, {@code --burst} posts from the large author (and
 *   {@code --small-burst} from the small one, separately) are published at once; the time until the oldest and the
 *   newest follower hold all of them gives timeline inserts per second, (followers reached × posts) / time. Every
 *   follower's timeline is then checked for the first and the last post of the burst.</li>
 *   <li>Baseline ({@link LpushBaseline}): {@code redis-benchmark -P 16 -t lpush} against the same Redis when it is on
 *   PATH, and always an in-JVM loop of pipelined {@code LPUSH} batches of 1,000 through the Vert.x Redis client.</li>
 * </ol>
 * A short breakdown follows ({@link FanoutBreakdown}): the worker's two steps timed alone (the relations service's
 * eligible-follower stream over the event bus, in pages of 1,000 and in the worker's pages; the worker's insert into
 * 1,000 existing timelines, against the sorted-set insert of run 3 and plain {@code LPUSHX}).
 *
 * <p>This class holds the set-up, the latency and burst parts and the report; all parts measure the same seeded
 * authors, followers and timelines against the same Redis in one run, since their figures are only comparable as
 * ratios within it.
 */
public final class FeedsFanoutScenario extends DescribedScenario {

  static final String FOLLOWERS = "followers";
  static final String SMALL_FOLLOWERS = "small-followers";
  static final String PUBLISH_RATE = "publish-rate";
  static final String BURST = "burst";
  static final String SMALL_BURST = "small-burst";

  static final String LARGE = "fanout-large";
  static final String SMALL = "fanout-small";

  /** The in-process Kith's celebrity threshold: above every --followers value, so the large author is fanned out. */
  static final int CELEBRITY_THRESHOLD = 1_000_001;
  /** Followers whose timelines the latency operations poll, besides the oldest and the newest. */
  static final int SAMPLE = 6;
  /** How long a burst, or waiting for the worker to be idle, may take. */
  static final long BURST_DEADLINE_MILLIS = 600_000;

  private final BenchStores stores = new BenchStores(name());

  public FeedsFanoutScenario() {
    // it registers its authors and seeds the stores of the in-process Kith
    super("feeds-fanout",
        "publish to 10,000 / 100 active followers' home timelines: timeline inserts/s vs pipelined Redis LPUSH, "
            + "publish-to-last-follower latency",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(FOLLOWERS, "active followers of the large author, seeded straight into the stores",
            10_000, 1, 1_000_000),
        ScenarioOption.count(SMALL_FOLLOWERS, "active followers of the small author", 100, 1, 100_000),
        ScenarioOption.number(PUBLISH_RATE, "posts per second from each author in the latency part", 1, 0.01, 50),
        ScenarioOption.count(BURST, "posts published at once by the large author in the throughput part", 20, 1,
            200),
        ScenarioOption.count(SMALL_BURST, "posts published at once by the small author in the throughput part", 200,
            1, 500));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled()
        .put("feeds", new JsonObject()
            .put("celebrity-threshold", CELEBRITY_THRESHOLD)
            .put("posts-per-hour", 10_000_000))
        .mergeIn(stores.inProcessConfig(), true);
  }

  /** An author and its followers, oldest first. */
  private record Author(String op, long id, List<Long> followers, List<Long> sample, AtomicLong lastPost) {

    long oldest() {
      return followers.get(0);
    }

    long newest() {
      return followers.get(followers.size() - 1);
    }
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (context.settings().closedLoop()) {
      return Future.failedFuture(new IllegalStateException(name() + " publishes at --publish-rate; run it with a "
          + "rate, not --rate max"));
    }
    return stores.using(context, platform -> FeedsSeed.feeds(context, name())
        .compose(feeds -> measure(context, platform, feeds)));
  }

  private Future<ScenarioResult> measure(ScenarioContext context, Platform platform, FeedsService feeds) {
    int large = (int) context.option(FOLLOWERS);
    int small = (int) context.option(SMALL_FOLLOWERS);
    double rate = context.option(PUBLISH_RATE);
    int burst = (int) context.option(BURST);
    int smallBurst = (int) context.option(SMALL_BURST);
    BenchAccounts accounts = new BenchAccounts(context.http(), BenchAccounts.newTag());
    List<String> notes = new ArrayList<>();
    List<Figure> figures = new ArrayList<>();
    Redis redis = platform.redis();
    return accounts.registerAll(List.of("large", "small")).compose(users -> {
      // follower ids 1..N are not accounts (the fan-out never looks them up), oldest first
      Author big = author(LARGE, users.get(0).id(), 1, large);
      Author little = author(SMALL, users.get(1).id(), 1L + large, small);
      long seedStart = System.nanoTime();
      return seed(context, platform, big)
          .compose(v -> seed(context, platform, little))
          .compose(v -> {
            notes.add(String.format(Locale.ROOT, "seeding: %,d + %,d follow edges (ids 1..%,d, not accounts) and "
                    + "relation_counts written straight into MongoDB, bypassing the relations service; every follower "
                    + "made active by creating the marker of their home timeline directly in Redis (RPUSH %s %s, "
                    + "EXPIRE %d), not by a read; %.1f s", large, small, large + small,
                FeedsSeeder.timelineKey(FeedsSeeder.HOME, 1), FeedsSeeder.MARKER,
                FeedsSeed.MARKER_TTL_SECONDS, (System.nanoTime() - seedStart) / 1e9));
            Operation opLarge = publishAndWait(context, platform, feeds, big).atRate(rate);
            Operation opSmall = publishAndWait(context, platform, feeds, little).atRate(rate);
            List<Operation> operations = List.of(opLarge, opSmall);
            return context.preflight(operations).compose(x -> context.runner().run(name(), operations));
          })
          .compose(stats -> idle(context, redis, List.of(big, little))
              .compose(v -> RedisWork.take(redis))
              .compose(before -> burst(context, redis, feeds, big, burst).compose(b -> RedisWork.take(redis)
                  .map(after -> {
                    long inserts = (long) big.followers().size() * burst;
                    RedisWork spent = after.minus(before);
                    figures.add(Figure.of("redis CPU per insert (us)", spent.cpuMicros() / inserts, "us",
                        String.format(Locale.ROOT, "the Redis server's CPU time (INFO cpu) during the %d-post burst "
                            + "to %,d followers, per timeline insert; its busiest commands (INFO commandstats, "
                            + "microseconds and calls per insert): %s", burst, big.followers().size(), spent.top(inserts, 12))));
                    return b;
                  })))
              .compose(b -> {
                figures.add(b);
                return idle(context, redis, List.of(big, little)).compose(v -> burst(context, redis, feeds, little,
                    smallBurst)).map(s -> {
                      figures.add(s);
                      return stats;
                    });
              }))
          .compose(stats -> LpushBaseline.measure(context, platform, stores.redisPort(), figures, notes)
              .map(v -> stats))
          .compose(stats -> FanoutBreakdown.measure(context, platform, big.id(), figures).map(v -> stats))
          .map(stats -> result(stats, figures, notes, large, small));
    });
  }

  private static Author author(String op, long id, long firstFollower, int count) {
    List<Long> followers = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      followers.add(firstFollower + i);
    }
    return new Author(op, id, List.copyOf(followers), sample(followers), new AtomicLong());
  }

  /** The oldest follower (last in the worker's stream), the newest, and {@link #SAMPLE} spread between. */
  static List<Long> sample(List<Long> followers) {
    List<Long> sample = new ArrayList<>();
    int n = followers.size();
    sample.add(followers.get(0));
    for (int i = 1; i <= SAMPLE; i++) {
      long f = followers.get((int) ((long) n * i / (SAMPLE + 1)));
      if (!sample.contains(f)) {
        sample.add(f);
      }
    }
    if (!sample.contains(followers.get(n - 1))) {
      sample.add(followers.get(n - 1));
    }
    return List.copyOf(sample);
  }

  private static Future<Void> seed(ScenarioContext context, Platform platform, Author author) {
    long first = author.followers().get(0);
    EdgeSeeder.Source edges = EdgeSeeder.follows(author.id(), author.followers().size(), i -> first + i,
        platform.ids()::next, System::currentTimeMillis);
    return EdgeSeeder.seed(context.vertx(), platform.mongo(), RelationsSeeder.EDGES, edges, "follower edges")
        .compose(r -> RelationsSeeder.counts(platform.mongo(), author.id(),
            RelationsSeeder.countFields(null, (long) author.followers().size(), null)))
        .compose(v -> FeedsSeed.activate(platform.redis(), FeedsSeeder.HOME, author.followers()));
  }

  private static JsonObject postBody(String op) {
    return new JsonObject().put("text", "kith-bench " + op).put("visibility", "public");
  }

  /** Publishes one post and completes when every sampled follower's home timeline holds it. */
  private Operation publishAndWait(ScenarioContext context, Platform platform, FeedsService feeds, Author author) {
    long timeout = context.settings().timeout().toMillis();
    return new Operation(author.op(), "publish a public post to " + String.format(Locale.ROOT, "%,d",
        author.followers().size()) + " active followers, until the oldest follower's home timeline holds it", () -> {
          Context ctx = Vertx.currentContext();
          return ScenarioContext.onContext(ctx, feeds.publish(author.id(), postBody(author.op()))).compose(view -> {
            long id = view.getLong("id");
            author.lastPost().accumulateAndGet(id, Math::max);
            return FeedsSeed.holdAll(context.vertx(), platform.redis(), author.sample(), List.of(id),
                System.currentTimeMillis() + timeout);
          });
        });
  }

  /** Waits until each author's last post reached its oldest follower: the worker handles posts in order. */
  private static Future<Void> idle(ScenarioContext context, Redis redis, List<Author> authors) {
    Future<Void> chain = Future.succeededFuture();
    for (Author a : authors) {
      long last = a.lastPost().get();
      if (last != 0) {
        chain = chain.compose(v -> FeedsSeed.holdAll(context.vertx(), redis, List.of(a.oldest()), List.of(last),
            System.currentTimeMillis() + BURST_DEADLINE_MILLIS));
      }
    }
    return chain;
  }

  /** Publishes {@code count} posts at once and times them into the oldest and newest followers' timelines. */
  private static Future<Figure> burst(ScenarioContext context, Redis redis, FeedsService feeds, Author author,
                                      int count) {
    Context ctx = Vertx.currentContext();
    long start = System.nanoTime();
    List<Future<JsonObject>> published = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      published.add(ScenarioContext.onContext(ctx, feeds.publish(author.id(), postBody(author.op() + " burst"))));
    }
    AtomicLong publishedNanos = new AtomicLong();
    return Future.all(published).compose(all -> {
      publishedNanos.set(System.nanoTime() - start);
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        ids.add(all.<JsonObject>resultAt(i).getLong("id"));
      }
      ids.sort(null);
      author.lastPost().accumulateAndGet(ids.get(ids.size() - 1), Math::max);
      return FeedsSeed.holdAll(context.vertx(), redis, List.of(author.oldest(), author.newest()), ids,
          System.currentTimeMillis() + BURST_DEADLINE_MILLIS).compose(done -> {
            long nanos = System.nanoTime() - start;
            return Future.all(FeedsSeed.holding(redis, FeedsSeeder.HOME, author.followers(), ids.get(0)),
                FeedsSeed.holding(redis, FeedsSeeder.HOME, author.followers(), ids.get(ids.size() - 1))).map(r -> {
                  int first = r.resultAt(0);
                  int last = r.resultAt(1);
                  int n = author.followers().size();
                  double seconds = nanos / 1e9;
                  double perSecond = (double) Math.min(first, last) * count / seconds;
                  return Figure.of(author.op() + " inserts/s", perSecond, "inserts/s", String.format(Locale.ROOT,
                      "%d posts published at once to %,d active followers (%,d inserts): all in the oldest and "
                          + "newest followers' timelines after %.3f s (publish replies after %.3f s); the first post "
                          + "reached %,d and the last %,d of the %,d timelines", count, n, (long) n * count, seconds,
                      publishedNanos.get() / 1e9, first, last, n));
                });
          });
    });
  }

  private static ScenarioResult result(List<OperationStats> stats, List<Figure> measured, List<String> notes,
                                       int large, int small) {
    List<Figure> figures = new ArrayList<>(measured);
    Figure largeRate = find(measured, LARGE + " inserts/s");
    Figure smallRate = find(measured, SMALL + " inserts/s");
    Figure external = find(measured, "lpush/s redis-benchmark");
    Figure inJvm = find(measured, "lpush/s in-JVM");
    Figure lpush = external != null ? external : inJvm;
    String base = external != null ? "redis-benchmark" : "in-JVM LPUSH";
    figures.add(Figure.of(LARGE + "/lpush", largeRate.value() / lpush.value(), "x", "timeline inserts/s of the "
        + String.format(Locale.ROOT, "%,d", large) + "-follower burst over " + base + " LPUSH/s")
        .withGoal(Figure.Goal.atLeast(0.4)));
    figures.add(Figure.of(SMALL + "/lpush", smallRate.value() / lpush.value(), "x", "timeline inserts/s of the "
        + String.format(Locale.ROOT, "%,d", small) + "-follower burst over " + base + " LPUSH/s")
        .withGoal(Figure.Goal.atLeast(0.4)));
    if (external != null) {
      figures.add(Figure.of(LARGE + "/lpush in-JVM", largeRate.value() / inJvm.value(), "x", "the same over the "
          + "in-JVM LPUSH loop"));
    }
    OperationStats largeOp = stats.get(0);
    figures.add(Figure.of(LARGE + " p99 (ms)", largeOp.percentileMillis(99), "ms", "publish to the oldest of "
        + String.format(Locale.ROOT, "%,d", large) + " followers' timelines, p99 of the latency part"
        + (largeOp.failed() > 0 ? " (" + largeOp.failed() + " requests failed or timed out: not valid)" : ""))
        .withGoal(Figure.Goal.atMost(1000)));
    List<String> all = new ArrayList<>(notes);
    all.add("the in-process Kith runs with feeds.celebrity-threshold " + CELEBRITY_THRESHOLD + " (default 10,000: an "
        + "author with more followers is a celebrity, not fanned out, merged at read time; raised so that any "
        + "--followers value is fanned out) and feeds.posts-per-hour raised");
    all.add("a timeline insert is one follower's part of the worker's script (LINDEX, LPUSH, and a cut back to the "
        + "cap every 32 posts), " + FanoutBreakdown.TIMELINES_PER_CALL + " followers per EVALSHA, pipelined per page; "
        + "LPUSH is the cheapest pipelined write, so the ratio is the fan-out's efficiency against the store's raw write speed on the same Redis (the embedded redis-server 6.2, append-only file "
        + "on, fsync every second)");
    all.add("latency is measured with the load runner (from the intended publish time, polling LPOS every "
        + FeedsSeed.POLL_MILLIS + " ms on the oldest, the newest and " + SAMPLE + " other followers); throughput "
        + "from bursts after the worker went idle; the MongoDB parts of the worker (the post, the follower pages) run on the "
        + "embedded MongoDB-wire server, which ignores non-unique secondary indexes: each eligible-follower page scans "
        + "and sorts the whole edges collection");
    return new ScenarioResult(stats, List.of(new RatioSpec(LARGE, SMALL, 50), new RatioSpec(LARGE, SMALL, 99)),
        all, figures);
  }

  private static Figure find(List<Figure> figures, String name) {
    return figures.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
  }
}
