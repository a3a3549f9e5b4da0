package io.kith.bench.scenario;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.LoadRunner;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.load.Operation;
import io.kith.bench.load.ProgressListener;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.feeds.api.FeedsService;
import io.kith.platform.Platform;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

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
 * <p>The home read goes over HTTP ({@code GET /api/v1/timelines/home?limit=20}) when the target serves that route;
 * until the gateway has it, through the feeds service proxy on the in-process Kith's event bus, beside a trivial
 * event-bus round trip on the same bus ({@code bus-echo}, a consumer that replies with the request's body). Either
 * way {@code GET /api/v1/whoami} with the reader's token is the baseline.
 *
 * <p>Two parts: latency (open loop, all operations interleaved at {@code --rate}), then throughput: each operation
 * alone in closed loop ({@code --connections} in flight) for the same warm-up and duration; the ratio of the home
 * read's throughput to whoami's is the figure.
 */
public final class FeedsHomeScenario implements Scenario {

  static final String AUTHORS = "authors";
  static final String POSTS_PER_AUTHOR = "posts-per-author";
  static final String HOME = "home";
  static final String WHOAMI = "whoami";
  static final String ECHO = "bus-echo";
  static final String HOME_PATH = "/api/v1/timelines/home?limit=";
  static final int LIMIT = 20;
  static final String ECHO_ADDRESS = "kith.bench.echo";
  /** Concurrent publishes while seeding. */
  private static final int PUBLISH_CHUNK = 10;
  private static final long DELIVERY_DEADLINE_MILLIS = 120_000;

  private final BenchStores stores = new BenchStores(name());

  @Override
  public String name() {
    return "feeds-home";
  }

  @Override
  public String description() {
    return "home timeline read (20 posts, hydrated) of a reader following 50 authors vs GET /api/v1/whoami: "
        + "latency at one rate, then throughput of each alone";
  }

  @Override
  public boolean needsToken() {
    return false; // it registers its users and seeds the stores of the in-process Kith
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(AUTHORS, "authors the reader follows (registered over HTTP)", 50, 1, 500),
        ScenarioOption.count(POSTS_PER_AUTHOR, "posts each author publishes, every fourth friends-only", 4, 1, 50));
  }

  @Override
  public JsonObject inProcessConfig() {
    return AccountsLoginScenario.unthrottled()
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
    AtomicReference<Platform> opened = new AtomicReference<>();
    AtomicReference<MessageConsumer<JsonObject>> echo = new AtomicReference<>();
    return stores.open(context).compose(platform -> {
      opened.set(platform);
      return FeedsSeed.feeds(context, name()).compose(feeds -> measure(context, ctx, platform, feeds, echo));
    }).eventually(() -> {
      Future<Void> unregister = echo.get() == null ? Future.succeededFuture() : echo.get().unregister();
      return unregister.eventually(() -> opened.get() == null ? Future.succeededFuture() : opened.get().close());
    });
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
                                         AtomicReference<MessageConsumer<JsonObject>> echo) {
    int authorCount = (int) context.option(AUTHORS);
    int perAuthor = (int) context.option(POSTS_PER_AUTHOR);
    BenchHttpClient http = context.http();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    List<String> roles = new ArrayList<>(List.of("reader"));
    for (int i = 0; i < authorCount; i++) {
      roles.add("a" + i);
    }
    List<String> notes = new ArrayList<>();
    List<Figure> figures = new ArrayList<>();
    return accounts.registerAll(roles).compose(users -> {
      BenchAccounts.User reader = users.get(0);
      List<Long> authors = users.subList(1, users.size()).stream().map(BenchAccounts.User::id).toList();
      Map<Long, Long> authorOf = new HashMap<>();
      List<Long> visible = new ArrayList<>();
      List<Long> hidden = new ArrayList<>();
      return follow(context, platform, reader.id(), authors)
          // one read creates the reader's (empty) home timeline, so fan-out reaches it
          .compose(v -> FeedsSeed.onContext(ctx, feeds.home(reader.id(), 0, 0, LIMIT)))
          .compose(v -> publishAll(ctx, feeds, authors, perAuthor, authorOf, visible, hidden))
          .compose(v -> {
            visible.sort(null);
            return FeedsFanoutScenario.holdAll(context.vertx(), platform.redis(), List.of(reader.id()), visible,
                System.currentTimeMillis() + DELIVERY_DEADLINE_MILLIS);
          })
          .compose(v -> FeedsSeed.present(platform.redis(), FeedsSeed.HOME, reader.id(), hidden))
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
                .compose(x -> FeedsSeed.servesRoute(http, HOME_PATH + LIMIT, reader.accessToken()))
                .compose(overHttp -> operations(context, ctx, feeds, http, reader, expected, authorOf, overHttp, echo)
                    .compose(ops -> context.preflight(ops)
                        .compose(x -> context.runner().run(name(), ops))
                        .compose(stats -> throughput(context, ctx, ops, figures).map(stats))
                        .map(stats -> result(stats, figures, notes, overHttp, authors.size(), perAuthor))));
          });
    });
  }

  /** The reader follows every author (edges and counts written directly). */
  private static Future<Void> follow(ScenarioContext context, Platform platform, long reader, List<Long> authors) {
    List<JsonObject> edges = new ArrayList<>();
    long now = System.currentTimeMillis();
    authors.forEach(a -> edges.add(EdgeSeeder.edge(platform.ids().next(), "f", reader, a, now)));
    Future<Void> chain = FeedsSeed.insert(context.vertx(), platform, EdgeSeeder.EDGES, edges, "follow edges")
        .compose(r -> FeedsSeed.counts(platform.mongo(), reader, new JsonObject().put("following", authors.size())));
    for (long a : authors) {
      chain = chain.compose(v -> FeedsSeed.counts(platform.mongo(), a, new JsonObject().put("followers", 1)));
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
          each.add(FeedsSeed.onContext(ctx, feeds.publish(job[0], body)).map(view -> {
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
    return platform.redis().send(Request.cmd(Command.DEL).arg(FeedsSeed.timelineKey(FeedsSeed.HOME, reader)))
        .compose(v -> {
          long start = System.nanoTime();
          return FeedsSeed.onContext(ctx, feeds.home(reader, 0, 0, LIMIT)).map(page -> {
            double ms = (System.nanoTime() - start) / 1e6;
            FeedsSeed.checkPage(page, expected, authorOf);
            figures.add(Figure.of("cold home read (ms)", ms, "ms", "one home read after deleting the reader's "
                + "timeline: rebuilt from MongoDB (following list, posts of the followed authors, visibility), "
                + "over the event bus"));
            return null;
          });
        });
  }

  private Future<List<Operation>> operations(ScenarioContext context, Context ctx, FeedsService feeds,
                                             BenchHttpClient http, BenchAccounts.User reader, List<Long> expected,
                                             Map<Long, Long> authorOf, boolean overHttp,
                                             AtomicReference<MessageConsumer<JsonObject>> echo) {
    Operation whoami = new Operation(WHOAMI, "GET " + AuthOverheadScenario.WHOAMI + " with the reader's token",
        () -> http.getJson(AuthOverheadScenario.WHOAMI, reader.accessToken())
            .map(body -> Replies.whoami(body, reader.id())));
    if (overHttp) {
      Operation home = new Operation(HOME, "GET " + HOME_PATH + LIMIT + " with the reader's token",
          () -> http.getJson(HOME_PATH + LIMIT, reader.accessToken())
              .map(page -> FeedsSeed.checkPage(page, expected, authorOf)));
      return Future.succeededFuture(List.of(home, whoami));
    }
    Operation home = new Operation(HOME, "FeedsService.home(reader, limit " + LIMIT + ") through the service proxy "
        + "on the in-process Kith's event bus",
        () -> FeedsSeed.onContext(Vertx.currentContext(), feeds.home(reader.id(), 0, 0, LIMIT))
            .map(page -> FeedsSeed.checkPage(page, expected, authorOf)));
    String address = ECHO_ADDRESS + "." + reader.id();
    MessageConsumer<JsonObject> consumer = context.kithVertx().eventBus().<JsonObject>consumer(address,
        msg -> msg.reply(msg.body()));
    echo.set(consumer);
    JsonObject ping = new JsonObject().put("viewer", reader.id()).put("limit", LIMIT);
    Operation bus = new Operation(ECHO, "a request on the in-process Kith's event bus to a consumer that replies "
        + "with the request body", () -> FeedsSeed.onContext(Vertx.currentContext(),
        context.kithVertx().eventBus().<JsonObject>request(address, ping)).map(reply -> {
          if (!ping.equals(reply.body())) {
            throw new IllegalStateException("the echo replied something else");
          }
          return reply.body();
        }));
    return FeedsSeed.onContext(ctx, consumer.completion()).map(v -> List.of(home, whoami, bus));
  }

  /** Each operation alone in closed loop; adds its throughput, and the ratios, to the figures. */
  private Future<Void> throughput(ScenarioContext context, Context ctx, List<Operation> ops, List<Figure> figures) {
    LoadSettings s = context.settings();
    LoadSettings closed = new LoadSettings(s.rate(), true, s.warmup(), s.duration(), s.connections(), s.timeout(),
        s.maxInFlight());
    LoadRunner runner = new LoadRunner(context.vertx(), ctx, closed, ProgressListener.NONE);
    Map<String, OperationStats> alone = new HashMap<>();
    Future<Void> chain = Future.succeededFuture();
    for (Operation op : ops) {
      chain = chain.compose(v -> runner.run(name() + " " + op.name() + " max", List.of(op)).map(stats -> {
        alone.put(op.name(), stats.get(0));
        return null;
      }));
    }
    return chain.map(v -> {
      for (Operation op : ops) {
        OperationStats st = alone.get(op.name());
        figures.add(Figure.of(op.name() + " max req/s", st.throughput(), "req/s", String.format(Locale.ROOT,
            "%s alone in closed loop, %d in flight: %,d ok, %d failed, p50 %.3f ms", op.name(), s.connections(),
            st.ok(), st.failed(), st.percentileMillis(50))));
      }
      double home = alone.get(HOME).throughput();
      double whoami = alone.get(WHOAMI).throughput();
      figures.add(Figure.of("home/whoami throughput", home / whoami, "x", "home reads per second over whoami "
          + "requests per second, each alone in closed loop").withGoal(Figure.Goal.atLeast(0.35)));
      if (alone.containsKey(ECHO)) {
        double echo = alone.get(ECHO).throughput();
        figures.add(Figure.of("home/bus-echo throughput", home / echo, "x", "home reads per second over trivial "
            + "event-bus round trips per second, each alone in closed loop"));
        // Per-request cost adds up: an HTTP home route would cost about the event-bus read plus whoami's HTTP and
        // token work (the echo's own bus hop counted once).
        double estimate = 1 / (1 / home + 1 / whoami - 1 / echo);
        figures.add(Figure.of("home over HTTP est. req/s", estimate, "req/s", "estimate for a home route over HTTP: "
            + "1 / (1/home + 1/whoami - 1/bus-echo), adding per-request costs measured alone"));
        figures.add(Figure.of("est. HTTP home/whoami", estimate / whoami, "x", "the estimate over whoami"));
      }
      return null;
    });
  }

  private static ScenarioResult result(List<OperationStats> stats, List<Figure> figures, List<String> notes,
                                       boolean overHttp, int authors, int perAuthor) {
    List<RatioSpec> ratios = new ArrayList<>(List.of(new RatioSpec(HOME, WHOAMI, 50), new RatioSpec(HOME, WHOAMI, 99)));
    List<String> all = new ArrayList<>(notes);
    if (overHttp) {
      all.add(0, "home is read over HTTP (" + HOME_PATH + LIMIT + "), like whoami");
    } else {
      ratios.add(new RatioSpec(HOME, ECHO, 50));
      ratios.add(new RatioSpec(HOME, ECHO, 99));
      all.add(0, "the gateway serves no " + HOME_PATH + LIMIT + " yet: home is read through the feeds service proxy "
          + "on the in-process Kith's event bus (no HTTP, no token check), so home/whoami compares an event-bus call "
          + "with an HTTP route and flatters home; bus-echo is the like-for-like baseline for the bus hop, and the "
          + "'est.' figures add whoami's HTTP cost to the home read");
    }
    all.add("each home read returns the " + LIMIT + " newest of the posts visible to the reader, hydrated (author "
        + "summaries from accounts, relations for the viewer's ties, like and repost flags): " + authors + " authors, "
        + perAuthor + " posts each, a quarter friends-only and not visible");
    all.add("the feeds service's MongoDB reads (posts by id, likes and reposts of the viewer) and relations' edge "
        + "query run on the embedded MongoDB-wire server, which ignores non-unique secondary indexes and scans");
    return new ScenarioResult(stats, ratios, all, figures);
  }
}
