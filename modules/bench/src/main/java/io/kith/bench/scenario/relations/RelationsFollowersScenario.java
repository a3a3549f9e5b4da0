package io.kith.bench.scenario.relations;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.EdgeSeeder;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.accounts.service.AccountsSeeder;
import io.kith.platform.Platform;
import io.kith.relations.service.RelationsSeeder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Follower paging of a celebrity: {@code GET /api/v1/users/{celebrity}/followers?limit=100}, walking down the list
 * with the {@code next} cursor each page returns (and starting again at the top at the end), at a steady rate.
 *
 * <p>Set-up registers the celebrity, a small account, a reader and {@code --real-followers} follower accounts over
 * HTTP, then writes {@code --followers} accounts without password ({@link AccountsSeeder}) and their follow edges to
 * the celebrity straight into the in-process Kith's MongoDB with bulk inserts (bypassing the accounts and relations
 * services: no events, no Redis sets; the follower count is written directly), and on top of them, newest, the real
 * followers' edges to the celebrity and to the small account. Every follower is an account, so every page of the
 * walk is a full page of 100 followers with their summaries, as a reader of a large list sees it. (A list pages past
 * the rows it cannot show, followers without account or in a block with the reader, reading up to 5,000 rows for one
 * page: seeded followers without accounts would make the walk measure that scan, not paging.)
 *
 * <p>Three operations at the same rate, interleaved: the walk ({@code page-walk}), the celebrity's first page
 * ({@code page-top}, 100 real followers with summaries, a list of a million), and the small account's first page
 * ({@code page-small}, the same 100 followers, a list of 100), the baseline: page-top/page-small is what the size of
 * the list costs, page-walk/page-small what paging deep into it costs (full pages of other followers).
 */
public final class RelationsFollowersScenario extends DescribedScenario {

  static final String FOLLOWERS = "followers";
  static final String REAL_FOLLOWERS = "real-followers";
  static final int DEFAULT_FOLLOWERS = 1_000_000;
  static final int DEFAULT_REAL_FOLLOWERS = 100;
  static final int PAGE = 100;

  static final String WALK = "page-walk";
  static final String TOP = "page-top";
  static final String SMALL = "page-small";

  /**
   * The first id of the seeded followers: ids 1..N are older than any id a Kith generator makes today, so they never
   * collide with a registered account.
   */
  static final long ANONYMOUS_BASE = 1;

  private final BenchStores stores = new BenchStores(name());

  public RelationsFollowersScenario() {
    // it registers its users and seeds the stores of the in-process Kith
    super("relations-followers",
        "GET /api/v1/users/{id}/followers?limit=100 walking down --followers seeded followers (1,000,000) vs "
            + "a 100-follower list",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(FOLLOWERS, "followers of the celebrity seeded straight into MongoDB (accounts and edges)",
            DEFAULT_FOLLOWERS, 0, 100_000_000),
        ScenarioOption.count(REAL_FOLLOWERS, "registered accounts following the celebrity (newest, on top of the "
            + "seeded ones) and the small account", DEFAULT_REAL_FOLLOWERS, 1, 1_000));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled().mergeIn(stores.inProcessConfig(), true);
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (context.settings().closedLoop()) {
      return Future.failedFuture(new IllegalStateException(name() + " measures pages at a steady rate; run it with "
          + "--rate N, not --rate max"));
    }
    long seeded = (long) context.option(FOLLOWERS);
    int real = (int) context.option(REAL_FOLLOWERS);
    return stores.using(context, platform -> measure(context, platform, seeded, real));
  }

