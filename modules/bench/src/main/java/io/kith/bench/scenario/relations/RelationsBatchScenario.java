package io.kith.bench.scenario.relations;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.EdgeSeeder;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.platform.Platform;
import io.kith.relations.service.RelationsSeeder;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The relations domain's batch relationship query against its floor: {@code POST /api/v1/relationships} for a viewer
 * and 1,000 user ids (over HTTP with the viewer's token: the bench's Vert.x is not on Kith's event bus, so the
 * service proxy is out of reach) against one pipelined Redis batch of 1,000 {@code SISMEMBER} on a 1,000-member set,
 * the least a store-backed answer about 1,000 users can cost. Both at the same rate, interleaved, plus
 * {@code GET /api/v1/whoami} with the same token to show how much of the query is plain HTTP.
 *
 * <p>Set-up registers the viewer over HTTP and writes the graph around it ({@link RelationsMix}) straight into the
 * in-process Kith's MongoDB, bypassing the relations service; the 1,000 users need not be accounts (the query does
 * not look them up). Every reply is counted against the seeded mix, so a wrong answer fails the request.
 */
public final class RelationsBatchScenario extends DescribedScenario {

  static final String OTHER_EDGES = "other-edges";
  static final int IDS = 1_000;
  static final String RELATIONSHIPS = "/api/v1/relationships";

  static final String QUERY = "relationships";
  static final String FLOOR = "sismember-x1000";
  static final String WHOAMI = "whoami";

  /** The Redis set for the floor holds this many of the asked-about ids, plus others up to {@link #IDS}. */
  static final int SET_HITS = IDS / 2;
  private static final long SET_TTL_SECONDS = 3_600;
  /** First id of the users that only appear in other users' edges and in the Redis set (never asked about). */
  private static final long STRANGERS = 1;

  private final BenchStores stores = new BenchStores(name());

