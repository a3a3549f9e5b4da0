package io.kith.bench.scenario.activities;

import io.kith.activities.api.ActivitiesErrors;
import io.kith.activities.api.ActivitiesService;
import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.platform.error.Failures;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Many users join one activity at the same moment: {@code --joiners} (200) distinct users send their join at once to
 * an activity with {@code --capacity} (50) places and no waitlist; exactly {@code --capacity} must be told
 * {@code joined} and the others {@code 409 activity_full}, and afterwards the activity must count, and list, exactly
 * those participants. The burst is repeated on a fresh activity {@code --rounds} times.
 *
 * <p>Measured per request, from the moment the burst is sent: the join over HTTP ({@code join-http},
 * {@code PUT /api/v1/activities/{id}/participation}) and, in-process, through the activities service proxy on Kith's
 * event bus ({@code join-bus}); the baseline is the same users sending {@code GET /api/v1/whoami} at once
 * ({@code whoami-burst}): an authenticated request with the same concurrency through the same gateway. The three
 * bursts run in a shuffled order in each round, so they share the machine's state.
 *
 * <p>Set-up registers the organiser and the joiners over HTTP ({@code --joiners} + 1 registrations: in-process the
 * registration limit is lifted, a remote target must allow them). Every burst gets its own HTTP client with one
 * connection per joiner, so the requests really are in flight together.
 */
public final class ActivitiesJoinScenario extends DescribedScenario {

  static final String JOINERS = "joiners";
  static final String CAPACITY = "capacity";
  static final String ROUNDS = "rounds";
  static final String WARMUP_ROUNDS = "warmup-rounds";

  static final String JOIN_HTTP = "join-http";
  static final String JOIN_BUS = "join-bus";
  static final String WHOAMI = "whoami-burst";
  static final String ACTIVITIES = "/api/v1/activities";

  static final String JOINED = "joined";
  static final String FULL = "activity_full";
  /** Least time a request of a burst may take before it counts as failed. */
  static final long BURST_TIMEOUT_MILLIS = 60_000;
  /** Registrations at once (password hashing runs on two threads by default). */
  private static final int REGISTER_AT_ONCE = 4;
  private static final long HOUR = 3_600_000L;

  public ActivitiesJoinScenario() {
    // it registers its users
    super("activities-join",
        "200 users join a 50-place activity at once (exactly 50 must get in): join latency over HTTP and the "
            + "service proxy vs the same users' whoami at once",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(JOINERS, "distinct users joining at once (registered over HTTP)", 200, 2, 2_000),
        ScenarioOption.count(CAPACITY, "places of the activity (no waitlist)", 50, 1, 5_000),
        ScenarioOption.count(ROUNDS, "measured bursts of each kind, each on a fresh activity", 10, 1, 100),
        ScenarioOption.count(WARMUP_ROUNDS, "bursts of each kind before those, not recorded (still checked)", 3, 0,
            100));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled()
        .put("activities", new JsonObject().put("creates-per-hour", 1_000_000));
  }

