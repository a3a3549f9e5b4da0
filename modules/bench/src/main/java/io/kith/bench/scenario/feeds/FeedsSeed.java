package io.kith.bench.scenario.feeds;

import io.kith.bench.scenario.EdgeSeeder;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.service.FeedsSeeder;
import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * How the feeds scenarios write straight into the in-process Kith's stores, bypassing the services, how they reach
 * the feeds service, and how they wait for timelines to hold posts ({@link #holdAll}). The documents and keys are
 * the feeds and relations domains' own, from their test-jars' {@link FeedsSeeder} and {@code RelationsSeeder}:
 * timelines exist only when they hold their marker, their last (the fan-out worker adds only to existing timelines,
 * so a user "is active" when the marker is there). The bench tests run the real service on what these write, so a
 * change of the domain's documents fails a test rather than silently measuring something else.
 */
final class FeedsSeed {

  /** Expiry of the markers the scenarios create (the service renews it on reads). */
  static final long MARKER_TTL_SECONDS = 3_600;
  /** How often {@link #holdAll} polls the timelines. */
  static final long POLL_MILLIS = 5;
  /** Users per pipelined batch of marker writes. */
  private static final int MARKER_BATCH = 1_000;

  private FeedsSeed() {
  }

  /** The feeds service of the in-process Kith, or a failure saying why the scenario cannot run. */
  static Future<FeedsService> feeds(ScenarioContext context, String scenario) {
    Vertx kith = context.kithVertx();
    if (kith == null) {
      return Future.failedFuture(new IllegalStateException(scenario + " calls the feeds service on the in-process "
          + "Kith's event bus, so it runs only without --target"));
    }
    return Future.succeededFuture(FeedsService.proxy(kith));
  }

  /**
   * Makes these users' {@code kind} timelines exist (empty), as a read would: the marker with an expiry, written in
   * pipelined batches. Fan-out then reaches them.
   */
  static Future<Void> activate(Redis redis, String kind, Collection<Long> users) {
    List<Long> all = new ArrayList<>(users);
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < all.size(); i += MARKER_BATCH) {
      List<Long> chunk = all.subList(i, Math.min(all.size(), i + MARKER_BATCH));
      chain = chain.compose(v -> {
        List<Request> batch = new ArrayList<>(chunk.size() * 3);
        for (long user : chunk) {
          String key = FeedsSeeder.timelineKey(kind, user);
          batch.add(Request.cmd(Command.DEL).arg(key));
          batch.add(Request.cmd(Command.RPUSH).arg(key).arg(FeedsSeeder.MARKER));
          batch.add(Request.cmd(Command.EXPIRE).arg(key).arg(MARKER_TTL_SECONDS));
        }
        return redis.batch(batch).mapEmpty();
      });
    }
    return chain;
  }

  /** How many of these users' {@code kind} timelines hold {@code postId} (pipelined {@code LPOS}). */
  static Future<Integer> holding(Redis redis, String kind, List<Long> users, long postId) {
    List<Future<List<Response>>> parts = new ArrayList<>();
    for (int i = 0; i < users.size(); i += MARKER_BATCH) {
      List<Request> batch = new ArrayList<>();
      for (long user : users.subList(i, Math.min(users.size(), i + MARKER_BATCH))) {
        batch.add(Request.cmd(Command.LPOS).arg(FeedsSeeder.timelineKey(kind, user)).arg(postId));
      }
      parts.add(redis.batch(batch));
    }
    return Future.all(parts).map(all -> {
      int n = 0;
      for (int i = 0; i < parts.size(); i++) {
        for (Response r : all.<List<Response>>resultAt(i)) {
          n += r == null ? 0 : 1;
        }
      }
      return n;
    });
  }

  /** How many of {@code posts} {@code user}'s {@code kind} timeline holds. */
  static Future<Integer> present(Redis redis, String kind, long user, List<Long> posts) {
    if (posts.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<Request> batch = new ArrayList<>(posts.size());
    posts.forEach(p -> batch.add(Request.cmd(Command.LPOS).arg(FeedsSeeder.timelineKey(kind, user)).arg(p)));
    return redis.batch(batch).map(replies -> (int) replies.stream().filter(r -> r != null).count());
  }

  /** Bulk-inserts documents into a collection of the in-process Kith, bypassing its services. */
  static Future<EdgeSeeder.Result> insert(Vertx vertx, Platform platform, String collection, List<JsonObject> docs,
                                          String what) {
    return EdgeSeeder.seed(vertx, platform.mongo(), collection, EdgeSeeder.of(docs), what);
  }

  /**
   * Whether the target serves {@code GET path} with this token (200): the feeds HTTP routes are being added to the
   * gateway, and until they are, the scenarios call the service over the in-process Kith's event bus.
   */
  static Future<Boolean> servesRoute(io.kith.bench.client.BenchHttpClient http, String path, String token) {
    return http.getJson(path, token).map(body -> true).otherwise(false);
  }

  /** The ids of a timeline page's items, checking each is a hydrated post view with its author's summary. */
  static List<Long> pageIds(JsonObject page, java.util.Map<Long, Long> authors) {
    Object items = page.getValue("items");
    if (!(items instanceof JsonArray array)) {
      throw new IllegalStateException("the page has no items array");
    }
    List<Long> ids = new ArrayList<>(array.size());
    for (Object item : array) {
      if (!(item instanceof JsonObject view) || !(view.getValue("id") instanceof Number id)) {
        throw new IllegalStateException("a page item is not a post view");
      }
      JsonObject author = view.getJsonObject("author");
      Object authorId = author == null ? null : author.getValue("id");
      Long expected = authors.get(id.longValue());
      if (!(authorId instanceof Number a) || expected == null || a.longValue() != expected
          || !(author.getValue("username") instanceof String) || view.getJsonObject("counts") == null
          || view.getJsonObject("viewer") == null) {
        throw new IllegalStateException("post " + id + " is not hydrated with its author's summary, counts and "
            + "viewer flags");
      }
      ids.add(id.longValue());
    }
    return ids;
  }

  /** Checks that a page lists exactly {@code expected}, newest first. */
  static JsonObject checkPage(JsonObject page, List<Long> expected, java.util.Map<Long, Long> authors) {
    List<Long> ids = pageIds(page, authors);
    if (!ids.equals(expected)) {
      throw new IllegalStateException("the page lists " + ids.size() + " posts other than the " + expected.size()
          + " expected (first " + (ids.isEmpty() ? "none" : ids.get(0)) + ", expected " + expected.get(0) + ")");
    }
    return page;
  }

  /** Completes when every one of {@code users}' home timelines holds every one of {@code posts}. */
  static Future<Void> holdAll(Vertx vertx, Redis redis, List<Long> users, List<Long> posts, long deadlineMillis) {
    Promise<Void> done = Promise.promise();
    poll(vertx, redis, users, posts, deadlineMillis, done);
    return done.future();
  }

  private static void poll(Vertx vertx, Redis redis, List<Long> users, List<Long> posts, long deadline,
                           Promise<Void> done) {
    List<Request> batch = new ArrayList<>(users.size() * posts.size());
    for (long user : users) {
      for (long post : posts) {
        batch.add(Request.cmd(Command.LPOS).arg(FeedsSeeder.timelineKey(FeedsSeeder.HOME, user)).arg(post));
      }
    }
    redis.batch(batch).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      int missing = 0;
      for (Response r : ar.result()) {
        missing += r == null ? 1 : 0;
      }
      if (missing == 0) {
        done.complete();
      } else if (System.currentTimeMillis() > deadline) {
        done.fail(new IllegalStateException(missing + " of " + batch.size() + " sampled timeline entries missing"));
      } else {
        vertx.setTimer(POLL_MILLIS, t -> poll(vertx, redis, users, posts, deadline, done));
      }
    });
  }
}
