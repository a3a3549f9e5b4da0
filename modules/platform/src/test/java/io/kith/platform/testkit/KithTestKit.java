package io.kith.platform.testkit;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.kith.platform.config.KithConfig;
import io.kith.platform.store.EmbeddedMongo;
import io.kith.platform.store.EmbeddedRedis;
import io.kith.platform.store.Stores;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The test kit: a JUnit 5 extension that starts one Redis (the {@code redis-server} on PATH if there is one, else the
 * embedded binary) and one in-memory MongoDB-wire server per test JVM, on free ports, and helpers to build a
 * {@link Platform} on them and to make users and tokens.
 *
 * <p>Use it with {@code @ExtendWith({VertxExtension.class, KithTestKit.class})}. Tests isolate by fresh ids, never by
 * cleaning the stores.
 *
 * <p>With the environment variable {@value #CLUSTER_ENV} set to a Redis Cluster's seed nodes
 * ({@code 127.0.0.1:7000,127.0.0.1:7001,...}, as {@code .ci/redis-cluster.sh start} prints), no Redis is started:
 * {@link #config} selects {@code redis.mode: cluster} on those nodes, so every test runs against the cluster, which
 * is emptied once when the JVM starts (see {@link #flushCluster}).
 */
public final class KithTestKit implements BeforeAllCallback {

  /** Environment variable naming an external Redis Cluster's seed nodes (host:port, comma-separated). */
  public static final String CLUSTER_ENV = "KITH_TEST_REDIS_CLUSTER";
  /**
   * JUnit tag of tests that kill a Redis Cluster master: they run only on a cluster (skipped without one), last and by
   * themselves, since they leave the cluster one replica short (the {@code redis-cluster} Maven profile leaves them
   * out).
   */
  public static final String FAILOVER_TAG = "redis-failover";

  private static final AtomicLong USER_IDS = new AtomicLong(System.currentTimeMillis() * 1000);
  private static EmbeddedRedis redis;
  private static EmbeddedMongo mongo;

  @Override
  public void beforeAll(ExtensionContext context) {
    ensureStarted();
  }

  /** Starts the stores once per JVM (stopped by a shutdown hook). */
  public static synchronized void ensureStarted() {
    if (mongo != null) {
      return;
    }
    if (onCluster()) {
      flushCluster();
    } else {
      redis = EmbeddedRedis.start(null, 0, true);
    }
    mongo = EmbeddedMongo.start(MemoryBackend::new, 0);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      mongo.close();
      if (redis != null) {
        redis.close();
      }
    }, "kith-testkit-stores"));
  }

  /**
   * Empties every master of the cluster, so that this test JVM starts on an empty Redis as it does on a server of its
   * own: the event streams and consumer groups of an earlier JVM would otherwise hand its events (about users of its
   * MongoDB, gone now) to this one's consumers. A cluster is therefore used by one test JVM at a time (the
   * {@code redis-cluster} Maven profile runs one fork per module). FLUSHALL has no keys: a cluster client sends it to
   * one node, so it goes to each master on a connection of its own.
   */
  private static void flushCluster() {
    Vertx vertx = Vertx.vertx();
    Redis cluster = Redis.createClient(vertx, Stores.redisOptions(clusterUrl(), redisSection()));
    try {
      Await.result(RedisNodes.flushAll(vertx, cluster));
    } finally {
      cluster.close();
      vertx.close();
    }
  }

  /** The seed nodes ({@code host:port}) of the Redis Cluster the tests run against, empty for a single Redis. */
  public static List<String> clusterNodes() {
    String nodes = System.getenv(CLUSTER_ENV);
    return nodes == null ? List.of() : Arrays.stream(nodes.split(",")).map(String::strip)
        .filter(n -> !n.isEmpty()).toList();
  }

  /** Whether the tests run against a Redis Cluster ({@value #CLUSTER_ENV} is set). */
  public static boolean onCluster() {
    return !clusterNodes().isEmpty();
  }

  /**
   * URL of the test Redis: that of the single server, or on a cluster its seed nodes' URLs, comma-separated (what
   * {@code redis.url} holds in cluster mode).
   */
  public static String redisUrl() {
    ensureStarted();
    return redis != null ? redis.url() : clusterUrl();
  }

  private static String clusterUrl() {
    return String.join(",", clusterNodes().stream().map(n -> "redis://" + n).toList());
  }

  /**
   * The {@code redis} configuration section of the test stores ({@code mode: cluster} on a cluster) without the URL,
   * for a test's own client; its command deadline is that of {@link #config}.
   */
  public static JsonObject redisSection() {
    return new JsonObject().put(Stores.MODE, onCluster() ? Stores.CLUSTER : Stores.STANDALONE)
        .put("command-timeout-ms", 30_000);
  }

  /** URL of the test MongoDB-wire server. */
  public static String mongoUrl() {
    ensureStarted();
    return mongo.url();
  }

  /**
   * Configuration pointing at the test stores, with {@code overrides} merged over the defaults. New password hashes
   * use the lowest Argon2id cost ({@code accounts.argon2-memory-kib} 1024, {@code argon2-iterations} 1): tests
   * register thousands of users, and at the production cost (19 MiB, two passes, about 80 ms of CPU here) hashing
   * took a quarter to a third of the suite's CPU. What hashing and verifying do is the same at any cost. The store
   * command deadline and the request deadline are 30 s and 60 s instead of 2 s and 10 s: on a machine whose cores
   * other work keeps busy a healthy store can take seconds to answer, and a deadline here must only catch a hang (the
   * tests of the deadlines set their own).
   */
  public static KithConfig config(JsonObject overrides) {
    JsonObject tree = new JsonObject()
        // a directory of this JVM's own: the development outbox (mail and SMS without a server) writes there
        .put("kith", new JsonObject().put("data-dir", Outbox.DATA_DIR.toString()))
        .put("accounts", new JsonObject().put("argon2-memory-kib", 1024).put("argon2-iterations", 1))
        .put("redis", redisSection().put("url", redisUrl()))
        .put("mongo", new JsonObject().put("url", mongoUrl()).put("database", "kith-test"))
        .put("http", new JsonObject().put("port", 0).put("access-log", false).put("instances", 1)
            .put("request-timeout-seconds", 60))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        // tests read codes from the outbox while many registrations write to it
        .put("mail", new JsonObject().put("outbox-keep", 2000));
    deepMerge(tree, overrides);
    return KithConfig.of(tree);
  }

  /** A platform on the test stores. Close it (or the Vert.x instance) after the test. */
  public static Future<Platform> platform(Vertx vertx) {
    return platform(vertx, new JsonObject());
  }

  /** A platform on the test stores with configuration overrides. */
  public static Future<Platform> platform(Vertx vertx, JsonObject overrides) {
    return Platform.start(vertx, config(overrides), redisUrl(), mongoUrl());
  }

  /**
   * Deploys {@code modules} on {@code platform} in their start order (domain services before the gateway), as the
   * app does, and completes when all are ready.
   */
  public static Future<Void> deploy(Platform platform, KithModule... modules) {
    Future<Void> chain = Future.succeededFuture();
    for (KithModule module : java.util.Arrays.stream(modules)
        .sorted(java.util.Comparator.comparingInt(KithModule::order)).toList()) {
      chain = chain.compose(v -> module.deploy(platform).mapEmpty());
    }
    return chain;
  }

  /** The HTTP port of a gateway deployed on {@code platform}'s Vert.x (0 when none). */
  public static int httpPort(Platform platform) {
    Object port = platform.vertx().sharedData().getLocalMap("kith.gateway.ports").get("http");
    return port instanceof Integer ? (Integer) port : 0;
  }

  /** A user id no other test uses. */
  public static long newUserId() {
    return USER_IDS.incrementAndGet();
  }

  /** Opens a session for a fresh user id and returns its tokens. */
  public static Future<TokenPair> newSession(Platform platform) {
    return platform.sessions().open(newUserId(), "test device");
  }

  /** Merges {@code overlay} into {@code target}: objects key by key, anything else replaced. */
  public static void deepMerge(JsonObject target, JsonObject overlay) {
    for (String key : overlay.fieldNames()) {
      Object over = overlay.getValue(key);
      Object base = target.getValue(key);
      if (over instanceof JsonObject && base instanceof JsonObject) {
        deepMerge((JsonObject) base, (JsonObject) over);
      } else {
        target.put(key, over);
      }
    }
  }
}