  private Future<ScenarioResult> measure(ScenarioContext context, Platform platform, long seeded, int real) {
    BenchHttpClient http = context.http();
    String tag = BenchAccounts.newTag();
    BenchAccounts accounts = new BenchAccounts(http, tag);
    List<String> roles = BenchAccounts.roles(List.of("celebrity", "small", "reader"), "f", real);
    List<String> notes = new ArrayList<>();
    return accounts.registerAll(roles).compose(users -> {
      BenchAccounts.User celebrity = users.get(0);
      BenchAccounts.User small = users.get(1);
      BenchAccounts.User reader = users.get(2);
      List<Long> realIds = BenchAccounts.ids(users.subList(3, users.size()));
      long total = seeded + real;
      return seedFollowers(context, platform, celebrity.id(), seeded, tag, notes)
          .compose(v -> seedReal(context, platform, celebrity.id(), small.id(), realIds))
          .compose(v -> setCount(platform.mongo(), celebrity.id(), total))
          .compose(v -> setCount(platform.mongo(), small.id(), real))
          // the reader's registration token may have expired during a long seeding
          .compose(v -> accounts.login(reader))
          .compose(token -> {
            FollowerWalk walk = new FollowerWalk(pages(total));
            Set<Long> realSet = new HashSet<>(realIds);
            LongPredicate anyFollower = follower(realSet, seeded);
            String celebrityPath = BenchAccounts.USERS + celebrity.id() + "/followers?limit=" + PAGE;
            Operation pageWalk = new Operation(WALK, "GET " + BenchAccounts.USERS + "{celebrity}/followers?limit="
                + PAGE + "&cursor=<next_cursor>, walking down " + total + " followers", () -> {
                  FollowerWalk.Step step = walk.next();
                  String path = step.cursor() == null ? celebrityPath : celebrityPath + "&cursor=" + step.cursor();
                  return http.getJson(path, token).map(page -> {
                    checkPage(page, expectedItems(step.depth(), total), anyFollower);
                    walk.answered(step, page.getString("next_cursor"));
                    return page;
                  });
                });
            Operation pageTop = new Operation(TOP, "GET " + BenchAccounts.USERS + "{celebrity}/followers?limit="
                + PAGE + ", the first page of " + total,
                () -> http.getJson(celebrityPath, token)
                    .map(page -> checkPage(page, Math.min(PAGE, real), realSet::contains)));
            Operation pageSmall = new Operation(SMALL, "GET " + BenchAccounts.USERS + "{small}/followers?limit="
                + PAGE + ", the first page of " + real,
                () -> http.getJson(BenchAccounts.USERS + small.id() + "/followers?limit=" + PAGE, token)
                    .map(page -> checkPage(page, Math.min(PAGE, real), realSet::contains)));
            List<Operation> operations = List.of(pageWalk, pageTop, pageSmall);
            return context.preflight(operations)
                .compose(x -> context.runner().run(name(), operations))
                .map(stats -> {
                  notes.add(0, walkNote(walk, total));
                  return stats;
                });
          });
    }).map(stats -> new ScenarioResult(stats,
        List.of(new RatioSpec(TOP, SMALL, 50), new RatioSpec(TOP, SMALL, 99),
            new RatioSpec(WALK, SMALL, 50), new RatioSpec(WALK, SMALL, 99)),
        withGeneralNotes(notes, seeded, real)));
  }

  /** Pages in a list of {@code total} followers at {@link #PAGE} per page (a full last page still has a next). */
  static long pages(long total) {
    return total / PAGE + 1;
  }

  /** Items on page {@code depth} (0-based) of a list of {@code total} followers, all of them shown. */
  static int expectedItems(long depth, long total) {
    long left = total - depth * PAGE;
    return (int) Math.max(0, Math.min(PAGE, left));
  }

  /** The celebrity's followers: the real ones and the {@code seeded} ids from {@link #ANONYMOUS_BASE}. */
  static LongPredicate follower(Set<Long> realFollowers, long seeded) {
    return id -> realFollowers.contains(id) || (id >= ANONYMOUS_BASE && id < ANONYMOUS_BASE + seeded);
  }

  /** Checks a followers page: {@code items} items, each a follower with a summary, and a next cursor field. */
  static JsonObject checkPage(JsonObject page, int items, LongPredicate followers) {
    Object list = page.getValue("items");
    if (!(list instanceof JsonArray array)) {
      throw new IllegalStateException("the page has no items array");
    }
    if (!page.containsKey("next_cursor")
        || !(page.getValue("next_cursor") == null || page.getValue("next_cursor") instanceof String)) {
      throw new IllegalStateException("the page has no next_cursor field");
    }
    if (array.size() != items) {
      throw new IllegalStateException("the page has " + array.size() + " items instead of " + items);
    }
    for (Object item : array) {
      JsonObject user = item instanceof JsonObject o ? o.getJsonObject("user") : null;
      Object id = user == null ? null : user.getValue("id");
      if (!(id instanceof Number) || !followers.test(((Number) id).longValue())) {
        throw new IllegalStateException("the page lists a user who is not one of the expected followers");
      }
    }
    return page;
  }

