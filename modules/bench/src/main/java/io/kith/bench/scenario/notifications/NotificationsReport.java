package io.kith.bench.scenario.notifications;

import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.notifications.NotificationsScenario.Recipient;
import io.kith.bench.scenario.notifications.NotificationsScenario.Scripts;
import io.kith.notifications.service.NotificationsSeeder;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static io.kith.bench.scenario.notifications.NotificationsScenario.ACTORS;
import static io.kith.bench.scenario.notifications.NotificationsScenario.CAP;
import static io.kith.bench.scenario.notifications.NotificationsScenario.COUNT_GOAL;
import static io.kith.bench.scenario.notifications.NotificationsScenario.FLAT_GOAL;
import static io.kith.bench.scenario.notifications.NotificationsScenario.PAGE_CPU_GOAL;
import static io.kith.bench.scenario.notifications.NotificationsScenario.WHOAMI;
import static io.kith.bench.scenario.notifications.NotificationsScenario.op;

/**
 * The figures and the report of {@link NotificationsScenario}: Redis's own time per script call, the ratios of the
 * scans to the product's scripts and their spread across the list sizes, Kith's CPU per answer, and the notes that
 * say how the run was seeded and what each operation includes. Apart from the scenario so that each file is one
 * thing: the scenario seeds, checks and runs; this class turns a finished run into figures.
 */
final class NotificationsReport {

  private NotificationsReport() {
  }

  /** Redis's own time per call of each script at each size (no network, no client), into the figures. */
  static Future<Void> serverTimes(Redis redis, Scripts scripts, List<Recipient> recipients,
                                          List<Figure> figures) {
    Map<String, Double> micros = new HashMap<>();
    Future<Void> chain = Future.succeededFuture();
    for (Recipient r : recipients) {
      long id = r.user().id();
      long post = r.expected().post();
      Map<String, Request> calls = Map.of(
          "count-lua", NotificationsSeed.counts(scripts.counts(), id),
          "count-scan", NotificationsSeed.scanCount(scripts.scanCount(), id),
          "list-lua", NotificationsSeed.list(scripts.list(), id, post),
          "list-scan", NotificationsSeed.scanList(scripts.scanList(), id, post));
      for (String kind : List.of("count-lua", "count-scan", "list-lua", "list-scan")) {
        chain = chain.compose(v -> RedisMeasures.serverMicros(redis, calls.get(kind), "evalsha")
            .map(us -> {
              micros.put(op(kind, r.size()), us);
              return null;
            }));
      }
    }
    // the product sends its scripts' text with every call (EVAL): what that adds in Redis, at the medium size
    Recipient medium = recipients.get(1);
    Request asSent = Request.cmd(Command.EVAL).arg(scripts.counts().text()).arg(2);
    NotificationsSeeder.scriptKeys(medium.user().id()).forEach(asSent::arg);
    chain = chain.compose(v -> RedisMeasures.serverMicros(redis, asSent, "eval").map(us -> {
      micros.put("count-eval", us);
      return null;
    }));
    return chain.map(v -> {
      for (Recipient r : recipients) {
        int n = r.size();
        for (String kind : List.of("count-lua", "count-scan", "list-lua", "list-scan")) {
          figures.add(Figure.of("redis us " + op(kind, n), micros.get(op(kind, n)), "us", "Redis's own time per call "
              + "(INFO commandstats usec_per_call of pipelined EVALSHA, median of " + RedisMeasures.ROUNDS
              + " rounds of ~0.2 s; script execution only, no network)"));
        }
        Figure count = Figure.of("redis count scan/lua @" + n, micros.get(op("count-scan", n))
            / micros.get(op("count-lua", n)), "x", "Redis time of the count scan over counts.lua");
        figures.add(n == medium.size() ? count.withGoal(Figure.Goal.atLeast(COUNT_GOAL)) : count);
        figures.add(Figure.of("redis list scan/lua @" + n, micros.get(op("list-scan", n))
            / micros.get(op("list-lua", n)), "x", "Redis time of the list scan over list.lua"));
      }
      figures.add(Figure.of("redis us counts.lua EVAL", micros.get("count-eval"), "us", "counts.lua at "
          + medium.size() + " sent as the service sends it, EVAL with its " + scripts.counts().text().length()
          + " characters of text (Redis hashes the text to find the compiled script), per call"));
      figures.add(spread("redis counts.lua max/min", recipients, k -> micros.get(op("count-lua", k)),
          "Redis time of counts.lua, largest over smallest across the sizes (flat = 1)"));
      return null;
    });
  }

  private static Figure spread(String name, List<Recipient> recipients, IntFunction<Double> value,
                               String description) {
    double max = 0;
    double min = Double.MAX_VALUE;
    for (Recipient r : recipients) {
      double v = value.apply(r.size());
      max = Math.max(max, v);
      min = Math.min(min, v);
    }
    return Figure.of(name, max / min, "x", description).withGoal(Figure.Goal.atMost(FLAT_GOAL));
  }

