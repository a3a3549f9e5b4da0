package io.kith.bench.scenario.activities;

import io.kith.activities.api.ActivitiesInternal;
import io.kith.activities.api.ActivitiesService;
import io.kith.activities.service.ActivitiesSeeder;
import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.Figure;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.EdgeSeeder;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.platform.Platform;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The nearby search for upcoming activities with {@code --activities} (100,000) upcoming public activities seeded in a
 * square of {@code --area-km} (100 km) a side, against its floor: one raw {@code GEOSEARCH ... BYRADIUS ... ASC COUNT
 * <candidates> WITHDIST} on the same Redis, over a GEO set holding the same activities at the same positions (a key of
 * the bench's own, so the floor does not depend on how the service names its keys).
 *
 * <p>Measured, interleaved at {@code --rate} each: {@code GET /api/v1/activities/nearby} within {@code --radius-km}
 * (10 km) of a point, 20 per page, ordered by start ({@code nearby-http}) and by distance ({@code nearby-dist-http}),
 * and the same search ordered by start through the activities service proxy on the in-process event bus
 * ({@code nearby-bus}); the floor ({@code geosearch}). Every operation cycles through the same 64 search points,
 * each at least the radius away from the edges of the seeded square, so every search finds well over a page. Every
 * answer is checked: 20 items, each within the radius, in the order asked for.
 *
 * <p>Set-up registers a reader and 10 organisers over HTTP, writes the activities' MongoDB records in bulk straight
 * into the in-process Kith's store (the documents the service's create stores: {@link #record}), and then has the
 * service load every one into Redis through its own loader (reads that miss Redis), so the searches run on exactly
 * what the service keeps. Seeding this way bypasses create: no rate limit, no {@code ActivityCreated} events (so no
 * discussion group chats and no notifications), nothing left running in the background while measuring. It runs only
 * in-process.
 */
public final class ActivitiesNearbyScenario extends DescribedScenario {

  static final String ACTIVITIES_OPTION = "activities";
  static final String AREA_KM = "area-km";
  static final String RADIUS_KM = "radius-km";

  static final String NEARBY_HTTP = "nearby-http";
  static final String NEARBY_DIST_HTTP = "nearby-dist-http";
  static final String NEARBY_BUS = "nearby-bus";
  static final String FLOOR = "geosearch";

  static final String NEARBY_PATH = "/api/v1/activities/nearby";
  static final int LIMIT = 20;
  /** Candidates the service considers by default ({@code activities.nearby-candidates}); the floor fetches as many. */
  static final int CANDIDATES = 1_000;
  static final int ORGANISERS = 10;
  static final int POINTS = 64;
  /** Activities asked about per {@code visibleActivities} call while loading them into Redis. */
  static final int LOAD_BATCH = 200;
  /** Centre of the seeded square (Lyon). */
  static final double CENTRE_LAT = 45.76;
  static final double CENTRE_LON = 4.84;
  private static final double KM_PER_DEGREE = 111.195;
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;

  private final BenchStores stores = new BenchStores(name());

  public ActivitiesNearbyScenario() {
    // it registers its users and seeds through the in-process Kith
    super("activities-nearby",
        "nearby upcoming activities (100,000 seeded) over HTTP and the service proxy vs one raw GEOSEARCH on the "
            + "same Redis",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(ACTIVITIES_OPTION, "upcoming public activities seeded through the service", 100_000, 100,
            1_000_000),
        ScenarioOption.number(AREA_KM, "side of the square they are spread over, km", 100, 10, 1_000),
        ScenarioOption.number(RADIUS_KM, "search radius, km (the API allows up to 100)", 10, 0.5, 100));
  }

  @Override
  public JsonObject inProcessConfig() {
    // the seeded records have no discussion group, which the service's repair would set out to make (and scan for)
    // every minute during the measurement: push it past the run
    return BenchAccounts.unthrottled()
        .put("activities", new JsonObject().put("repair-interval-seconds", 86_400))
        .mergeIn(stores.inProcessConfig(), true);
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    int count = (int) context.option(ACTIVITIES_OPTION);
    double area = context.option(AREA_KM);
    double radius = context.option(RADIUS_KM);
    if (radius * 2 >= area) {
      return Future.failedFuture(new IllegalArgumentException("--" + RADIUS_KM + " must be less than half of --"
          + AREA_KM + ", so that every search circle lies inside the seeded square"));
    }
    if (context.kithVertx() == null) {
      return Future.failedFuture(new IllegalStateException(name() + " seeds through the activities service on the "
          + "in-process Kith's event bus, so it runs only without --target"));
    }
    Context ctx = Vertx.currentContext();
    String geoKey = "bench:" + name() + ":{geo}:" + BenchAccounts.newTag();
    return stores.using(context, platform -> measure(context, ctx, platform, geoKey, count, area, radius)
        .eventually(() -> platform.redis().send(Request.cmd(Command.DEL).arg(geoKey))));
  }

  private Future<ScenarioResult> measure(ScenarioContext context, Context ctx, Platform platform, String geoKey,
                                         int count, double area, double radius) {
    Redis redis = platform.redis();
    BenchHttpClient http = context.http();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    ActivitiesService service = ActivitiesService.proxy(context.kithVertx());
    List<Figure> figures = new ArrayList<>();
    Random random = new Random(42);
    return accounts.registerAll(BenchAccounts.roles(List.of("reader"), "org", ORGANISERS)).compose(users -> {
      BenchAccounts.User reader = users.get(0);
      List<Long> organisers = BenchAccounts.ids(users.subList(1, users.size()));
      return seed(context, ctx, platform, ActivitiesInternal.proxy(context.kithVertx()), geoKey, reader.id(),
              organisers, count, area, random)
          .compose(seeded -> {
            figures.addAll(seeded);
            List<double[]> points = points(random, area, radius);
            List<Operation> ops = operations(ctx, http, service, redis, geoKey, reader, points, radius);
            return context.preflight(ops).compose(v -> context.runner().run(name(), ops));
          }).map(stats -> new ScenarioResult(stats, List.of(
          new RatioSpec(NEARBY_HTTP, FLOOR, 50), new RatioSpec(NEARBY_HTTP, FLOOR, 99),
          new RatioSpec(NEARBY_DIST_HTTP, FLOOR, 99), new RatioSpec(NEARBY_BUS, FLOOR, 50),
          new RatioSpec(NEARBY_BUS, FLOOR, 99), new RatioSpec(NEARBY_HTTP, NEARBY_BUS, 99)),
          notes(count, area, radius), figures));
    });
  }

  /** The {@code i}-th activity: public, somewhere in the square, starting 2 hours to 25 days ahead. */
  static JsonObject activity(Random random, double area, long now, int i) {
    double[] p = offset(CENTRE_LAT, CENTRE_LON, (random.nextDouble() - 0.5) * area,
        (random.nextDouble() - 0.5) * area);
    long start = now + 2 * HOUR + (long) (random.nextDouble() * 25 * DAY);
    return new JsonObject().put("title", "Bench meetup " + i).put("start", start).put("end", start + 2 * HOUR)
        .put("visibility", "public")
        .put("place", new JsonObject().put("name", "Spot " + i).put("lat", p[0]).put("lon", p[1]));
  }

  /** The point {@code northKm} north and {@code eastKm} east of (lat, lon), on a locally flat earth. */
  static double[] offset(double lat, double lon, double northKm, double eastKm) {
    double dLat = northKm / KM_PER_DEGREE;
    double dLon = eastKm / (KM_PER_DEGREE * Math.cos(Math.toRadians(lat)));
    return new double[] {lat + dLat, lon + dLon};
  }

  /**
   * Writes the activities' MongoDB records in bulk (the documents {@code ActivitiesServiceImpl.create} stores), adds
   * them to the floor's GEO set, then has the service load them into Redis by asking it which of them the reader
   * may see ({@code visibleActivities}, {@value #LOAD_BATCH} at a time): a read that misses Redis loads the activity
   * through the service's own loader, the same path that serves every activity after Redis was emptied.
   */
  private static Future<List<Figure>> seed(ScenarioContext context, Context ctx, Platform platform,
                                           ActivitiesInternal service, String geoKey, long reader,
                                           List<Long> organisers, int count, double area, Random random) {
    long now = System.currentTimeMillis();
    List<Figure> figures = new ArrayList<>();
    long loadStart = System.nanoTime();
    List<JsonObject> docs = new ArrayList<>(count);
    // 100,000 documents take seconds to build: off the event loop, which the store clients need meanwhile
    return context.vertx().executeBlocking(() -> {
      for (int i = 0; i < count; i++) {
        docs.add(record(activity(random, area, now, i), platform.ids().next(),
            organisers.get(i % organisers.size()), now));
      }
      return docs;
    }).compose(built -> ScenarioContext.onContext(ctx, Future.succeededFuture(built)))
        .compose(built -> EdgeSeeder.seed(context.vertx(), platform.mongo(), ActivitiesSeeder.ACTIVITIES,
            EdgeSeeder.of(built),
            "activities"))
        .compose(written -> {
          figures.add(Figure.of("seed mongo", written.documents() * 1000.0 / Math.max(1, written.millis()),
              "docs/s", "activity records written to MongoDB in bulk: " + written.describe()));
          return geoAdd(platform.redis(), geoKey, docs);
        })
        .compose(v -> {
          long started = System.nanoTime();
          return load(ctx, service, reader, docs, 0).map(loaded -> {
            double seconds = (System.nanoTime() - started) / 1e9;
            figures.add(Figure.of("seed redis", loaded / seconds, "activities/s", String.format(Locale.ROOT,
                "%,d activities loaded into Redis by the service's own loader (read misses), %d per call, in %.1f s",
                loaded, LOAD_BATCH, seconds)));
            figures.add(Figure.of("seeding", (System.nanoTime() - loadStart) / 1e9, "s", "the whole seeding"));
            return figures;
          });
        });
  }

  /** The MongoDB record of a new activity, as the service's create stores it. */
  static JsonObject record(JsonObject body, long id, long organiser, long now) {
    return ActivitiesSeeder.activity(body, id, organiser, now);
  }

  private static Future<Void> geoAdd(Redis redis, String geoKey, List<JsonObject> docs) {
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < docs.size(); i += 1_000) {
      List<JsonObject> chunk = docs.subList(i, Math.min(docs.size(), i + 1_000));
      chain = chain.compose(v -> {
        Request add = Request.cmd(Command.GEOADD).arg(geoKey);
        for (JsonObject doc : chunk) {
          JsonObject place = doc.getJsonObject("place");
          add.arg(place.getDouble("lon")).arg(place.getDouble("lat")).arg(doc.getLong("_id"));
        }
        return redis.send(add).mapEmpty();
      });
    }
    return chain;
  }

  /** Asks the service about the activities, a batch at a time; each must be visible to the reader. */
  private static Future<Integer> load(Context ctx, ActivitiesInternal service, long reader, List<JsonObject> docs,
                                      int from) {
    if (from >= docs.size()) {
      return Future.succeededFuture(docs.size());
    }
    List<Long> ids = docs.subList(from, Math.min(docs.size(), from + LOAD_BATCH)).stream()
        .map(d -> d.getLong("_id")).toList();
    return ScenarioContext.onContext(ctx, service.visibleActivities(reader, ids)).compose(reply -> {
      int seen = reply.getJsonArray("items", new JsonArray()).size();
      if (seen != ids.size()) {
        return Future.failedFuture(new IllegalStateException("the service sees " + seen + " of " + ids.size()
            + " seeded activities: the seeded records no longer match what it stores"));
      }
      return load(ctx, service, reader, docs, from + ids.size());
    });
  }

  /** Search points at least {@code radius} inside the square. */
  static List<double[]> points(Random random, double area, double radius) {
    List<double[]> points = new ArrayList<>(POINTS);
    double span = area - 2 * radius;
    for (int i = 0; i < POINTS; i++) {
      points.add(offset(CENTRE_LAT, CENTRE_LON, (random.nextDouble() - 0.5) * span,
          (random.nextDouble() - 0.5) * span));
    }
    return points;
  }

  private List<Operation> operations(Context ctx, BenchHttpClient http, ActivitiesService service, Redis redis,
                                     String geoKey, BenchAccounts.User reader, List<double[]> points,
                                     double radius) {
    AtomicLong httpTurn = new AtomicLong();
    AtomicLong distTurn = new AtomicLong();
    AtomicLong busTurn = new AtomicLong();
    AtomicLong floorTurn = new AtomicLong();
    Operation byStart = new Operation(NEARBY_HTTP, "GET " + NEARBY_PATH + " within " + radius + " km, order=start, "
        + LIMIT + " per page", () -> {
      double[] p = points.get((int) (httpTurn.getAndIncrement() % points.size()));
      return http.getJson(path(p, radius, "start"), reader.accessToken()).map(page -> check(page, radius, "start"));
    });
    Operation byDistance = new Operation(NEARBY_DIST_HTTP, "GET " + NEARBY_PATH + " within " + radius
        + " km, order=distance, " + LIMIT + " per page", () -> {
      double[] p = points.get((int) (distTurn.getAndIncrement() % points.size()));
      return http.getJson(path(p, radius, "distance"), reader.accessToken())
          .map(page -> check(page, radius, "distance"));
    });
    Operation bus = new Operation(NEARBY_BUS, "ActivitiesService.nearby on the event bus within " + radius
        + " km, order=start, " + LIMIT + " per page", () -> {
      double[] p = points.get((int) (busTurn.getAndIncrement() % points.size()));
      JsonObject query = new JsonObject().put("lat", p[0]).put("lon", p[1]).put("radius_km", radius)
          .put("order", "start");
      return ScenarioContext.onContext(ctx, service.nearby(reader.id(), query, PageRequest.first(LIMIT)).map(Page::toJson))
          .map(page -> check(page, radius, "start"));
    });
    Operation floor = new Operation(FLOOR, "GEOSEARCH FROMLONLAT BYRADIUS " + radius + " km ASC COUNT " + CANDIDATES
        + " WITHDIST on a GEO set of the same activities", () -> {
      double[] p = points.get((int) (floorTurn.getAndIncrement() % points.size()));
      return redis.send(Request.cmd(Command.GEOSEARCH).arg(geoKey).arg("FROMLONLAT").arg(p[1]).arg(p[0])
          .arg("BYRADIUS").arg(radius).arg("km").arg("ASC").arg("COUNT").arg(CANDIDATES).arg("WITHDIST"))
          .map(r -> checkFloor(r, radius));
    });
    return List.of(byStart, byDistance, bus, floor);
  }

  static String path(double[] p, double radius, String order) {
    return String.format(Locale.ROOT, "%s?lat=%.6f&lon=%.6f&radius_km=%s&order=%s&limit=%d", NEARBY_PATH,
        p[0], p[1], radius, order, LIMIT);
  }

  /** A full page of open public activities within the radius, in the order asked for. */
  static JsonObject check(JsonObject page, double radius, String order) {
    JsonArray items = page.getJsonArray("items");
    if (items == null || items.size() != LIMIT) {
      throw new IllegalStateException("the page holds " + (items == null ? "no items" : items.size() + " items")
          + ", not " + LIMIT);
    }
    double lastDistance = -1;
    long lastStart = Long.MIN_VALUE;
    for (Object o : items) {
      JsonObject a = (JsonObject) o;
      Double d = a.getDouble("distance_km");
      if (d == null || d > radius + 0.01) {
        throw new IllegalStateException("activity " + a.getValue("id") + " is " + d + " km away, beyond " + radius);
      }
      if (!"open".equals(a.getString("status")) || !"public".equals(a.getString("visibility"))) {
        throw new IllegalStateException("activity " + a.getValue("id") + " is not open and public");
      }
      long start = a.getLong("start");
      if (order.equals("start") ? start < lastStart : d < lastDistance - 1e-9) {
        throw new IllegalStateException("the page is not ordered by " + order);
      }
      lastStart = start;
      lastDistance = d;
    }
    return page;
  }

  /** The floor found activities, all within the radius. */
  static int checkFloor(Response reply, double radius) {
    if (reply == null || reply.size() == 0) {
      throw new IllegalStateException("GEOSEARCH found nothing");
    }
    for (Response r : reply) {
      if (r.get(1).toDouble() > radius + 0.01) {
        throw new IllegalStateException("GEOSEARCH answered a member beyond the radius");
      }
    }
    return reply.size();
  }

  private static List<String> notes(int count, double area, double radius) {
    double density = count / (area * area);
    double inRadius = density * Math.PI * radius * radius;
    List<String> notes = new ArrayList<>();
    notes.add(String.format(Locale.ROOT, "%,d upcoming public activities spread evenly over %.0f km x %.0f km "
        + "(%.1f per km2): about %,.0f within %s km of a search point; the service considers the nearest %,d "
        + "(activities.nearby-candidates) and the floor fetches as many", count, area, area, density, inRadius,
        radius, Math.min(CANDIDATES, (int) inRadius)));
    notes.add("seeded straight into MongoDB (the records the service's create stores, starting 2 hours to 25 days "
        + "ahead, inside activities.warm-days), then loaded into Redis by the service's own loader through "
        + "visibleActivities (read misses); create was bypassed: no rate limit, no ActivityCreated events, no "
        + "discussion groups (activities.repair-interval-seconds is raised so that the repair does not make them "
        + "during the run)");
    notes.add(FLOOR + " runs on a GEO set of the bench's own holding the same activity ids at the same positions, on "
        + "the same Redis: the least any nearby search over these activities costs; " + NEARBY_BUS + " is the "
        + "service without HTTP, " + NEARBY_HTTP + "/" + NEARBY_BUS + " what the gateway adds");
    return notes;
  }
}