  private static Future<Void> seedFollowers(ScenarioContext context, Platform platform, long celebrity, long seeded,
                                            String tag, List<String> notes) {
    return seedFollowerAccounts(context.vertx(), platform.mongo(), seeded, tag).compose(accounts -> {
      EdgeSeeder.Source source = EdgeSeeder.follows(celebrity, seeded, i -> ANONYMOUS_BASE + i, platform.ids()::next,
          System::currentTimeMillis);
      return EdgeSeeder.seed(context.vertx(), platform.mongo(), RelationsSeeder.EDGES, source, "follower edges")
          .map(edges -> {
            notes.add("seeding: " + String.format(Locale.ROOT, "%,d", seeded) + " follower accounts, "
                + accounts.describe() + ", and their follow edges to the celebrity, " + edges.describe()
                + ", bulk inserts of " + EdgeSeeder.BATCH + " (" + EdgeSeeder.IN_FLIGHT + " in flight) into the "
                + "in-process Kith's embedded MongoDB, bypassing the accounts and relations services");
            return null;
          });
    });
  }

  /**
   * Writes {@code count} accounts without password, ids from {@link #ANONYMOUS_BASE}, named {@code bench_<tag>_s<i>}:
   * the seeded followers, whom the followers list shows (it leaves out followers without an account).
   */
  static Future<EdgeSeeder.Result> seedFollowerAccounts(Vertx vertx, MongoClient mongo, long count, String tag) {
    return EdgeSeeder.seed(vertx, mongo, AccountsSeeder.ACCOUNTS,
        EdgeSeeder.each(count, i -> AccountsSeeder.account(ANONYMOUS_BASE + i, "bench_" + tag + "_s" + i)),
        "follower accounts");
  }

  /** The real followers follow the celebrity (newest edges, on top) and the small account. */
  private static Future<Void> seedReal(ScenarioContext context, Platform platform, long celebrity, long small,
                                       List<Long> realIds) {
    List<JsonObject> docs = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (Long follower : realIds) {
      docs.add(RelationsSeeder.edge(platform.ids().next(), RelationsSeeder.FOLLOW, follower, celebrity, now));
    }
    for (Long follower : realIds) {
      docs.add(RelationsSeeder.edge(platform.ids().next(), RelationsSeeder.FOLLOW, follower, small, now));
    }
    return EdgeSeeder.seed(context.vertx(), platform.mongo(), RelationsSeeder.EDGES, EdgeSeeder.of(docs),
        "real follower edges").mapEmpty();
  }

  /** Writes the follower count the service would have kept. */
  static Future<Void> setCount(MongoClient mongo, long user, long followers) {
    return RelationsSeeder.counts(mongo, user, RelationsSeeder.countFields(null, followers, null));
  }

  private static String walkNote(FollowerWalk walk, long total) {
    return String.format(Locale.ROOT, "%s moved past %,d pages (deepest page %,d of %,d, %d laps; %,d requests "
            + "repeated a page whose reply had not come yet); every page holds %d followers with their summaries "
            + "(all followers are accounts), so %s/%s is what paging deep into a large list costs a full page", WALK,
        walk.advances(), walk.deepest() + 1, pages(total), walk.laps(), walk.repeats(), PAGE, WALK, SMALL);
  }

  private static List<String> withGeneralNotes(List<String> notes, long seeded, int real) {
    List<String> out = new ArrayList<>(notes);
    out.add(TOP + " and " + SMALL + " return the same " + Math.min(PAGE, real) + " real followers with their "
        + "summaries, from a list of " + String.format(Locale.ROOT, "%,d", seeded + real) + " and of " + real
        + ": " + TOP + "/" + SMALL + " is what the list's size costs a page");
    out.add("the in-process Kith's embedded MongoDB-wire server ignores secondary indexes (it logs 'adding "
        + "secondary index ... is not yet implemented'), so every page scans the whole edges collection and sorts "
        + "the matches: on it, page times grow with the number of edges, and past about 100,000 its MongoDB "
        + "connection stops answering in time (503, 500); on MongoDB the in_newest index (t, b, _id -1) makes a "
        + "page independent of the list's size");
    out.add("the scenario registered " + (real + 3) + " users over HTTP (celebrity, small account, reader and the "
        + "real followers) and seeded " + String.format(Locale.ROOT, "%,d", seeded) + " follower accounts without "
        + "password");
    return out;
  }
}
