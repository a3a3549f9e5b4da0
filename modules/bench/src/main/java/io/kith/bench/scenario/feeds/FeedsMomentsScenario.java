package io.kith.bench.scenario.feeds;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
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
import io.vertx.ext.mongo.FindOptions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The moments timeline of a user with many friends against the pull query it replaces.
 *
 * <p>Set-up registers a viewer and {@code --real-friends} (20) friends over HTTP and takes {@code --friends} (2,000)
 * friends in all, the others user ids 1..N that are not accounts. Everything else is written straight into MongoDB,
 * bypassing the relations and feeds services: each friendship's four edges (follows both ways, {@code F} edges both
 * ways) and {@code relation_counts}; {@code --posts-per-friend} (3) posts per friend in {@code posts} (the feeds
 * domain's document shape), the real friends' newest, in a fixed mix of visibilities (public, friends, followers,
 * only-someone-else, except-the-viewer, except-someone-else, only-the-viewer, private) with every sixteenth deleted,
 * so 5 in 8 of the live ones are visible to the viewer. The viewer's moments timeline does not exist: the first read
 * rebuilds it from MongoDB and is timed apart ({@code cold moments read}).
 *
 * <p>Two operations at {@code --rate}, interleaved: {@code moments}, the viewer's moments page of 20 (through the feeds
 * service proxy on the in-process Kith's event bus, or over HTTP once the gateway serves
 * {@code /api/v1/timelines/moments}), and {@code pull-query}, the classic design's read run on the same MongoDB
 * through a Vert.x MongoClient: {@code find posts {author: {$in: friends}, deleted: {$ne: true}, $or: [vis in
 * (public, followers, friends), vis only with the viewer in aud.users, vis except without the viewer in aud.users]}
 * sort _id desc limit 20}. Both are checked against the expected 20 ids; the moments page must also be hydrated.
 * The ratio pull-query/moments is the figure.
 */
public final class FeedsMomentsScenario extends DescribedScenario {

  static final String FRIENDS = "friends";
  static final String REAL_FRIENDS = "real-friends";
  static final String POSTS_PER_FRIEND = "posts-per-friend";
  static final String MOMENTS = "moments";
  static final String PULL = "pull-query";
  static final String MOMENTS_PATH = "/api/v1/timelines/moments?limit=";
  static final int LIMIT = 20;
  /** A user id that is nobody in this scenario, for audiences that leave the viewer out. */
  static final long SOMEONE_ELSE = 4_000_000_000L;
  /** Every this many posts one is deleted. */
  static final int DELETED_EVERY = 16;

  private final BenchStores stores = new BenchStores(name());

  public FeedsMomentsScenario() {
    // it registers its users and seeds the stores of the in-process Kith
    super("feeds-moments",
        "moments page (20 posts) of a user with 2,000 friends vs the pull query over friends' posts in MongoDB",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(FRIENDS, "friends of the viewer in all (friendship edges seeded straight into MongoDB)",
            2_000, 1, 10_000),
        ScenarioOption.count(REAL_FRIENDS, "of them, accounts registered over HTTP (authors of the newest posts)", 20,
            1, 200),
        ScenarioOption.count(POSTS_PER_FRIEND, "posts per friend, seeded straight into MongoDB", 3, 1, 50));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled().mergeIn(stores.inProcessConfig(), true);
  }

  /** What a seeded post is: its visibility and audience, and whether the viewer may see it. */
  record Kind(String visibility, List<Long> audience, boolean visible) {
  }

  /** The {@code k}-th post's kind, cycling through eight, as the viewer (a friend of every author) sees them. */
  static Kind kind(int k, long viewer) {
    return switch (k % 8) {
      case 0 -> new Kind("public", List.of(), true);
      case 1 -> new Kind("friends", List.of(), true);
      case 2 -> new Kind("followers", List.of(), true);
      case 3 -> new Kind("only", List.of(SOMEONE_ELSE), false);
      case 4 -> new Kind("except", List.of(viewer), false);
      case 5 -> new Kind("except", List.of(SOMEONE_ELSE), true);
      case 6 -> new Kind("only", List.of(viewer), true);
      default -> new Kind("private", List.of(), false);
    };
  }

  /** The pull query's filter: the friends' live posts the viewer may see by visibility and audience users. */
  static JsonObject pullFilter(long viewer, List<Long> friends) {
    return FeedsSeeder.visiblePostsFilter(viewer, friends);
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (context.settings().closedLoop()) {
      return Future.failedFuture(new IllegalStateException(name() + " compares latencies at one rate; run it with "
          + "--rate N, not --rate max"));
    }
    Context ctx = Vertx.currentContext();
    return stores.using(context, platform -> FeedsSeed.feeds(context, name())
        .compose(feeds -> measure(context, ctx, platform, feeds)));
  }

