package io.kith.bench.scenario.push;

import io.kith.accounts.service.AccountsSeeder;
import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.jvm.ProcessCpu;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.EdgeSeeder;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * One announcement to everyone ({@code POST /api/v1/server/notifications {all: true}} with an API key) reaching
 * {@code --users} offline accounts (10,000) that each hold one APNs push target, against a local APNs that answers
 * every push at once ({@link ApnsStandIn}, Pushy's {@code MockApnsServer}).
 *
 * <p>Set-up: the accounts are written straight into MongoDB ({@link AccountsSeeder}: registering them over HTTP would
 * spend the run hashing passwords), each gets a session from the bench's platform (the in-process Kith signs with
 * the bench's secret, {@link BenchStores#signingTokens}) and registers its device token over HTTP as an app does; the
 * configured admin ({@code moderation.admins}, seeded the same way) makes an {@code announcements:write} API key. Nobody opens a bridge connection, so every
 * recipient is offline. The seeded accounts are the only accounts, so the announcement goes to exactly them (and the
 * admin, who has no target).
 *
 * <p>Measured: from sending the announcement until the stand-in has accepted a push for every token (each push's
 * arrival is the latency of operation {@code push}), pushes per second, CPU of the bench JVM and its children (Kith
 * and its embedded Redis) per push with the stand-in's own threads taken out, and pushes lost, repeated or sent to a
 * token nobody registered. The run waits at most {@code --quiet} seconds (120) without a new push before it calls the
 * rest lost, and {@code --settle} seconds (3) after the last for late repeats.
 */
public final class AnnouncementPushScenario extends DescribedScenario {

  private static final Logger LOG = LoggerFactory.getLogger(AnnouncementPushScenario.class);

  static final String USERS_OPTION = "users";
  static final String QUIET = "quiet";
  static final String SETTLE = "settle";
  static final String TYPE = "bench_announcement";
  static final String PUSH = "push";
  private static final String TARGETS = "/api/v1/me/push-targets";
  private static final String API_KEYS = "/api/v1/admin/api-keys";
  private static final String NOTIFY = "/api/v1/server/notifications";
  /** Sessions opened, and targets registered, at once: enough to keep the pool busy, few enough not to time out. */
  private static final int CHUNK = 200;
  private static final long HIGHEST_MICROS = 3_600_000_000L;

  private final BenchStores stores = BenchStores.signingTokens(name());
  /**
   * The admin who makes the API key, named in {@code moderation.admins} before the in-process Kith starts, so before
   * the bench's platform draws ids: an id far past any drawn today (2^52 is some 17 years after the id epoch).
   */
  private final long adminId = (1L << 52) + new SecureRandom().nextInt(1 << 30);
  private ApnsStandIn apns;

  public AnnouncementPushScenario() {
    super("announcement-push", "one announcement to --users (10,000) offline users with an APNs target each, "
        + "until the last push reaches a local HTTP/2 APNs", Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(USERS_OPTION, "recipients: seeded accounts with one APNs target each", 10_000, 1,
            1_000_000),
        ScenarioOption.count(QUIET, "seconds without a new push after which the missing ones count as lost", 120, 5,
            3_600),
        ScenarioOption.count(SETTLE, "seconds to wait after the last push for late repeats", 3, 0, 600));
  }

  /**
   * The stores pinned, APNs pointed at the stand-in (started here, once: the in-process Kith reads its port and
   * files at start), the admin and the announcement's app-defined type.
   */
  @Override
  public synchronized JsonObject inProcessConfig() {
    if (apns == null) {
      try {
        apns = new ApnsStandIn();
      } catch (Exception e) {
        throw new IllegalStateException("cannot start the local APNs: " + e.getMessage(), e);
      }
    }
    return stores.inProcessConfig()
        .put("push", apns.pushSettings())
        .put("moderation", new JsonObject().put("admins", new JsonArray().add(adminId)))
        .put("notifications", new JsonObject().put("custom-types", new JsonArray().add(new JsonObject()
            .put("name", TYPE).put("fields", new JsonObject().put("text", "string")))));
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (apns == null) {
      return Future.failedFuture(new IllegalStateException(name() + " points the in-process Kith at a local APNs, "
          + "so it runs only without --target"));
    }
    int users = (int) context.option(USERS_OPTION);
    return stores.using(context, platform -> measure(context, platform, users))
        .eventually(() -> {
          try {
            apns.close();
          } catch (Exception e) {
            LOG.warn("the local APNs did not stop cleanly: {}", e.getMessage());
          }
          return Future.succeededFuture();
        });
  }

  private Future<ScenarioResult> measure(ScenarioContext context, Platform platform, int users) {
    String tag = BenchAccounts.newTag();
    List<Long> ids = new ArrayList<>(users);
    for (int i = 0; i < users; i++) {
      ids.add(nextId(platform));
    }
    List<String> tokens = ids.stream().map(AnnouncementPushScenario::deviceToken).toList();
    List<String> notes = new ArrayList<>();
    long seedStart = System.nanoTime();
    return EdgeSeeder.seed(context.vertx(), platform.mongo(), AccountsSeeder.ACCOUNTS,
            EdgeSeeder.each(users, i -> AccountsSeeder.account(ids.get((int) i), "bench_" + tag + "_r" + i)),
            "accounts")
        .compose(r -> inChunks(users, i -> platform.sessions().open(ids.get(i), BenchAccounts.DEVICE)
            .compose(pair -> context.http().postJson(TARGETS, new JsonObject().put("kind", "apns")
                .put("token", tokens.get(i)), pair.accessToken(), 201))))
        .compose(v -> EdgeSeeder.seed(context.vertx(), platform.mongo(), AccountsSeeder.ACCOUNTS,
            EdgeSeeder.each(1, i -> AccountsSeeder.account(adminId, "bench_" + tag + "_admin")), "admin"))
        .compose(r -> platform.sessions().open(adminId, BenchAccounts.DEVICE))
        .compose(admin -> context.http().postJson(API_KEYS, new JsonObject().put("name", "bench-" + tag)
            .put("scopes", new JsonArray().add("announcements:write")), admin.accessToken(), 201))
        .compose(key -> {
          notes.add(String.format("set-up: %d accounts, sessions and APNs targets in %.1f s", users,
              (System.nanoTime() - seedStart) / 1e9));
          return announce(context, key.getString("key"), new LinkedHashSet<>(tokens), notes);
        });
  }

  /** Sends the announcement and waits for its pushes; the measured part. */
  private Future<ScenarioResult> announce(ScenarioContext context, String apiKey, Set<String> tokens,
                                          List<String> notes) {
    PushTally tally = new PushTally(tokens);
    apns.countInto(tally);
    ProcessCpu cpuStart = ProcessCpu.now();
    long apnsCpuStart = apns.cpuNanos();
    long start = System.nanoTime();
    JsonObject body = new JsonObject().put("all", true).put("type", TYPE)
        .put("fields", new JsonObject().put("text", "Kith bench announcement"));
    BenchHttpClient http = context.http();
    return http.postJson(NOTIFY, body, apiKey, 202)
        .compose(accepted -> {
          long acceptedNanos = System.nanoTime() - start;
          return awaitPushes(context, tally, (long) context.option(QUIET) * 1_000_000_000L)
              .compose(end -> {
                ProcessCpu cpuEnd = end.process();
                long apnsCpu = end.apnsNanos() - apnsCpuStart;
                Promise<Void> settled = Promise.promise();
                context.vertx().setTimer(Math.max(1, (long) context.option(SETTLE) * 1000), t -> settled.complete());
                return settled.future().map(v -> result(tally, start, acceptedNanos, cpuStart, cpuEnd, apnsCpu,
                    notes));
              });
        });
  }

  /** CPU samples taken together: the processes' and the stand-in's threads'. */
  private record CpuSample(ProcessCpu process, long apnsNanos) {
  }

  /**
   * Polls until every token was pushed, or {@code quietNanos} passed without a new push; completes with the CPU
   * sampled at the poll that saw the last progress (within 50 ms of the last push), so the quiet wait is not billed.
   */
  private Future<CpuSample> awaitPushes(ScenarioContext context, PushTally tally, long quietNanos) {
    Promise<CpuSample> done = Promise.promise();
    long[] lastProgress = {System.nanoTime(), 0};
    CpuSample[] atProgress = {new CpuSample(ProcessCpu.now(), apns.cpuNanos())};
    context.vertx().setPeriodic(50, timer -> {
      long now = System.nanoTime();
      if (tally.received() != lastProgress[1]) {
        lastProgress[0] = now;
        lastProgress[1] = tally.received();
        atProgress[0] = new CpuSample(ProcessCpu.now(), apns.cpuNanos());
      }
      if (tally.complete() || now - lastProgress[0] > quietNanos) {
        context.vertx().cancelTimer(timer);
        done.complete(atProgress[0]);
      }
    });
    return done.future();
  }

  private ScenarioResult result(PushTally tally, long start, long acceptedNanos, ProcessCpu cpuStart,
                                ProcessCpu cpuEnd, long apnsCpu, List<String> notes) {
    Histogram latency = new Histogram(HIGHEST_MICROS, 3);
    long first = Long.MAX_VALUE;
    for (long arrival : tally.arrivals()) {
      latency.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, (arrival - start) / 1000)));
      first = Math.min(first, arrival);
    }
    int sent = tally.delivered() + tally.lost();
    long errors = (long) tally.lost() + tally.duplicates() + tally.strangers();
    Map<String, Long> kinds = new java.util.LinkedHashMap<>();
    putIfAny(kinds, "lost (no push for the token)", tally.lost());
    putIfAny(kinds, "duplicate push", tally.duplicates());
    putIfAny(kinds, "push to an unknown token", tally.strangers());
    long window = Math.max(1, tally.lastNanos() - start);
    OperationStats push = new OperationStats(PUSH, "one APNs push per recipient, timed from the announcement request",
        sent, errors, 0, 0, kinds, latency, new Histogram(HIGHEST_MICROS, 3), window, Double.NaN);
    long kithCpu = Math.max(0, cpuEnd.cpuSince(cpuStart) - Math.max(0, apnsCpu));
    int delivered = Math.max(1, tally.delivered());
    push = push.withCpu(new OperationStats.Cpu(kithCpu, push.ok(), List.of(PUSH)));
    double lastSeconds = tally.lastNanos() == 0 ? Double.NaN : (tally.lastNanos() - start) / 1e9;
    double wall = (cpuEnd.wallNanos() - cpuStart.wallNanos()) / 1e9;
    List<Figure> figures = List.of(
        Figure.of("announcement accepted", acceptedNanos / 1e6, "ms", "until the 202 of POST " + NOTIFY),
        Figure.of("first push", first == Long.MAX_VALUE ? Double.NaN : (first - start) / 1e9, "s",
            "from the request to the first push the local APNs accepted"),
        Figure.of("last push", lastSeconds, "s", "from the request to the last push the local APNs accepted"),
        Figure.of("pushes per second", tally.perSecond(start), "/s", "recipients pushed over the time to the last"),
        Figure.of("Kith CPU per push", kithCpu / 1e6 / delivered, "ms", "CPU of the bench JVM and its children "
            + "(Kith, embedded Redis) minus the local APNs' threads, from the request to the last push"),
        Figure.of("Kith CPU share", kithCpu / 1e9 / wall / Runtime.getRuntime().availableProcessors(), "",
            "of all cores over the same time: well below 1 while pushes trickle means Kith waited, not worked"),
        Figure.of("local APNs CPU per push", apnsCpu / 1e6 / delivered, "ms", "the stand-in's own threads"),
        Figure.of("lost", tally.lost(), "", "recipients without a push").withGoal(Figure.Goal.atMost(0)),
        Figure.of("duplicates", tally.duplicates() + tally.strangers(), "", "repeated or unknown-token pushes")
            .withGoal(Figure.Goal.atMost(0)));
    List<String> all = new ArrayList<>(notes);
    all.add("accounts seeded in MongoDB (AccountsSeeder), APNs targets registered over HTTP; nobody online; the "
        + "local APNs is Pushy's MockApnsServer in the bench JVM, answering 200 at once");
    return new ScenarioResult(List.of(push), List.of(), all, figures);
  }

  private static void putIfAny(Map<String, Long> kinds, String kind, long count) {
    if (count > 0) {
      kinds.put(kind, count);
    }
  }

  /** Runs {@code work(i)} for {@code i} in {@code [0, count)}, {@link #CHUNK} at a time. */
  private static Future<Void> inChunks(int count, IntFunction<Future<?>> work) {
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < count; from += CHUNK) {
      int start = from;
      int end = Math.min(count, from + CHUNK);
      chain = chain.compose(v -> {
        List<Future<?>> each = new ArrayList<>(end - start);
        for (int i = start; i < end; i++) {
          each.add(work.apply(i));
        }
        return Future.all(each).mapEmpty();
      });
    }
    return chain;
  }

  /** A fresh id from the bench's platform, waiting a moment when ids are drawn faster than its lease covers. */
  private static long nextId(Platform platform) {
    while (true) {
      try {
        return platform.ids().next();
      } catch (IllegalStateException e) {
        try {
          Thread.sleep(EdgeSeeder.ID_BACKOFF_MILLIS);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /** A device token of 64 hex digits, distinct per user (as an iPhone's, lower-case as Kith keeps it). */
  static String deviceToken(long userId) {
    return String.format("%064x", userId);
  }

}