  /**
   * The report of a run. Why one long method: the same figures for each size, then the spreads across sizes, the
   * CPU figures and the notes, in the order the report prints them.
   */
  static ScenarioResult result(List<OperationStats> stats, List<Recipient> recipients, List<Figure> figures,
                                       List<String> notes) {
    Map<String, OperationStats> by = new HashMap<>();
    stats.forEach(s -> by.put(s.name(), s));
    List<RatioSpec> ratios = new ArrayList<>();
    List<Figure> all = new ArrayList<>();
    int medium = recipients.get(1).size();
    for (Recipient r : recipients) {
      int n = r.size();
      ratios.add(new RatioSpec(op("count-scan", n), op("count-lua", n), 50));
      ratios.add(new RatioSpec(op("count-scan", n), op("count-lua", n), 99));
      ratios.add(new RatioSpec(op("list-scan", n), op("list-lua", n), 50));
      ratios.add(new RatioSpec(op("list-scan", n), op("list-lua", n), 99));
      ratios.add(new RatioSpec(op("count-http", n), WHOAMI, 50));
      ratios.add(new RatioSpec(op("list-http", n), WHOAMI, 50));
      double httpCount = p50(by, op("count-http", n));
      double luaCount = p50(by, op("count-lua", n));
      double scanCount = p50(by, op("count-scan", n));
      Figure count = Figure.of("count scan/lua p50 @" + n, scanCount / luaCount, "x", "p50 of the count scan over "
          + "counts.lua, both by EVALSHA from the bench (Redis time plus one loopback round trip each)");
      all.add(n == medium ? count.withGoal(Figure.Goal.atLeast(COUNT_GOAL)) : count);
      all.add(Figure.of("count http: classic/product @" + n, (httpCount - luaCount + scanCount) / httpCount, "x",
          "estimate for the whole HTTP route: (count-http - count-lua + count-scan) / count-http at p50, i.e. the "
              + "route with the scan in place of counts.lua"));
      double httpList = p50(by, op("list-http", n));
      double luaList = p50(by, op("list-lua", n));
      double scanList = p50(by, op("list-scan", n));
      all.add(Figure.of("list scan/lua p50 @" + n, scanList / luaList, "x", "p50 of the list scan over list.lua, "
          + "both by EVALSHA from the bench"));
      all.add(Figure.of("list http: classic/product @" + n, (httpList - luaList + scanList) / httpList, "x",
          "estimate for the whole HTTP route: (list-http - list-lua + list-scan) / list-http at p50"));
    }
    all.add(spread("count-lua p50 max/min", recipients, n -> p50(by, op("count-lua", n)), "p50 of counts.lua, "
        + "largest over smallest across the sizes (flat = 1)"));
    all.add(spread("count-http p50 max/min", recipients, n -> p50(by, op("count-http", n)), "p50 of the HTTP unread "
        + "counts, largest over smallest across the sizes (flat = 1)"));
    int mid = recipients.get(1).size();
    all.add(cpuFigure(by, op("newest-http", mid), "Kith CPU per newest page @" + mid, "a 20-item page of the "
        + "newest notifications").withGoal(Figure.Goal.atMost(PAGE_CPU_GOAL)));
    all.add(cpuFigure(by, op("counts-alone", mid), "Kith CPU per unread counts @" + mid, "an unread counts read"));
    all.addAll(figures);
    List<String> out = new ArrayList<>();
    out.add("seeding: " + recipients.size() + " recipients and " + ACTORS + " actors registered over HTTP; each "
        + "recipient published " + NotificationsSeed.POSTS + " public posts over HTTP and read its unread counts "
        + "(the service built its empty Redis side); the notifications were stored with the service's insert.lua "
        + "(same text, digest checked against the one the service runs) and HotStore.insert's arguments, bypassing "
        + "the producers (event log, rules, MongoDB record, pushes); every " + NotificationsSeed.READ_EVERY
        + "rd was marked read over HTTP (the service's mark_ids.lua; its MongoDB update matches nothing). "
        + "notifications.max-per-user is " + CAP + " in-process (1,000 by default), so nothing was evicted");
    out.add("the mix, in cycles of ten: like/comment/like/like of post 0 and 1, follower, reply, mention, repost; "
        + "4 in 10 are comments or likes about post 0, the filtered list's condition, so the list reads the comment "
        + "and like indexes (6 in 10 of all) and stops after about 50 ids; the scan walks the whole index");
    out.addAll(notes);
    out.add("*-lua and *-scan go from the bench straight to Redis by EVALSHA (one round trip each); *-http add the "
        + "gateway, the token check, the event bus, the service (which sends EVAL with the script's text), and for "
        + "the list the visibility check of post 0 (feeds) and the actors' summaries (accounts)");
    out.add("all operations share one single-threaded Redis: a long scan delays whatever arrives meanwhile, which "
        + "inflates the tails (p99) of the cheap operations most");
    return new ScenarioResult(stats, ratios, out, all);
  }

  private static Figure cpuFigure(Map<String, OperationStats> by, String op, String name, String what) {
    OperationStats s = by.get(op);
    double ms = s == null || s.cpu() == null ? Double.NaN : s.cpu().millisPerRequest();
    return Figure.of(name, ms, "ms", "Kith's CPU per " + what + ", measured alone in closed loop (" + op + ")");
  }

  private static double p50(Map<String, OperationStats> by, String name) {
    OperationStats s = by.get(name);
    return s == null ? Double.NaN : s.percentileMillis(50);
  }
}