  private Future<ScenarioResult> measure(ScenarioContext context, Context ctx, Platform platform,
                                         FeedsService feeds) {
    int friendCount = (int) context.option(FRIENDS);
    int real = Math.min((int) context.option(REAL_FRIENDS), friendCount);
    int perFriend = (int) context.option(POSTS_PER_FRIEND);
    BenchHttpClient http = context.http();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    List<String> notes = new ArrayList<>();
    List<Figure> figures = new ArrayList<>();
    return accounts.registerAll(BenchAccounts.roles(List.of("viewer"), "f", real)).compose(users -> {
      BenchAccounts.User viewer = users.get(0);
      List<Long> realIds = BenchAccounts.ids(users.subList(1, users.size()));
      List<Long> friends = new ArrayList<>();
      for (long i = 1; i <= friendCount - real; i++) {
        friends.add(i);
      }
      friends.addAll(realIds);
      long now = System.currentTimeMillis();
      List<JsonObject> edges = new ArrayList<>();
      friends.forEach(f -> edges.addAll(RelationsSeeder.friendship(platform.ids()::next, viewer.id(), f, now)));
      // posts: the anonymous friends' first (older ids), the real friends' newest
      List<JsonObject> posts = new ArrayList<>();
      Map<Long, Long> authorOf = new HashMap<>();
      List<Long> visible = new ArrayList<>();
      int k = 0;
      for (int round = 0; round < perFriend; round++) {
        for (long f : friends.subList(0, friendCount - real)) {
          k = addPost(platform, posts, authorOf, visible, f, k, viewer.id(), now);
        }
      }
      for (int round = 0; round < perFriend; round++) {
        for (long f : realIds) {
          k = addPost(platform, posts, authorOf, visible, f, k, viewer.id(), now);
        }
      }
      List<Long> expected = FeedsHomeScenario.newest(visible, LIMIT);
      for (long id : expected) {
        if (!realIds.contains(authorOf.get(id))) {
          return Future.failedFuture(new IllegalStateException("the " + LIMIT + " newest visible posts are not all "
              + "by real friends (accounts): raise --" + REAL_FRIENDS + " or --" + POSTS_PER_FRIEND));
        }
      }
      long seedStart = System.nanoTime();
      return FeedsSeed.insert(context.vertx(), platform, RelationsSeeder.EDGES, edges, "friendship edges")
          .compose(r -> FeedsSeed.insert(context.vertx(), platform, FeedsSeeder.POSTS, posts, "posts"))
          .compose(r -> RelationsSeeder.counts(platform.mongo(), viewer.id(), RelationsSeeder.countFields(
              (long) friends.size(), (long) friends.size(), (long) friends.size())))
          .compose(r -> {
            Future<Void> chain = Future.succeededFuture();
            for (long f : realIds) {
              chain = chain.compose(v -> RelationsSeeder.counts(platform.mongo(), f,
                  RelationsSeeder.countFields(1L, 1L, 1L)));
            }
            return chain;
          })
          .compose(v -> {
            notes.add(String.format(Locale.ROOT, "seeding: %,d friendship edges (f and F both ways for %,d friends, "
                    + "%d of them accounts) and %,d posts (%,d visible to the viewer) written straight into MongoDB, "
                    + "bypassing the relations and feeds services, in %.1f s", edges.size(), friends.size(), real,
                posts.size(), visible.size(), (System.nanoTime() - seedStart) / 1e9));
            return coldRead(ctx, feeds, viewer.id(), expected, authorOf, figures);
          })
          .compose(v -> FeedsSeed.servesRoute(http, MOMENTS_PATH + LIMIT, viewer.accessToken()))
          .compose(overHttp -> {
            Operation moments = overHttp
                ? new Operation(MOMENTS, "GET " + MOMENTS_PATH + LIMIT + " with the viewer's token",
                    () -> http.getJson(MOMENTS_PATH + LIMIT, viewer.accessToken())
                        .map(page -> FeedsSeed.checkPage(page, expected, authorOf)))
                : new Operation(MOMENTS, "FeedsService.moments(viewer, limit " + LIMIT + ") through the service "
                    + "proxy on the in-process Kith's event bus",
                    () -> ScenarioContext.onContext(Vertx.currentContext(),
                        feeds.moments(viewer.id(), PageRequest.ids(0, 0, LIMIT)).map(Page::toJson))
                            .map(page -> FeedsSeed.checkPage(page, expected,
                        authorOf)));
            JsonObject filter = pullFilter(viewer.id(), friends);
            FindOptions options = new FindOptions().setSort(new JsonObject().put("_id", -1)).setLimit(LIMIT);
            Operation pull = new Operation(PULL, "find posts of " + friends.size() + " friends visible to the viewer "
                + "in MongoDB, sort _id desc, limit " + LIMIT,
                () -> platform.mongo().findWithOptions(FeedsSeeder.POSTS, filter, options).map(docs -> {
                  List<Long> ids = docs.stream().map(d -> d.getLong("_id")).toList();
                  if (!ids.equals(expected)) {
                    throw new IllegalStateException("the pull query found " + ids.size() + " posts other than the "
                        + "expected " + LIMIT);
                  }
                  return docs;
                }));
            List<Operation> ops = List.of(moments, pull);
            return context.preflight(ops).compose(x -> context.runner().run(name(), ops))
                .map(stats -> result(stats, figures, notes, overHttp, friends.size(), perFriend));
          });
    });
  }

