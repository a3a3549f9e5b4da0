package io.kith.bench.scenario.notifications;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.load.Operation;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Unread counts and a filtered list of notifications, at three list sizes, against the classic Lua scans of the
 * user's whole list, and the Redis memory a stored notification takes.
 *
 * <p>Set-up registers three recipients (one per size: {@code --small} 50, {@code --medium} 500, {@code --large}
 * 5,000 notifications) and {@value #ACTORS} actors over HTTP; each recipient publishes two public posts over HTTP
 * and reads its unread counts once, which makes the service build its (empty) Redis side. The notifications are then
 * stored with the service's own insert script and arguments on that side ({@link NotificationsSeed}), bypassing the
 * producers and MongoDB, and every third is marked read over HTTP ({@code POST /api/v1/notifications/read}, the
 * service's mark script). The in-process Kith keeps up to {@value #CAP} per user ({@code notifications.max-per-user},
 * 1,000 by default), so nothing is evicted.
 *
 * <p>Per size, six operations, all interleaved at {@code --rate} with {@code GET /api/v1/whoami}:
 * {@code count-http-N} ({@code GET /api/v1/notifications/unread-counts}), {@code count-lua-N} (the service's
 * {@code counts.lua} by EVALSHA from the bench: Redis alone), {@code count-scan-N} (the classic: ZRANGE of the index
 * and HMGET unread, type of every hash); {@code list-http-N} ({@code GET /api/v1/notifications?types=comment,like&
 * post=<post>&limit=20}), {@code list-lua-N} (the service's {@code list.lua} with the spec it builds for that query),
 * {@code list-scan-N} (the classic: ZREVRANGE of the whole index, HMGET type and post of each hash until 20 match,
 * HGETALL of those). Every answer is checked against the seeded mix: the product's counts and the scan's must both
 * equal the expected ones, and both lists the expected 20 ids in order.
 *
 * <p>Then, each alone in closed loop ({@code --page-concurrency} in flight for {@code --page-seconds} after the run's
 * warm-up), at the medium size: {@code newest-http-N} ({@code GET /api/v1/notifications?limit=20}, the 20 newest,
 * checked to be exactly those) and {@code counts-alone-N} (the unread counts): alone, Kith's CPU per answer is
 * theirs (issue 25: a 20-item page at most 0.45 ms).
 *
 * <p>Figures: Redis's own time per call of each script (INFO commandstats, no network), memory per stored
 * notification ({@code MEMORY USAGE} of every key of the user, over the count), Kith's CPU per page and per count,
 * and the issue's goals. {@link NotificationsReport} turns the finished run into those figures and the notes.
 */
public final class NotificationsScenario extends DescribedScenario {

  static final String SMALL = "small";
  static final String MEDIUM = "medium";
  static final String LARGE = "large";
  /** Notifications kept per user by the in-process Kith (the largest --large allowed). */
  static final int CAP = 10_000;
  /** Registered actors (comments, likes and others come from them). */
  static final int ACTORS = 12;
  static final String WHOAMI = "whoami";
  /** Goals of the issue: the count at least 10x cheaper than the scan at the medium size; flat across sizes. */
  static final double COUNT_GOAL = 10;
  static final double FLAT_GOAL = 1.5;
  static final String PAGE_SECONDS = "page-seconds";
  static final String PAGE_CONCURRENCY = "page-concurrency";
  /** Issue 25: Kith's CPU per 20-item page of the newest notifications, at most this many milliseconds. */
  static final double PAGE_CPU_GOAL = 0.45;

  private final BenchStores stores = new BenchStores(name());

  public NotificationsScenario() {
    // it registers its users and writes into the in-process Kith's Redis
    super("notifications",
        "unread counts and a filtered list (comment,like + post, 20) at 50/500/5,000 notifications per user vs "
            + "Lua scans of the list; Redis memory per notification",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(SMALL, "notifications of the first recipient", 50, 10, CAP),
        ScenarioOption.count(MEDIUM, "notifications of the second recipient (the count goal's size)", 500, 10, CAP),
        ScenarioOption.count(LARGE, "notifications of the third recipient", 5_000, 10, CAP),
        ScenarioOption.count(PAGE_SECONDS, "seconds of each closed-loop CPU phase (newest page, counts)", 20, 1,
            3_600),
        ScenarioOption.count(PAGE_CONCURRENCY, "requests in flight in the CPU phases", 16, 1, 1_000));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled()
        .put("notifications", new JsonObject().put("max-per-user", CAP))
        .mergeIn(stores.inProcessConfig(), true);
  }

  /** One recipient and what its notifications must answer. */
  record Recipient(int size, BenchAccounts.User user, List<Long> posts, NotificationsSeed.Expected expected,
                   List<Long> newest) {
  }

  /** The scripts the scenario runs. */
  record Scripts(NotificationsSeed.Script insert, NotificationsSeed.Script counts, NotificationsSeed.Script list,
                 NotificationsSeed.Script scanCount, NotificationsSeed.Script scanList) {

    static Scripts load() {
      return new Scripts(NotificationsSeed.product("insert"), NotificationsSeed.product("counts"),
          NotificationsSeed.product("list"), NotificationsSeed.baseline("count"), NotificationsSeed.baseline("list"));
    }

    List<NotificationsSeed.Script> all() {
      return List.of(insert, counts, list, scanCount, scanList);
    }
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (context.settings().closedLoop()) {
      return Future.failedFuture(new IllegalStateException(name() + " compares latencies at one rate; run it with "
          + "--rate N, not --rate max"));
    }
    int[] sizes = {(int) context.option(SMALL), (int) context.option(MEDIUM), (int) context.option(LARGE)};
    if (!(sizes[0] < sizes[1] && sizes[1] < sizes[2])) {
      return Future.failedFuture(new IllegalStateException("give --small < --medium < --large"));
    }
    return stores.using(context, platform -> measure(context, platform, sizes));
  }

  /**
   * Why one long method: it is the scenario's flow in order (register, prepare, seed, verify, measure memory, run,
   * run the closed-loop pair, time the scripts in Redis, report), each step a line or two over the same recipients.
   */
  private Future<ScenarioResult> measure(ScenarioContext context, Platform platform, int[] sizes) {
    BenchHttpClient http = context.http();
    Redis redis = platform.redis();
    Scripts scripts = Scripts.load();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    List<String> recipientRoles = new ArrayList<>();
    for (int size : sizes) {
      recipientRoles.add("n" + size);
    }
    List<String> roles = BenchAccounts.roles(recipientRoles, "a", ACTORS);
    List<String> notes = new ArrayList<>();
    List<Figure> figures = new ArrayList<>();
    return accounts.registerAll(roles).compose(users -> {
      List<Long> actors = BenchAccounts.ids(users.subList(sizes.length, users.size()));
      List<Recipient> recipients = new ArrayList<>();
      Future<Void> chain = Future.succeededFuture();
      for (int i = 0; i < sizes.length; i++) {
        BenchAccounts.User user = users.get(i);
        chain = chain.compose(v -> prepare(http, user));
      }
      return chain
          .compose(v -> sameScripts(redis, scripts.counts(), "counts"))
          .compose(v -> load(redis, scripts))
          .compose(v -> {
            Future<Void> seeding = Future.succeededFuture();
            for (int i = 0; i < sizes.length; i++) {
              int size = sizes[i];
              BenchAccounts.User user = users.get(i);
              seeding = seeding.compose(x -> seed(http, redis, platform, scripts, user, size, actors)
                  .map(r -> {
                    recipients.add(r);
                    return null;
                  }));
            }
            return seeding;
          })
          .compose(v -> verify(http, redis, scripts, recipients, notes))
          .compose(v -> sameScripts(redis, scripts.list(), "list"))
          .compose(v -> memory(redis, recipients, figures))
          .compose(v -> {
            List<Operation> ops = operations(http, redis, scripts, recipients, users.get(0));
            return context.preflight(ops).compose(x -> context.runner().run(name(), ops));
          })
          .compose(stats -> alone(context, http, recipients.get(1)).map(more -> {
            List<OperationStats> all = new ArrayList<>(stats);
            all.addAll(more);
            return all;
          }))
          // measured apart and last, in short pipelines; a store that fails them leaves those figures out, noted
          .compose(stats -> NotificationsReport.serverTimes(redis, scripts, recipients, figures).recover(e -> {
            notes.add("Redis's own time per call was not measured: " + e.getMessage());
            return Future.succeededFuture();
          }).map(stats))
          .map(stats -> NotificationsReport.result(stats, recipients, figures, notes));
    });
  }

  /** One counts read, which makes the service build the user's (empty) side. */
  private static Future<Void> prepare(BenchHttpClient http, BenchAccounts.User user) {
    return http.getJson(NotificationsSeed.COUNTS_PATH, user.accessToken()).compose(counts -> {
      if (counts.getLong("total", -1L) != 0) {
        throw new IllegalStateException("a fresh user has unread notifications: " + counts.encode());
      }
      return Future.succeededFuture();
    });
  }

  /** Fails unless the service ran exactly this script text (EVAL caches it under the digest). */
  private static Future<Void> sameScripts(Redis redis, NotificationsSeed.Script script, String what) {
    return redis.send(Request.cmd(Command.SCRIPT).arg("EXISTS").arg(script.sha())).map(r -> {
      if (r.get(0).toInteger() != 1) {
        throw new IllegalStateException("the notifications service's " + what + " script is not the one the bench "
            + "put together from its resources (digest " + script.sha() + " unknown to Redis after the service ran "
            + "it): HotStore changed how it builds its scripts");
      }
      return null;
    });
  }

  private static Future<Void> load(Redis redis, Scripts scripts) {
    Future<Void> chain = Future.succeededFuture();
    for (NotificationsSeed.Script s : scripts.all()) {
      chain = chain.compose(v -> redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(s.text())).map(sha -> {
        if (!s.sha().equals(sha.toString())) {
          throw new IllegalStateException("Redis digests " + s.name() + " as " + sha + ", not " + s.sha());
        }
        return null;
      }));
    }
    return chain;
  }

  /** Posts, the notifications (insert script, pipelined), then every third marked read over HTTP. */
  private static Future<Recipient> seed(BenchHttpClient http, Redis redis, Platform platform, Scripts scripts,
                                        BenchAccounts.User user, int size, List<Long> actors) {
    List<Long> posts = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < NotificationsSeed.POSTS; i++) {
      JsonObject body = new JsonObject().put("text", "notifications bench post " + i).put("visibility", "public");
      chain = chain.compose(v -> http.postJson(NotificationsSeed.POSTS_PATH, body, user.accessToken(), 201)
          .map(post -> {
            posts.add(post.getLong("id"));
            return null;
          }));
    }
    return chain.compose(v -> {
      List<NotificationsSeed.Planned> plan = NotificationsSeed.plan(size, posts, actors, platform.ids()::next);
      long created = System.currentTimeMillis();
      Future<Void> inserts = Future.succeededFuture();
      for (int i = 0; i < plan.size(); i += NotificationsSeed.INSERT_BATCH) {
        List<NotificationsSeed.Planned> chunk = plan.subList(i, Math.min(plan.size(), i + NotificationsSeed.INSERT_BATCH));
        inserts = inserts.compose(x -> {
          List<Request> batch = new ArrayList<>(chunk.size());
          chunk.forEach(n -> batch.add(NotificationsSeed.insert(scripts.insert(), user.id(), CAP, n, created)));
          return redis.batch(batch).map(replies -> {
            for (Response r : replies) {
              if (r.get(0).toInteger() != 1 || r.get(1).size() != 0) {
                throw new IllegalStateException("the insert script answered " + r + " instead of storing one "
                    + "notification without eviction");
              }
            }
            return null;
          });
        });
      }
      List<Long> read = plan.stream().filter(n -> !n.unread()).map(NotificationsSeed.Planned::id).toList();
      for (int i = 0; i < read.size(); i += NotificationsSeed.MARK_BATCH) {
        List<Long> chunk = read.subList(i, Math.min(read.size(), i + NotificationsSeed.MARK_BATCH));
        inserts = inserts.compose(x -> http.postJson(NotificationsSeed.READ_PATH, new JsonObject()
            .put("ids", new JsonArray(new ArrayList<>(chunk))), user.accessToken(), 200).map(reply -> {
              if (reply.getInteger("changed", -1) != chunk.size()) {
                throw new IllegalStateException("marking " + chunk.size() + " read changed " + reply.encode());
              }
              return null;
            }));
      }
      List<Long> newest = new ArrayList<>();
      for (int k = plan.size() - 1; k >= 0 && newest.size() < NotificationsSeed.LIMIT; k--) {
        newest.add(plan.get(k).id());
      }
      return inserts.map(x -> new Recipient(size, user, List.copyOf(posts),
          NotificationsSeed.expect(plan, posts.get(0)), List.copyOf(newest)));
    });
  }

  /** Once per recipient: the product's answers (HTTP) and the scans' agree with the seeded mix. */
  private static Future<Void> verify(BenchHttpClient http, Redis redis, Scripts scripts, List<Recipient> recipients,
                                     List<String> notes) {
    Future<Void> chain = Future.succeededFuture();
    for (Recipient r : recipients) {
      NotificationsSeed.Expected e = r.expected();
      long id = r.user().id();
      chain = chain
          .compose(v -> http.getJson(NotificationsSeed.COUNTS_PATH, r.user().accessToken()))
          .map(body -> NotificationsSeed.checkHttpCounts(body, e))
          .compose(v -> redis.send(NotificationsSeed.scanCount(scripts.scanCount(), id)))
          .map(reply -> NotificationsSeed.checkScanCounts(reply, e))
          .compose(v -> http.getJson(NotificationsSeed.listPath(e.post()), r.user().accessToken()))
          .map(body -> NotificationsSeed.checkHttpList(body, e))
          .compose(v -> redis.send(NotificationsSeed.scanList(scripts.scanList(), id, e.post())))
          .map(reply -> {
            NotificationsSeed.checkScanList(reply, e);
            notes.add(String.format(Locale.ROOT, "%,d notifications: %,d unread (%s); the filtered list returns %d "
                    + "ids, the product's (HTTP) and the scan's answers both equal the seeded mix's", r.size(),
                e.total(), byType(e), e.page().size()));
            return null;
          });
    }
    return chain;
  }

  private static String byType(NotificationsSeed.Expected e) {
    List<String> parts = new ArrayList<>();
    e.byType().forEach((t, n) -> {
      if (n > 0) {
        parts.add(t + " " + n);
      }
    });
    return String.join(", ", parts);
  }

  private static Future<Void> memory(Redis redis, List<Recipient> recipients, List<Figure> figures) {
    Future<Void> chain = Future.succeededFuture();
    for (Recipient r : recipients) {
      chain = chain.compose(v -> RedisMeasures.memory(redis, r.user().id()).map(m -> {
        double perNotification = (double) m.bytes() / r.size();
        figures.add(Figure.of("memory/notification @" + r.size(), perNotification, "bytes", String.format(Locale.ROOT,
            "MEMORY USAGE (SAMPLES 0) of the user's %d keys, %,d bytes, over %,d notifications: the hashes %.0f "
                + "bytes each, the indexes (all and per type), dedupe map, counters and generation %.0f bytes per "
                + "notification", m.keys(), m.bytes(), r.size(), (double) m.hashBytes() / Math.max(1, m.hashes()),
            (double) (m.bytes() - m.hashBytes()) / r.size())));
        return null;
      }));
    }
    return chain;
  }

  static String op(String kind, int size) {
    return kind + "-" + size;
  }

  private static List<Operation> operations(BenchHttpClient http, Redis redis, Scripts scripts,
                                            List<Recipient> recipients, BenchAccounts.User anyone) {
    List<Operation> ops = new ArrayList<>();
    for (Recipient r : recipients) {
      NotificationsSeed.Expected e = r.expected();
      long id = r.user().id();
      String token = r.user().accessToken();
      String listPath = NotificationsSeed.listPath(e.post());
      Request counts = NotificationsSeed.counts(scripts.counts(), id);
      Request scanCount = NotificationsSeed.scanCount(scripts.scanCount(), id);
      Request list = NotificationsSeed.list(scripts.list(), id, e.post());
      Request scanList = NotificationsSeed.scanList(scripts.scanList(), id, e.post());
      ops.add(new Operation(op("count-http", r.size()), "GET " + NotificationsSeed.COUNTS_PATH + " with the "
          + "recipient's token", () -> http.getJson(NotificationsSeed.COUNTS_PATH, token)
          .map(body -> NotificationsSeed.checkHttpCounts(body, e))));
      ops.add(new Operation(op("count-lua", r.size()), "the service's counts.lua by EVALSHA from the bench",
          () -> redis.send(counts).map(reply -> NotificationsSeed.checkLuaCounts(reply, e))));
      ops.add(new Operation(op("count-scan", r.size()), "Lua scan: ZRANGE of the index, HMGET unread, type of "
          + "every hash", () -> redis.send(scanCount).map(reply -> NotificationsSeed.checkScanCounts(reply, e))));
      ops.add(new Operation(op("list-http", r.size()), "GET " + listPath + " with the recipient's token",
          () -> http.getJson(listPath, token).map(body -> NotificationsSeed.checkHttpList(body, e))));
      ops.add(new Operation(op("list-lua", r.size()), "the service's list.lua (its spec for that query) by EVALSHA "
          + "from the bench", () -> redis.send(list).map(reply -> NotificationsSeed.checkLuaList(reply, e))));
      ops.add(new Operation(op("list-scan", r.size()), "Lua scan: ZREVRANGE of the whole index, HMGET type, post "
          + "of each hash until 20 match, HGETALL of those",
          () -> redis.send(scanList).map(reply -> NotificationsSeed.checkScanList(reply, e))));
    }
    ops.add(Replies.whoamiOperation(WHOAMI, "a recipient's token", http, anyone.accessToken(), anyone.id()));
    return ops;
  }

  /**
   * The newest page, then the counts, each alone in closed loop, so that Kith's CPU per answer is theirs: the
   * figure issue 25 holds the page to.
   */
  private Future<List<OperationStats>> alone(ScenarioContext context, BenchHttpClient http, Recipient r) {
    LoadSettings s = context.settings();
    LoadSettings closed = new LoadSettings(s.rate(), true, s.warmup(),
        Duration.ofSeconds((long) context.option(PAGE_SECONDS)), (int) context.option(PAGE_CONCURRENCY),
        s.timeout(), s.maxInFlight());
    String token = r.user().accessToken();
    String newestPath = NotificationsSeed.LIST_PATH + "?limit=" + NotificationsSeed.LIMIT;
    Operation newest = new Operation(op("newest-http", r.size()), "GET " + newestPath + " (the 20 newest) alone, "
        + "closed loop", () -> http.getJson(newestPath, token).map(body -> checkNewest(body, r.newest())));
    Operation counts = new Operation(op("counts-alone", r.size()), "GET " + NotificationsSeed.COUNTS_PATH
        + " alone, closed loop", () -> http.getJson(NotificationsSeed.COUNTS_PATH, token)
        .map(body -> NotificationsSeed.checkHttpCounts(body, r.expected())));
    List<OperationStats> out = new ArrayList<>();
    return context.preflight(List.of(newest, counts))
        .compose(v -> context.runner().with(closed).run(name() + " " + newest.name(), List.of(newest)))
        .compose(stats -> {
          out.addAll(stats);
          return context.runner().with(closed).run(name() + " " + counts.name(), List.of(counts));
        })
        .map(stats -> {
          out.addAll(stats);
          return out;
        });
  }

  /** The newest page holds exactly the newest ids, in order, each with its type. */
  private static JsonObject checkNewest(JsonObject body, List<Long> expected) {
    JsonArray items = body.getJsonArray("items");
    List<Long> ids = new ArrayList<>();
    if (items != null) {
      items.forEach(o -> ids.add(((JsonObject) o).getLong("id")));
    }
    if (!ids.equals(expected)) {
      throw new IllegalStateException("the newest page listed " + ids + " instead of " + expected);
    }
    return body;
  }
}
