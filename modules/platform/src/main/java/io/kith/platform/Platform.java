package io.kith.platform;

import io.kith.platform.bus.Membership;
import io.kith.platform.bus.ServicePing;
import io.kith.platform.config.Bounds;
import io.kith.platform.config.KithConfig;
import io.kith.platform.events.EventLog;
import io.kith.platform.events.EventLogMetrics;
import io.kith.platform.events.EventLogOptions;
import io.kith.platform.events.EventOutbox;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.metrics.KithMetrics;
import io.kith.platform.store.Stores;
import io.kith.platform.text.ContentFilters;
import io.kith.platform.token.AccessTokens;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What every module of a node shares: the Vert.x instance, the configuration, the store clients, the id generator,
 * the event log and the token services. Built once per node by the app (or by the test kit) and handed to each
 * {@link KithModule}.
 */
public final class Platform {

  private static final Logger LOG = LoggerFactory.getLogger(Platform.class);
  /** Redis key of the generated token secret when none is configured. */
  static final String SECRET_KEY = "kith:tokens:secret";

  private final Vertx vertx;
  private final KithConfig config;
  private final Redis redis;
  private final MongoClient mongo;
  private final IdGenerator ids;
  private final EventLog events;
  private final Sessions sessions;
  private final KithMetrics metrics;
  private final EventLogMetrics eventLogMetrics;
  private final Membership membership;
  private final Map<String, Supplier<Future<?>>> readiness = Collections.synchronizedMap(new LinkedHashMap<>());

  private Platform(Vertx vertx, KithConfig config, Redis redis, MongoClient mongo, IdGenerator ids, EventLog events,
                   Sessions sessions, KithMetrics metrics, long pollMillis) {
    this.vertx = vertx;
    this.config = config;
    this.redis = redis;
    this.mongo = mongo;
    this.ids = ids;
    this.events = events;
    this.sessions = sessions;
    this.metrics = metrics;
    this.eventLogMetrics = new EventLogMetrics(vertx, events, metrics, pollMillis);
    this.membership = new Membership(vertx);
    membership.onChange(change -> {
      if (change.left()) {
        events.memberLeft();
      }
    });
    addReadinessCheck("redis", () -> Stores.pingRedis(redis));
    addReadinessCheck("mongo", () -> Stores.pingMongo(mongo));
  }

  /**
   * Adds a check that {@code /ready} runs: the node is ready when every check's future succeeds in time.
   * The app adds cluster membership; a module may add its own (the gateway pings each service it calls, see
   * {@link ServicePing}).
   */
  public void addReadinessCheck(String name, Supplier<Future<?>> check) {
    readiness.put(name, check);
  }

  /** The readiness checks by name, in registration order. */
  public Map<String, Supplier<Future<?>>> readinessChecks() {
    synchronized (readiness) {
      return new LinkedHashMap<>(readiness);
    }
  }

  /** Config key ({@code metrics} section): seconds between two reads of the event log's gauges. */
  public static final String POLL_SECONDS = "poll-seconds";

  /** How long a start waits for a Redis that is reachable but does not answer yet. */
  static final long START_WAIT_MS = 60_000;

  /**
   * Connects to Redis at {@code redisUrl} and MongoDB at {@code mongoUrl}, checks both answer, leases an id node
   * number and prepares the token services.
   */
  public static Future<Platform> start(Vertx vertx, KithConfig config, String redisUrl, String mongoUrl) {
    return start(vertx, config, redisUrl, mongoUrl, KithMetrics.unpublished());
  }