  private static int addPost(Platform platform, List<JsonObject> posts, Map<Long, Long> authorOf, List<Long> visible,
                             long author, int k, long viewer, long now) {
    long id = platform.ids().next();
    Kind kind = kind(k, viewer);
    JsonObject doc = FeedsSeeder.post(id, author, kind.visibility(), kind.audience(), now);
    if (k % DELETED_EVERY == DELETED_EVERY - 1) {
      FeedsSeeder.deleted(doc, now);
    } else if (kind.visible()) {
      visible.add(id);
    }
    authorOf.put(id, author);
    posts.add(doc);
    return k + 1;
  }

  /** The first read: the viewer's moments timeline does not exist and is rebuilt from MongoDB. */
  private static Future<Void> coldRead(Context ctx, FeedsService feeds, long viewer, List<Long> expected,
                                       Map<Long, Long> authorOf, List<Figure> figures) {
    long start = System.nanoTime();
    return ScenarioContext.onContext(ctx, feeds.moments(viewer, PageRequest.ids(0, 0, LIMIT)).map(Page::toJson)).map(page -> {
      double ms = (System.nanoTime() - start) / 1e6;
      FeedsSeed.checkPage(page, expected, authorOf);
      figures.add(Figure.of("cold moments read (ms)", ms, "ms", "the first moments read, which builds the timeline "
          + "from MongoDB (friend list, posts of all friends, visibility), over the event bus"));
      return null;
    });
  }

  private static ScenarioResult result(List<OperationStats> stats, List<Figure> measured, List<String> notes,
                                       boolean overHttp, int friends, int perFriend) {
    List<Figure> figures = new ArrayList<>(measured);
    OperationStats moments = stats.get(0);
    OperationStats pull = stats.get(1);
    figures.add(Figure.of("pull/moments p50", pull.percentileMillis(50) / moments.percentileMillis(50), "x",
        "pull query's median latency over the moments read's").withGoal(Figure.Goal.atLeast(10)));
    List<String> all = new ArrayList<>(notes);
    all.add(0, overHttp ? "moments is read over HTTP (" + MOMENTS_PATH + LIMIT + ")"
        : "the gateway serves no " + MOMENTS_PATH + LIMIT + " yet: moments is read through the feeds service proxy "
            + "on the in-process Kith's event bus; the pull query goes from the bench straight to MongoDB, so "
            + "neither pays for HTTP");
    all.add("moments reads the viewer's Redis timeline and hydrates 20 posts (accounts summaries, relations ties, "
        + "like and repost flags); the pull query returns raw documents without hydration, which the classic design "
        + "would add, so the ratio understates what the timeline saves");
    all.add("the pull query expresses the only/except audience by user ids (aud.users); friend groups and contact "
        + "tags in audiences would need the viewer's placements first (none are seeded)");
    all.add(String.format(Locale.ROOT, "the in-process Kith's embedded MongoDB-wire server ignores non-unique "
        + "secondary indexes: the pull query scans all %,d posts (on MongoDB it would walk author_newest once per "
        + "friend), and the moments read's own MongoDB lookups (posts by _id, the viewer's reposts, relations' "
        + "edges) scan too", (long) friends * perFriend));
    return new ScenarioResult(stats, List.of(new RatioSpec(PULL, MOMENTS, 50), new RatioSpec(PULL, MOMENTS, 99)),
        all, figures);
  }
}
