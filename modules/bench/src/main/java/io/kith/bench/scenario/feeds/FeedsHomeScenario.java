package io.kith.bench.scenario.feeds;

import io.kith.bench.baseline.StaticPageServer;
import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.client.Target;
import io.kith.bench.load.LoadRunner;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.load.Operation;
import io.kith.bench.load.ProgressListener;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.service.FeedsSeeder;
import io.kith.platform.Platform;
import io.kith.relations.service.RelationsSeeder;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reading the home timeline (20 posts, hydrated) against the platform's trivial authenticated route.
 *
 * <p>Set-up registers a reader and {@code --authors} (50) authors over HTTP, writes the reader's follow edges to them
 * straight into MongoDB ({@code edges}, {@code relation_counts}; bypassing the relations service), creates the
 * reader's home timeline with one home read, then publishes {@code --posts-per-author} (4) posts per author through
 * the feeds service (every fourth friends-only, which the reader, a follower but no friend, must not see) and waits
 * until the fan-out worker put the visible ones into the reader's timeline. The expected page is known from the
 * publish replies; every read is checked against it (ids in order, each hydrated with its author's summary).
 *
 * <p>Operations, all over HTTP: home ({@code GET /api/v1/timelines/home?limit=20} with the reader's token); the
 * baseline {@code GET /api/v1/whoami} with the same token; and static-page, the bytes of one home page served by a
 * bare Vert.x HTTP server in the same process ({@link StaticPageServer}) and checked by the client like every home
 * read. static-page is the ceiling: no home route returning this page can do more on this machine, so
 * static-page/whoami bounds home/whoami.
 *
 * <p>Two parts: latency (open loop, all operations interleaved at {@code --rate}), then throughput: each operation
 * alone in closed loop ({@code --connections} in flight), in alternating slices for the same duration in all; the
 * ratio of the home read's throughput to whoami's is the figure.
 */
public final class FeedsHomeScenario extends DescribedScenario {

  static final String AUTHORS = "authors";
  static final String POSTS_PER_AUTHOR = "posts-per-author";
  static final String HOME = "home";
  static final String WHOAMI = "whoami";
  static final String PAGE = "static-page";
  static final String HOME_PATH = "/api/v1/timelines/home?limit=";
  static final int LIMIT = 20;
  /** Concurrent publishes while seeding. */
  private static final int PUBLISH_CHUNK = 10;
  private static final long DELIVERY_DEADLINE_MILLIS = 120_000;

  private final BenchStores stores = new BenchStores(name());

  public FeedsHomeScenario() {
    // it registers its users and seeds the stores of the in-process Kith
    super("feeds-home",
        "home timeline read (20 posts, hydrated) of a reader following 50 authors vs GET /api/v1/whoami: "
            + "latency at one rate, then throughput of each alone",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(AUTHORS, "authors the reader follows (registered over HTTP)", 50, 1, 500),
        ScenarioOption.count(POSTS_PER_AUTHOR, "posts each author publishes, every fourth friends-only", 4, 1, 50));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled()
        .put("feeds", new JsonObject().put("posts-per-hour", 10_000_000))
        .mergeIn(stores.inProcessConfig(), true);
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (context.settings().closedLoop()) {
      return Future.failedFuture(new IllegalStateException(name() + " measures latency at a fixed rate and then "
          + "throughput in closed loop by itself; run it with --rate N, not --rate max"));
    }
    Context ctx = Vertx.currentContext();
    // the load runner's context runs on this thread: its CPU time is the client's, not Kith's
    long clientThread = Thread.currentThread().getId();
    AtomicReference<Floor> pages = new AtomicReference<>();
    return stores.using(context, platform -> FeedsSeed.feeds(context, name())
        .compose(feeds -> measure(context, ctx, platform, feeds, pages, clientThread))
        .eventually(() -> pages.get() == null ? Future.succeededFuture() : pages.get().close()));
  }

  /** Visibility of the {@code k}-th post of the seeding: every fourth friends-only, the others public or followers. */
  static String visibility(int k) {
    return switch (k % 4) {
      case 0, 2 -> "public";
      case 1 -> "followers";
      default -> "friends";
    };
  }

  private Future<ScenarioResult> measure(ScenarioContext context, Context ctx, Platform platform, FeedsService feeds,
                                         AtomicReference<Floor> pages, long clientThread) {
    int authorCount = (int) context.option(AUTHORS);
    int perAuthor = (int) context.option(POSTS_PER_AUTHOR);
    BenchHttpClient http = context.http();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    List<String> notes = new ArrayList<>();
    List<Figure> figures = new ArrayList<>();
    return accounts.registerAll(BenchAccounts.roles(List.of("reader"), "a", authorCount)).compose(users -> {
      BenchAccounts.User reader = users.get(0);
      List<Long> authors = BenchAccounts.ids(users.subList(1, users.size()));
      Map<Long, Long> authorOf = new HashMap<>();
      List<Long> visible = new ArrayList<>();
      List<Long> hidden = new ArrayList<>();
      return follow(context, platform, reader.id(), authors)
          // one read creates the reader's (empty) home timeline, so fan-out reaches it
          .compose(v -> ScenarioContext.onContext(ctx, feeds.home(reader.id(), PageRequest.ids(0, 0, LIMIT))
              .map(Page::toJson)))
          .compose(v -> publishAll(ctx, feeds, authors, perAuthor, authorOf, visible, hidden))
          .compose(v -> {
            visible.sort(null);
            return FeedsSeed.holdAll(context.vertx(), platform.redis(), List.of(reader.id()), visible,
                System.currentTimeMillis() + DELIVERY_DEADLINE_MILLIS);
          })
          .compose(v -> FeedsSeed.present(platform.redis(), FeedsSeeder.HOME, reader.id(), hidden))
          .compose(leaked -> {
            if (leaked > 0) {
              return Future.failedFuture(new IllegalStateException("a friends-only post reached the home timeline "
                  + "of a reader who is no friend of its author"));
            }
            List<Long> expected = newest(visible, LIMIT);
            notes.add(String.format(Locale.ROOT, "seeding: the reader's %d follow edges and relation_counts written "
                    + "straight into MongoDB, bypassing the relations service; the reader's home timeline created by "
                    + "one home read; %,d posts published through the feeds service (%,d visible to the reader, %,d "
                    + "friends-only), delivered by the fan-out worker", authors.size(), authorOf.size(),
                visible.size(), hidden.size()));
            return coldRead(ctx, platform, feeds, reader.id(), expected, authorOf, figures)
                .compose(x -> operations(context, http, reader, expected, authorOf, pages))
                .compose(ops -> context.preflight(ops)
                    .compose(x -> context.runner().run(name(), ops))
                    .compose(stats -> throughput(context, ctx, ops, figures).map(stats))
                    .compose(stats -> cost(context, ctx, platform, ops, clientThread, figures).map(stats))
                    .map(stats -> result(stats, figures, notes, authors.size(), perAuthor)));
          });
    });
  }

  /** The reader follows every author (edges and counts written directly). */
  private static Future<Void> follow(ScenarioContext context, Platform platform, long reader, List<Long> authors) {
    List<JsonObject> edges = new ArrayList<>();
    long now = System.currentTimeMillis();
    authors.forEach(a -> edges.add(RelationsSeeder.edge(platform.ids().next(), RelationsSeeder.FOLLOW, reader, a,
        now)));
    Future<Void> chain = FeedsSeed.insert(context.vertx(), platform, RelationsSeeder.EDGES, edges, "follow edges")
        .compose(r -> RelationsSeeder.counts(platform.mongo(), reader,
            RelationsSeeder.countFields((long) authors.size(), null, null)));
    for (long a : authors) {
      chain = chain.compose(v -> RelationsSeeder.counts(platform.mongo(), a,
          RelationsSeeder.countFields(null, 1L, null)));
    }
    return chain;
  }

  /** Publishes the posts round by round over the authors, a few at a time, recording who wrote what. */
  private static Future<Void> publishAll(Context ctx, FeedsService feeds, List<Long> authors, int perAuthor,
                                         Map<Long, Long> authorOf, List<Long> visible, List<Long> hidden) {
    List<long[]> jobs = new ArrayList<>();
    for (int round = 0; round < perAuthor; round++) {
      for (long a : authors) {
        jobs.add(new long[] {a, jobs.size()});
      }
    }
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < jobs.size(); i += PUBLISH_CHUNK) {
      List<long[]> chunk = jobs.subList(i, Math.min(jobs.size(), i + PUBLISH_CHUNK));
      chain = chain.compose(v -> {
        List<Future<Void>> each = new ArrayList<>();
        for (long[] job : chunk) {
          String vis = visibility((int) job[1]);
          JsonObject body = new JsonObject().put("text", "home bench post " + job[1]).put("visibility", vis);
          each.add(ScenarioContext.onContext(ctx, feeds.publish(job[0], body)).map(view -> {
            long id = view.getLong("id");
            authorOf.put(id, job[0]);
            (vis.equals("friends") ? hidden : visible).add(id);
            return null;
          }));
        }
        return Future.all(each).mapEmpty();
      });
    }
    return chain;
  }

  /** The {@code n} largest ids, largest first. */
  static List<Long> newest(List<Long> ids, int n) {
    List<Long> sorted = new ArrayList<>(ids);
    sorted.sort(java.util.Comparator.reverseOrder());
    return List.copyOf(sorted.subList(0, Math.min(n, sorted.size())));
  }

  /** Drops the reader's timeline and times the read that rebuilds it from MongoDB (checked like every read). */
  private static Future<Void> coldRead(Context ctx, Platform platform, FeedsService feeds, long reader,
                                       List<Long> expected, Map<Long, Long> authorOf, List<Figure> figures) {
    return platform.redis().send(Request.cmd(Command.DEL).arg(FeedsSeeder.timelineKey(FeedsSeeder.HOME, reader)))
        .compose(v -> {
          long start = System.nanoTime();
          return ScenarioContext.onContext(ctx, feeds.home(reader, PageRequest.ids(0, 0, LIMIT)).map(Page::toJson))
              .map(page -> {
            double ms = (System.nanoTime() - start) / 1e6;
            FeedsSeed.checkPage(page, expected, authorOf);
            figures.add(Figure.of("cold home read (ms)", ms, "ms", "one home read after deleting the reader's "
                + "timeline: rebuilt from MongoDB (following list, posts of the followed authors, visibility), "
                + "over the event bus"));
            return null;
          });
        });
  }

  /**
   * home and whoami over HTTP, and static-page: the page home returned once, served by a {@link StaticPageServer}
   * and checked by the client like every home read.
   */
  private Future<List<Operation>> operations(ScenarioContext context, BenchHttpClient http, BenchAccounts.User reader,
                                             List<Long> expected, Map<Long, Long> authorOf,
                                             AtomicReference<Floor> pages) {
    Operation whoami = Replies.whoamiOperation(WHOAMI, "the reader's token", http, reader.accessToken(), reader.id());
    Operation home = new Operation(HOME, "GET " + HOME_PATH + LIMIT + " with the reader's token",
        () -> http.getJson(HOME_PATH + LIMIT, reader.accessToken())
            .map(page -> FeedsSeed.checkPage(page, expected, authorOf)));
    return http.getJson(HOME_PATH + LIMIT, reader.accessToken())
        .map(page -> FeedsSeed.checkPage(page, expected, authorOf).toBuffer())
        .compose(bytes -> StaticPageServer.start(Runtime.getRuntime().availableProcessors(), bytes))
        .map(server -> {
          BenchHttpClient direct = new BenchHttpClient(context.vertx(), new Target("127.0.0.1", server.port(), false,
              0), context.settings().connections(), context.settings().timeout().toMillis() + 1000);
          pages.set(new Floor(server, direct));
          Operation page = new Operation(PAGE, "GET of the same page's bytes from a bare HTTP server in the same "
              + "process (no token, routing, service or store), checked like home", () -> direct.getJson("/", null)
              .map(p -> FeedsSeed.checkPage(p, expected, authorOf)));
          return List.of(home, whoami, page);
        });
  }

  /** Longest closed-loop slice of the throughput part (shorter when {@code --duration} is under three of them). */
  static final Duration SLICE = Duration.ofSeconds(2);

  /**
   * Each operation alone in closed loop, in alternating slices: rounds of one slice per operation (order reversed
   * every other round), as many rounds as make {@code --duration} per operation, at least three. The first round's
   * slices start with {@code --warm-up}, the others with a quarter slice of run-in. A host whose speed drifts (other
   * tenants, CPU steal) then weighs on every operation alike, which one long run per operation after another did
   * not. Adds each operation's throughput (requests over measured time, all slices), the ratios, and the spread of
   * the per-round ratios to the figures.
   */
  private Future<Void> throughput(ScenarioContext context, Context ctx, List<Operation> ops, List<Figure> figures) {
    LoadSettings s = context.settings();
    Duration slice = s.duration().dividedBy(3).compareTo(SLICE) < 0 ? s.duration().dividedBy(3) : SLICE;
    int rounds = (int) Math.max(3, s.duration().toMillis() / slice.toMillis());
    LoadRunner first = new LoadRunner(context.vertx(), ctx, new LoadSettings(s.rate(), true, s.warmup(), slice,
        s.connections(), s.timeout(), s.maxInFlight()), ProgressListener.NONE);
    LoadRunner next = new LoadRunner(context.vertx(), ctx, new LoadSettings(s.rate(), true, slice.dividedBy(4), slice,
        s.connections(), s.timeout(), s.maxInFlight()), ProgressListener.NONE);
    Map<String, List<OperationStats>> slices = new HashMap<>();
    Future<Void> chain = Future.succeededFuture();
    for (int r = 0; r < rounds; r++) {
      List<Operation> order = new ArrayList<>(ops);
      if (r % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      LoadRunner runner = r == 0 ? first : next;
      for (Operation op : order) {
        chain = chain.compose(v -> runner.run(name() + " " + op.name() + " max", List.of(op)).map(stats -> {
          slices.computeIfAbsent(op.name(), k -> new ArrayList<>()).add(stats.get(0));
          return null;
        }));
      }
    }
    return chain.map(v -> {
      Map<String, Slices> alone = new HashMap<>();
      ops.forEach(op -> alone.put(op.name(), Slices.of(slices.get(op.name()))));
      for (Operation op : ops) {
        Slices st = alone.get(op.name());
        figures.add(Figure.of(op.name() + " max req/s", st.throughput(), "req/s", String.format(Locale.ROOT,
            "%s alone in closed loop, %d in flight, %d slices of %d ms alternating with the other operations: "
                + "%,d ok, %d failed", op.name(), s.connections(), rounds, slice.toMillis(), st.ok(), st.failed())));
      }
      List<Double> perRound = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        perRound.add(alone.get(HOME).each().get(r).throughput() / alone.get(WHOAMI).each().get(r).throughput());
      }
      perRound.sort(null);
      figures.add(Figure.of("home/whoami per round, lowest", perRound.get(0), "x", "the lowest of the rounds' "
          + "ratios (one home slice over the whoami slice next to it)"));
      figures.add(Figure.of("home/whoami per round, median", perRound.get(rounds / 2), "x", "the median of the "
          + "rounds' ratios"));
      figures.add(Figure.of("home/whoami per round, highest", perRound.get(rounds - 1), "x", "the highest of the "
          + "rounds' ratios"));
      double home = alone.get(HOME).throughput();
      double whoami = alone.get(WHOAMI).throughput();
      figures.add(Figure.of("home/whoami throughput", home / whoami, "x", "home reads per second over whoami "
          + "requests per second, each alone in closed loop").withGoal(Figure.Goal.atLeast(0.35)));
      double page = alone.get(PAGE).throughput();
      figures.add(Figure.of("static-page/whoami throughput", page / whoami, "x", "the bare server's answers per "
          + "second (the same page's bytes) over whoami's: no home route returning this page can reach more"));
      figures.add(Figure.of("home/static-page throughput", home / page, "x", "home reads per second over the bare "
          + "server's answers per second: what the home route's own work leaves of the ceiling"));
      return null;
    });
  }

  /**
   * What one home read and one whoami cost ({@link ReadCost}): each alone in closed loop ({@code --connections} in
   * flight) for three slices with no run-in (both are warm by now), sampled before and after. The figure is
   * the home read's CPU at 16 in flight.
   */
  private Future<Void> cost(ScenarioContext context, Context ctx, Platform platform, List<Operation> ops,
                            long clientThread, List<Figure> figures) {
    LoadSettings s = context.settings();
    LoadRunner runner = new LoadRunner(context.vertx(), ctx, new LoadSettings(s.rate(), true, Duration.ZERO,
        SLICE.multipliedBy(3), s.connections(), s.timeout(), s.maxInFlight()), ProgressListener.NONE);
    Future<Void> chain = Future.succeededFuture();
    for (Operation op : ops.stream().filter(o -> !o.name().equals(PAGE)).toList()) {
      chain = chain.compose(v -> ReadCost.take(context.vertx(), platform.redis(), context.target(), clientThread))
          .compose(before -> runner.run(name() + " " + op.name() + " cost", List.of(op))
              .compose(stats -> ReadCost.take(context.vertx(), platform.redis(), context.target(), clientThread)
                  .map(after -> costFigures(op.name(), before, after, stats.get(0), s.connections(), figures))));
    }
    return chain;
  }

  private static Void costFigures(String op, ReadCost before, ReadCost after, OperationStats stats, int inFlight,
                                  List<Figure> figures) {
    long n = stats.ok();
    figures.add(Figure.of(op + " CPU per request (ms)", after.kithMillisPer(before, n), "ms", String.format(
        Locale.ROOT, "CPU time of the process tree (Kith, its embedded Redis) less the client's event loop, per "
            + "answer, %s alone in closed loop with %d in flight: %,d ok, %.0f req/s", op, inFlight, n,
        stats.throughput())).withGoal(op.equals(HOME) ? Figure.Goal.atMost(0.7) : null));
    figures.add(Figure.of(op + " client CPU per request (ms)", after.clientMillisPer(before, n), "ms",
        "the client's event loop (sending, parsing and checking each answer), left out above"));
    figures.add(Figure.of(op + " Redis commands per request", after.redisCommandsPer(before, n), "", "commands "
        + "the Redis server ran per answer (INFO commandstats; a script counts once): "
        + after.redis().minus(before.redis()).top(n, 8)));
    if (op.equals(HOME)) {
      figures.add(Figure.of("home Redis CPU per read (us)", after.redis().minus(before.redis()).cpuMicros() / n, "us",
          "the Redis server's own CPU time (INFO cpu) per home read, part of the CPU above"));
      figures.add(Figure.of("home MongoDB calls per read", (after.mongoCalls() - before.mongoCalls()) / n, "",
          "MongoDB client calls Kith counted (kith_store_seconds_count, store mongo) per home read"));
      double hits = after.copyHits() - before.copyHits();
      double misses = after.copyMisses() - before.copyMisses();
      figures.add(Figure.of("home post copies missed (%)", hits + misses == 0 ? Double.NaN
          : 100 * misses / (hits + misses), "%", "post documents a read did not find in the Redis post cache, of "
          + "all it looked up (kith_feeds_post_copies_total)"));
    }
    return null;
  }

  private static ScenarioResult result(List<OperationStats> stats, List<Figure> figures, List<String> notes,
                                       int authors, int perAuthor) {
    List<RatioSpec> ratios = new ArrayList<>(List.of(new RatioSpec(HOME, WHOAMI, 50), new RatioSpec(HOME, WHOAMI, 99),
        new RatioSpec(HOME, PAGE, 50)));
    List<String> all = new ArrayList<>(notes);
    all.add(0, "home is read over HTTP (" + HOME_PATH + LIMIT + "), like whoami");
    all.add("each home read returns the " + LIMIT + " newest of the posts visible to the reader, hydrated (author "
        + "summaries from accounts, relations for the viewer's ties, like and repost flags): " + authors + " authors, "
        + perAuthor + " posts each, a quarter friends-only and not visible");
    all.add("static-page serves the bytes of one home page from a bare Vert.x HTTP server in the same process, "
        + "checked by the client like every home read: the ceiling of any home route on this machine");
    return new ScenarioResult(stats, ratios, all, figures);
  }

  /** The static-page server and the client reading it. */
  private record Floor(StaticPageServer server, BenchHttpClient client) {
    Future<Void> close() {
      return client.close().eventually(server::close);
    }
  }

  /** The slices of one operation's throughput part. */
  record Slices(List<OperationStats> each) {
    static Slices of(List<OperationStats> each) {
      return new Slices(List.copyOf(each));
    }

    long ok() {
      return each.stream().mapToLong(OperationStats::ok).sum();
    }

    long failed() {
      return each.stream().mapToLong(OperationStats::failed).sum();
    }

    /** Answered requests over the measured time of all slices. */
    double throughput() {
      return ok() / each.stream().mapToDouble(OperationStats::windowSeconds).sum();
    }
  }
}