  /**
   * As {@link #start(Vertx, KithConfig, String, String)}, with Kith's meters (store latency, the event log's gauges,
   * the modules' counters) on {@code metrics}: the node's published registry.
   */
  public static Future<Platform> start(Vertx vertx, KithConfig config, String redisUrl, String mongoUrl,
                                       KithMetrics metrics) {
    long pollMillis;
    try {
      // refused before any store is touched or id leased
      pollMillis = Bounds.of("metrics", config.section("metrics")).within(POLL_SECONDS, 1L, 3_600L) * 1000;
    } catch (IllegalArgumentException | IllegalStateException e) {
      return Future.failedFuture(e);
    }
    JsonObject redisSection = config.section("redis");
    JsonObject mongoSection = config.section("mongo");
    JsonObject tokens = config.section("tokens");
    Redis redis = Stores.redis(vertx, redisUrl, redisSection, metrics);
    MongoClient mongo = Stores.mongo(vertx, mongoUrl, mongoSection.getString("database", "kith"), mongoSection,
        metrics);
    RedisAPI api = RedisAPI.api(redis);
    // every node answers readiness pings to its services' addresses (see ServicePing)
    ServicePing.install(vertx);
    // a reachable Redis is waited for (a loaded machine, a server loading its data); an unreachable one fails at once
    return Stores.awaitRedis(vertx, redisUrl, redisSection, START_WAIT_MS)
        .recover(e -> Future.failedFuture(new IllegalStateException(
            "cannot reach Redis at " + redact(redisUrl) + " (" + e.getMessage() + "): check redis.url / KITH_REDIS_URL")))
        .compose(v -> Stores.pingMongo(mongo)
            .recover(e -> Future.failedFuture(new IllegalStateException("cannot reach MongoDB at " + redact(mongoUrl)
                + " (" + firstLine(e.getMessage()) + "): check mongo.url / KITH_MONGO_URL"))))
        .compose(v -> ContentFilters.watch(vertx, mongo))
        .compose(v -> secret(api, tokens.getString("secret", "")))
        .map(secret -> new AccessTokens(vertx, secret, tokens.getString("issuer", "kith"),
            tokens.getString("audience", "kith-api"), tokens.getInteger("access-ttl", 900)))
        // tokens are checked before the lease: a refused configuration must not leave a lease being renewed
        .compose(access -> IdGenerator.lease(vertx, api, config.section("ids").getInteger("lease-seconds", 30))
            .map(ids -> {
              Sessions sessions = new Sessions(vertx, redis, access, tokens.getInteger("refresh-ttl", 2_592_000));
              EventLog events = new EventLog(vertx, redis, ids, EventLogOptions.from(config.section("eventlog")),
                  new EventOutbox(mongo));
              return new Platform(vertx, config, redis, mongo, ids, events, sessions, metrics, pollMillis);
            }))
        .onFailure(e -> {
          redis.close();
          mongo.close();
        });
  }

  private static Future<String> secret(RedisAPI api, String configured) {
    if (configured != null && !configured.isBlank()) {
      return Future.succeededFuture(configured);
    }
    byte[] bytes = new byte[48];
    new SecureRandom().nextBytes(bytes);
    String candidate = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    return api.set(List.of(SECRET_KEY, candidate, "NX"))
        .compose(r -> api.get(SECRET_KEY))
        .map(r -> {
          LOG.warn("tokens.secret is not set: using a generated signing secret kept in Redis ({}). "
              + "Set KITH_TOKENS_SECRET in production.", SECRET_KEY);
          return r.toString();
        });
  }

  /** A URL without its credentials, for messages. */
  public static String redact(String url) {
    return url == null ? "" : url.replaceAll("//[^@/]*@", "//***@");
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    String line = nl < 0 ? s : s.substring(0, nl);
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }

  /** The Vert.x instance. */
  public Vertx vertx() {
    return vertx;
  }

  /** The node's configuration. */
  public KithConfig config() {
    return config;
  }

  /** The pooled Redis client. */
  public Redis redis() {
    return redis;
  }

  /** The Redis command API over the pooled client. */
  public RedisAPI redisApi() {
    return RedisAPI.api(redis);
  }

  /** The shared MongoDB client. */
  public MongoClient mongo() {
    return mongo;
  }

  /** The id generator. */
  public IdGenerator ids() {
    return ids;
  }

  /** The event log. */
  public EventLog events() {
    return events;
  }

  /** Kith's meters (see {@link KithMetrics}). */
  public KithMetrics metrics() {
    return metrics;
  }

  /** The event log's gauges (a module reads a group's backlog from them). */
  public EventLogMetrics eventLogMetrics() {
    return eventLogMetrics;
  }

  /** Cluster membership changes as this node sees them (none when not clustered). */
  public Membership membership() {
    return membership;
  }

  /** Sessions and refresh tokens. */
  public Sessions sessions() {
    return sessions;
  }

  /** Access-token signing and verification. */
  public AccessTokens accessTokens() {
    return sessions.accessTokens();
  }

  /** Releases the id lease and closes the store clients. */
  public Future<Void> close() {
    eventLogMetrics.close();
    events.close();
    return ids.close()
        .eventually(sessions::close)
        .eventually(() -> {
          mongo.close();
          redis.close();
          return Future.succeededFuture();
        });
  }
}