  /**
   * Why one long method: it is the scenario's flow in order (options, clients, the bursts it measures, the rounds),
   * each step a few lines over the same clients and bursts.
   */
  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    int joiners = (int) context.option(JOINERS);
    int capacity = (int) context.option(CAPACITY);
    int rounds = (int) context.option(ROUNDS);
    int warmupRounds = (int) context.option(WARMUP_ROUNDS);
    if (capacity >= joiners) {
      return Future.failedFuture(new IllegalArgumentException("--" + CAPACITY + " must be below --" + JOINERS
          + ", or every join succeeds and the capacity is never tested"));
    }
    Context ctx = Vertx.currentContext();
    BenchHttpClient http = context.http();
    // every request of a burst waits behind the others: give them at least BURST_TIMEOUT_MILLIS, whatever --timeout
    BenchHttpClient burstClient = new BenchHttpClient(context.vertx(), context.target(), joiners + 1,
        Math.max(BURST_TIMEOUT_MILLIS, context.settings().timeout().toMillis() + 1000));
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    ActivitiesService bus = context.kithVertx() == null ? null : ActivitiesService.proxy(context.kithVertx());
    Burst whoami = new Burst(WHOAMI, joiners + " users' GET /api/v1/whoami at once", context.runner().cpu());
    Burst joinHttp = new Burst(JOIN_HTTP, joiners + " users' PUT " + ACTIVITIES + "/{id}/participation at once, "
        + capacity + " places", context.runner().cpu());
    Burst joinBus = new Burst(JOIN_BUS, joiners + " users' ActivitiesService.join on the event bus at once, "
        + capacity + " places", context.runner().cpu());
    List<Integer> admitted = new ArrayList<>();
    return registerAll(accounts, joiners).compose(users -> {
      BenchAccounts.User organiser = users.get(0);
      List<BenchAccounts.User> joining = users.subList(1, users.size());
      Random random = new Random();
      Future<Void> chain = Future.succeededFuture();
      for (int r = 0; r < warmupRounds + rounds; r++) {
        // warm-up rounds run the same bursts into operations that are not reported (their answers are still checked)
        boolean warm = r < warmupRounds;
        Burst w = warm ? new Burst(WHOAMI, "warm-up") : whoami;
        Burst h = warm ? new Burst(JOIN_HTTP, "warm-up") : joinHttp;
        Burst b = warm ? new Burst(JOIN_BUS, "warm-up") : joinBus;
        List<java.util.function.Supplier<Future<Void>>> steps = new ArrayList<>(List.of(
            () -> whoamiBurst(burstClient, w, joining),
            () -> httpBurst(http, burstClient, h, organiser, joining, capacity, admitted)));
        if (bus != null) {
          steps.add(() -> busBurst(ctx, http, bus, b, organiser, joining, capacity, admitted));
        }
        if (warm) {
          steps.add(() -> failOnErrors(w, h, b));
        }
        Collections.shuffle(steps, random);
        for (var step : steps) {
          chain = chain.compose(v -> step.get());
        }
      }
      return chain;
    }).map(v -> {
      List<OperationStats> ops = new ArrayList<>(List.of(joinHttp.stats()));
      if (bus != null) {
        ops.add(joinBus.stats());
      }
      ops.add(whoami.stats());
      return new ScenarioResult(ops, List.of(
          new RatioSpec(JOIN_HTTP, WHOAMI, 50), new RatioSpec(JOIN_HTTP, WHOAMI, 99),
          new RatioSpec(JOIN_HTTP, WHOAMI, 100)),
          notes(joiners, capacity, rounds, warmupRounds, joinHttp, joinBus, bus != null),
          figures(capacity, admitted, joinHttp, joinBus, bus != null));
    }).eventually(burstClient::close);
  }

  /** A warm-up round whose answers were wrong stops the run: it would have counted as an error if recorded. */
  private static Future<Void> failOnErrors(Burst... bursts) {
    for (Burst burst : bursts) {
      OperationStats stats = burst.stats();
      if (stats.failed() > 0) {
        return Future.failedFuture(new IllegalStateException("a warm-up " + stats.name() + " burst went wrong: "
            + stats.errorKinds()));
      }
    }
    return Future.succeededFuture();
  }

  /** The organiser and the joiners, a few registrations at a time. */
  private static Future<List<BenchAccounts.User>> registerAll(BenchAccounts accounts, int joiners) {
    List<String> roles = BenchAccounts.roles(List.of("org"), "j", joiners);
    BenchAccounts.User[] users = new BenchAccounts.User[roles.size()];
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < roles.size(); i += REGISTER_AT_ONCE) {
      int from = i;
      int to = Math.min(roles.size(), i + REGISTER_AT_ONCE);
      chain = chain.compose(v -> {
        List<Future<Void>> batch = new ArrayList<>();
        for (int k = from; k < to; k++) {
          int index = k;
          batch.add(accounts.register(roles.get(k)).map(u -> {
            users[index] = u;
            return null;
          }));
        }
        return Future.all(batch).mapEmpty();
      });
    }
    return chain.map(v -> List.of(users));
  }

  /** An activity of the organiser with {@code capacity} places, starting in a day. */
  static JsonObject activity(int capacity, String title) {
    long start = System.currentTimeMillis() + 24 * HOUR;
    return new JsonObject().put("title", title).put("start", start).put("end", start + 2 * HOUR)
        .put("place", new JsonObject().put("name", "Bench hall")).put("capacity", capacity);
  }

  private static Future<Long> create(BenchHttpClient http, BenchAccounts.User organiser, int capacity, String title) {
    return http.postJson(ACTIVITIES, activity(capacity, title), organiser.accessToken(), 201)
        .map(view -> {
          Object id = view.getValue("id");
          if (!(id instanceof Number)) {
            throw new IllegalStateException("the created activity has no id");
          }
          return ((Number) id).longValue();
        });
  }

  private static Future<Void> whoamiBurst(BenchHttpClient client, Burst burst, List<BenchAccounts.User> users) {
    return burst.<JsonObject>fire(users.size(),
        i -> Replies.whoami(client, users.get(i).accessToken(), users.get(i).id()),
        f -> f.succeeded() ? "ok" : null).mapEmpty();
  }

  private static Future<Void> httpBurst(BenchHttpClient http, BenchHttpClient client, Burst burst,
                                        BenchAccounts.User organiser, List<BenchAccounts.User> users, int capacity,
                                        List<Integer> admitted) {
    return create(http, organiser, capacity, "HTTP join burst").compose(id -> burst.<JsonObject>fire(users.size(),
            i -> client.requestJson(HttpMethod.PUT, ACTIVITIES + "/" + id + "/participation", null,
                users.get(i).accessToken(), 200),
            f -> f.succeeded() ? (JOINED.equals(f.result().getString("status")) ? JOINED : null)
                : ("HTTP 409 " + FULL).equals(f.cause().getMessage()) ? FULL : null)
        .compose(outcomes -> check(http, organiser, burst, id, users, outcomes, capacity, admitted)));
  }

  private static Future<Void> busBurst(Context ctx, BenchHttpClient http, ActivitiesService bus, Burst burst,
                                       BenchAccounts.User organiser, List<BenchAccounts.User> users, int capacity,
                                       List<Integer> admitted) {
    return create(http, organiser, capacity, "Event-bus join burst").compose(id -> burst.<JsonObject>fire(
            users.size(),
            i -> ScenarioContext.onContext(ctx, bus.join(users.get(i).id(), id)),
            f -> f.succeeded() ? (JOINED.equals(f.result().getString("status")) ? JOINED : null)
                : Failures.is(f.cause(), ActivitiesErrors.ACTIVITY_FULL) ? FULL : null)
        .compose(outcomes -> check(http, organiser, burst, id, users, outcomes, capacity, admitted)));
  }

  /**
   * After a burst: exactly {@code capacity} users were told they joined, and the activity counts and lists exactly
   * them. A difference is counted as an error of the burst's operation (so the run is not clean) and noted.
   */
  private static Future<Void> check(BenchHttpClient http, BenchAccounts.User organiser, Burst burst, long id,
                                    List<BenchAccounts.User> users, List<String> outcomes, int capacity,
                                    List<Integer> admitted) {
    Set<Long> told = new HashSet<>();
    for (int i = 0; i < users.size(); i++) {
      if (JOINED.equals(outcomes.get(i))) {
        told.add(users.get(i).id());
      }
    }
    admitted.add(told.size());
    if (told.size() != capacity) {
      burst.error(told.size() + " users were told they joined a " + capacity + "-place activity");
    }
    return http.getJson(ACTIVITIES + "/" + id, organiser.accessToken())
        .compose(view -> {
          int count = view.getInteger("participant_count", -1);
          if (count != capacity) {
            burst.error("the activity counts " + count + " participants, not " + capacity);
          }
          return participants(http, organiser, id, null, new HashSet<>());
        })
        .map(listed -> {
          if (!listed.equals(told)) {
            burst.error("the participant list (" + listed.size() + ") is not the users told they joined ("
                + told.size() + ")");
          }
          return null;
        });
  }

  /** Every participant of the activity, following the cursor. */
  private static Future<Set<Long>> participants(BenchHttpClient http, BenchAccounts.User organiser, long id,
                                                String cursor, Set<Long> into) {
    String path = ACTIVITIES + "/" + id + "/participants?limit=100"
        + (cursor == null ? "" : "&cursor=" + java.net.URLEncoder.encode(cursor,
        java.nio.charset.StandardCharsets.UTF_8));
    return http.getJson(path, organiser.accessToken()).compose(page -> {
      JsonArray items = page.getJsonArray("items", new JsonArray());
      for (Object o : items) {
        into.add(((JsonObject) o).getJsonObject("user").getLong("id"));
      }
      String next = page.getString("next_cursor");
      return next == null || items.isEmpty() ? Future.succeededFuture(into)
          : participants(http, organiser, id, next, into);
    });
  }

  private static List<Figure> figures(int capacity, List<Integer> admitted, Burst http, Burst bus,
                                      boolean overBus) {
    List<Figure> figures = new ArrayList<>();
    int most = admitted.stream().mapToInt(Integer::intValue).max().orElse(-1);
    int least = admitted.stream().mapToInt(Integer::intValue).min().orElse(-1);
    figures.add(Figure.of("most admitted", most, "users", "the most users told they joined, over every burst "
        + "(HTTP and event bus)").withGoal(Figure.Goal.atMost(capacity)));
    figures.add(Figure.of("fewest admitted", least, "users", "the fewest users told they joined, over every burst")
        .withGoal(Figure.Goal.atLeast(capacity)));
    addLatency(figures, JOIN_HTTP, http);
    if (overBus) {
      addLatency(figures, JOIN_BUS, bus);
    }
    return figures;
  }

  private static void addLatency(List<Figure> figures, String name, Burst burst) {
    var h = burst.latency();
    if (h.getTotalCount() == 0) {
      return;
    }
    figures.add(Figure.of(name + " p50", h.getValueAtPercentile(50) / 1000.0, "ms", "join latency, median"));
    figures.add(Figure.of(name + " p99", h.getValueAtPercentile(99) / 1000.0, "ms", "join latency, 99th percentile"));
    figures.add(Figure.of(name + " max", h.getMaxValue() / 1000.0, "ms", "join latency, slowest"));
  }

  private static List<String> notes(int joiners, int capacity, int rounds, int warmupRounds, Burst http, Burst bus,
                                    boolean overBus) {
    List<String> notes = new ArrayList<>();
    notes.add(String.format(Locale.ROOT, "%d bursts of each kind measured after %d not recorded, in a shuffled order "
        + "each round; each join burst on a fresh activity with %d places and no waitlist, %d distinct users sending "
        + "at once; latency from the moment the burst was sent to each answer (joined or 409 activity_full, both "
        + "correct); --rate, --warmup and --duration do not apply", rounds, warmupRounds, capacity, joiners));
    notes.add(JOIN_HTTP + " outcomes: " + Burst.describe(http.outcomes()));
    if (overBus) {
      notes.add(JOIN_BUS + " outcomes: " + Burst.describe(bus.outcomes()));
    } else {
      notes.add(JOIN_BUS + " skipped: the service proxy is reachable only in-process");
    }
    notes.add("after every join burst the activity's participant_count and its participant list (paged) must be "
        + "exactly the users told they joined; a difference counts as an error of that operation");
    notes.add("bursts have no offered rate: a burst operation's req/s is its correct answers over the summed burst "
        + "durations");
    return notes;
  }

  /** Expected outcomes of one burst (for tests): {@code capacity} joined, the rest full. */
  static Map<String, Long> expected(int joiners, int capacity) {
    return Map.of(JOINED, (long) capacity, FULL, (long) (joiners - capacity));
  }
}