  public RelationsBatchScenario() {
    // it registers its viewer and seeds the stores of the in-process Kith
    super("relations-batch",
        "POST /api/v1/relationships for 1,000 ids vs one pipelined batch of 1,000 Redis SISMEMBER, same rate",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(ScenarioOption.count(OTHER_EDGES, "follow edges between other users, seeded beside the viewer's "
        + "(the size of the edges collection the query runs on)", 0, 0, 10_000_000));
  }

  @Override
  public JsonObject inProcessConfig() {
    return stores.inProcessConfig();
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    int otherEdges = (int) context.option(OTHER_EDGES);
    return stores.using(context, platform -> measure(context, platform, otherEdges));
  }

  private Future<ScenarioResult> measure(ScenarioContext context, Platform platform, int otherEdges) {
    BenchHttpClient http = context.http();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    return accounts.register("viewer").compose(viewer -> {
      List<Long> others = new ArrayList<>(IDS);
      for (int i = 0; i < IDS; i++) {
        others.add(platform.ids().next());
      }
      AtomicLong strangers = new AtomicLong(STRANGERS);
      RelationsMix mix = RelationsMix.build(viewer.id(), others, platform.ids()::next, otherEdges,
          strangers::getAndIncrement, System.currentTimeMillis());
      String setKey = "bench:" + name() + ":{" + viewer.id() + "}";
      List<String> seeded = new ArrayList<>();
      return seed(context, platform, mix, seeded)
          .compose(v -> buildSet(platform.redis(), setKey, others, strangers))
          .compose(v -> {
            JsonObject body = new JsonObject().put("ids", new JsonArray(new ArrayList<>(others)));
            Operation query = new Operation(QUERY, "POST " + RELATIONSHIPS + " with " + IDS + " ids, the viewer's "
                + "token", () -> http.postJson(RELATIONSHIPS, body, viewer.accessToken(), 200)
                .map(reply -> check(reply, mix.expect())));
            List<Request> sismembers = new ArrayList<>(IDS);
            others.forEach(id -> sismembers.add(Request.cmd(Command.SISMEMBER).arg(setKey).arg(id)));
            Operation floor = new Operation(FLOOR, "one pipelined Redis batch of " + IDS + " SISMEMBER on a "
                + IDS + "-member set", () -> platform.redis().batch(sismembers).map(RelationsBatchScenario::hits));
            Operation whoami = Replies.whoamiOperation(WHOAMI, "the viewer's token", http, viewer.accessToken(),
                viewer.id());
            List<Operation> operations = List.of(query, floor, whoami);
            return context.preflight(operations).compose(x -> context.runner().run(name(), operations));
          })
          .map(stats -> new ScenarioResult(stats, List.of(
              new RatioSpec(QUERY, FLOOR, 50), new RatioSpec(QUERY, FLOOR, 99),
              new RatioSpec(QUERY, WHOAMI, 50), new RatioSpec(QUERY, WHOAMI, 99)),
              notes(mix, seeded, otherEdges)));
    });
  }

  /** Writes the mix into the relations collections, recording what it wrote for the notes. */
  private static Future<Void> seed(ScenarioContext context, Platform platform, RelationsMix mix, List<String> seeded) {
    return insert(context, platform, RelationsSeeder.EDGES, mix.edges(), seeded)
        .compose(v -> insert(context, platform, RelationsSeeder.TAGS, mix.tags(), seeded))
        .compose(v -> insert(context, platform, RelationsSeeder.GROUPS, mix.groups(), seeded))
        .compose(v -> insert(context, platform, RelationsSeeder.MEMBERS, mix.members(), seeded));
  }

  private static Future<Void> insert(ScenarioContext context, Platform platform, String collection,
                                     List<JsonObject> docs, List<String> seeded) {
    return EdgeSeeder.seed(context.vertx(), platform.mongo(), collection, EdgeSeeder.of(docs), collection)
        .map(result -> {
          seeded.add(collection + " " + result.describe());
          return null;
        });
  }

  /** The floor's set: {@link #SET_HITS} of the asked-about ids and others up to {@link #IDS} members. */
  private static Future<Void> buildSet(Redis redis, String key, List<Long> others, AtomicLong strangers) {
    Request sadd = Request.cmd(Command.SADD).arg(key);
    for (int i = 0; i < IDS; i++) {
      sadd.arg(i < SET_HITS ? others.get(i) : strangers.getAndIncrement());
    }
    return redis.batch(List.of(Request.cmd(Command.DEL).arg(key), sadd,
            Request.cmd(Command.EXPIRE).arg(key).arg(SET_TTL_SECONDS)))
        .compose(r -> redis.send(Request.cmd(Command.SCARD).arg(key)))
        .map(card -> {
          if (card.toInteger() != IDS) {
            throw new IllegalStateException("the floor's Redis set holds " + card + " members, not " + IDS);
          }
          return null;
        });
  }

  /** Checks a relationships reply against the seeded mix. */
  static JsonObject check(JsonObject reply, RelationsMix.Counts expect) {
    RelationsMix.Counts got = RelationsMix.Counts.of(reply);
    if (!got.equals(expect)) {
      throw new IllegalStateException("relationships reply counts " + got.describe() + " over " + got.users()
          + " users instead of " + expect.describe() + " over " + expect.users());
    }
    return reply;
  }

  /** Checks the floor's replies: {@link #SET_HITS} members among the {@link #IDS} asked. */
  static int hits(List<Response> replies) {
    if (replies.size() != IDS) {
      throw new IllegalStateException("the batch answered " + replies.size() + " of " + IDS + " commands");
    }
    int hits = 0;
    Set<Integer> values = new HashSet<>();
    for (Response r : replies) {
      int v = r.toInteger();
      values.add(v);
      hits += v;
    }
    if (hits != SET_HITS || !Set.of(0, 1).containsAll(values)) {
      throw new IllegalStateException("SISMEMBER found " + hits + " members instead of " + SET_HITS);
    }
    return hits;
  }

  private static List<String> notes(RelationsMix mix, List<String> seeded, int otherEdges) {
    List<String> notes = new ArrayList<>();
    notes.add(QUERY + " is measured over HTTP (gateway, token check, event bus to the relations service, its three "
        + "MongoDB queries, JSON of " + IDS + " entries); " + FLOOR + " goes straight from the bench to Redis. "
        + QUERY + "/" + FLOOR + " is the batch query's cost in units of the cheapest store round trip about "
        + IDS + " users; " + QUERY + "/" + WHOAMI + " shows how much of it is more than an authenticated request");
    notes.add("seeded straight into MongoDB, bypassing the relations service: " + String.join("; ", seeded)
        + (otherEdges > 0 ? " (" + otherEdges + " of the edges are between other users)" : ""));
    notes.add("the in-process Kith's embedded MongoDB-wire server ignores secondary indexes, so the query's "
        + "MongoDB part scans the whole edges collection, matching each edge against the " + IDS + " ids: on it, "
        + QUERY + " grows with --" + OTHER_EDGES + "; on MongoDB the edge_unique and edge_inbound indexes bound it "
        + "by the viewer's edges");
    notes.add("every " + QUERY + " reply must count " + mix.expect().describe() + " over " + mix.expect().users()
        + " users, without blocked_by or hidden_from");
    return notes;
  }
}
