package io.kith.platform.store;

import io.kith.platform.metrics.KithMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.RedisReplicas;
import io.vertx.redis.client.RedisRole;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Factories for the Redis and MongoDB clients every module shares, built from the {@code redis} and {@code mongo}
 * configuration sections once their {@code url} is known (given, or that of an embedded store).
 */
public final class Stores {

  /** Name under which the shared MongoDB client pool is registered. */
  public static final String MONGO_POOL = "kith";

  private Stores() {
  }

  /**
   * Config key: {@code standalone} (one server, {@code redis.url} its URL), {@code cluster} (Redis Cluster) or
   * {@code sentinel} (a master and its replicas watched by Redis Sentinel).
   */
  public static final String MODE = "mode";
  /** {@link #MODE} of a single Redis server. */
  public static final String STANDALONE = "standalone";
  /** {@link #MODE} of a Redis Cluster: {@code redis.url} is a comma-separated list of seed node URLs. */
  public static final String CLUSTER = "cluster";
  /**
   * {@link #MODE} of a master watched by Redis Sentinel: {@code redis.url} is a comma-separated list of sentinel URLs,
   * {@code redis.master-name} the name they watch; every command goes to the master they name, found again after a
   * failover.
   */
  public static final String SENTINEL = "sentinel";

  /** The Redis mode {@code redisSection} selects; fails on a mode Kith does not know. */
  public static String mode(JsonObject redisSection) {
    String mode = redisSection.getString(MODE, STANDALONE);
    if (!STANDALONE.equals(mode) && !CLUSTER.equals(mode) && !SENTINEL.equals(mode)) {
      throw new IllegalArgumentException("redis.mode must be standalone, cluster or sentinel, not '" + mode + "'");
    }
    return mode;
  }

  /** Whether {@code redisSection} selects Redis Cluster; fails on a mode Kith does not know. */
  public static boolean clusterMode(JsonObject redisSection) {
    return CLUSTER.equals(mode(redisSection));
  }

  /**
   * Options for a pooled Redis client: one server at {@code url}; in cluster mode, a cluster client seeded by each
   * comma-separated URL of {@code url} (it learns the rest of the topology from them); in sentinel mode, a client that
   * asks the sentinels at {@code url} for the master of {@code redis.master-name} on each new connection (so pooled
   * connections lost in a failover are replaced by connections to the promoted replica). Commands always go to masters:
   * a replica lags, and Kith reads what it has just written.
   */
  public static RedisOptions redisOptions(String url, JsonObject redisSection) {
    RedisOptions options = new RedisOptions();
    String mode = mode(redisSection);
    if (STANDALONE.equals(mode)) {
      options.setConnectionString(url);
    } else {
      if (CLUSTER.equals(mode)) {
        options.setType(RedisClientType.CLUSTER).setUseReplicas(RedisReplicas.NEVER);
      } else {
        options.setType(RedisClientType.SENTINEL).setRole(RedisRole.MASTER)
            .setMasterName(redisSection.getString("master-name", "mymaster"));
      }
      for (String seed : url.split(",")) {
        if (!seed.isBlank()) {
          options.addConnectionString(seed.strip());
        }
      }
    }
    return options
        // RESP2 replies have one shape on every Redis version Kith supports (6.2 embedded, 7.x servers).
        .setPreferredProtocolVersion(ProtocolVersion.RESP2)
        .setMaxPoolSize(redisSection.getInteger("max-pool-size", 16))
        .setMaxPoolWaiting(redisSection.getInteger("max-pool-waiting", 4096))
        .setMaxWaitingHandlers(redisSection.getInteger("max-waiting-handlers", 4096));
  }

  /**
   * A pooled Redis client (in cluster mode one whose batches may span slots: {@link SlotBatchedRedis}), guarded (see
   * {@link GuardedRedis}): each command has a deadline of
   * {@code redis.command-timeout-ms}, and {@code redis.breaker-max-failures} outages in a row open a circuit for
   * {@code redis.breaker-reset-ms}.
   */
  public static Redis redis(Vertx vertx, String url, JsonObject redisSection) {
    return redis(vertx, url, redisSection, KithMetrics.unpublished());
  }

  /** As {@link #redis(Vertx, String, JsonObject)}, timing each command on {@code metrics}. */
  public static Redis redis(Vertx vertx, String url, JsonObject redisSection, KithMetrics metrics) {
    RedisOptions options = redisOptions(url, redisSection);
    Redis client = Redis.createClient(vertx, options);
    boolean cluster = clusterMode(redisSection);
    GuardedRedis guarded = new GuardedRedis(vertx, cluster ? new SlotBatchedRedis(vertx, client, options) : client,
        redisSection.getLong("command-timeout-ms", 2_000L),
        redisSection.getInteger("breaker-max-failures", 10),
        redisSection.getLong("breaker-reset-ms", 5_000L), metrics);
    if (!cluster) {
      guarded.withReaders(Redis.createClient(vertx, readerOptions(options, redisSection)));
    }
    return guarded;
  }

  /**
   * The options of the dedicated connections (event-log readers, a fan-out's ordered lane): a pool of its own of
   * {@code redis.max-readers}, so that connections held for long never starve the command pool.
   */
  static RedisOptions readerOptions(RedisOptions commands, JsonObject redisSection) {
    int readers = redisSection.getInteger("max-readers", 128);
    return new RedisOptions(commands).setMaxPoolSize(readers).setMaxPoolWaiting(readers * 4);
  }

  /**
   * A MongoDB client on the shared pool for {@code url} and {@code database}, guarded (see {@link GuardedMongo}): no
   * operation waits longer than the driver's deadlines (finding a server, reading a reply, waiting for a pooled
   * connection), and {@code mongo.breaker-max-failures} outages in a row open a circuit for
   * {@code mongo.breaker-reset-ms}.
   */
  public static MongoClient mongo(Vertx vertx, String url, String database, JsonObject mongoSection) {
    return mongo(vertx, url, database, mongoSection, KithMetrics.unpublished());
  }

  /** As {@link #mongo(Vertx, String, String, JsonObject)}, timing each operation on {@code metrics}. */
  public static MongoClient mongo(Vertx vertx, String url, String database, JsonObject mongoSection,
                                  KithMetrics metrics) {
    JsonObject config = new JsonObject()
        .put("connection_string", url)
        .put("db_name", database)
        .put("maxPoolSize", mongoSection.getInteger("max-pool-size", 32))
        .put("serverSelectionTimeoutMS", mongoSection.getInteger("server-selection-timeout-ms", 5000))
        .put("socketTimeoutMS", mongoSection.getInteger("socket-timeout-ms", 10_000))
        .put("waitQueueTimeoutMS", mongoSection.getInteger("wait-queue-timeout-ms", 2_000))
        .put("connectTimeoutMS", 5000);
    return GuardedMongo.wrap(vertx, MongoClient.createShared(vertx, config, MONGO_POOL + ":" + url + "/" + database),
        mongoSection.getInteger("breaker-max-failures", 10), mongoSection.getLong("breaker-reset-ms", 5_000L),
        metrics);
  }

  /**
   * Succeeds once Redis at {@code url} answers PING, waiting up to {@code waitMs} for one that is reachable but slow
   * to answer (a loaded machine, a server still loading its data: {@code LOADING}); fails at once when no connection
   * can be made. Runs on a connection of its own, outside the guarded client, whose command deadline and circuit are
   * meant for a node that serves, not for one that starts.
   */
  public static Future<Void> awaitRedis(Vertx vertx, String url, JsonObject redisSection, long waitMs) {
    Redis raw = Redis.createClient(vertx, redisOptions(url, redisSection));
    long deadline = System.currentTimeMillis() + waitMs;
    return raw.connect()
        .compose(connection -> pingUntil(vertx, RedisAPI.api(connection), deadline)
            .eventually(() -> connection.close()))
        .eventually(() -> {
          raw.close();
          return Future.succeededFuture();
        });
  }

  private static Future<Void> pingUntil(Vertx vertx, RedisAPI api, long deadline) {
    long left = deadline - System.currentTimeMillis();
    Future<Void> ping = api.ping(List.of()).mapEmpty();
    return ping.timeout(Math.max(1, left), TimeUnit.MILLISECONDS).recover(e -> {
      boolean loading = String.valueOf(e.getMessage()).startsWith("LOADING");
      if (!loading || System.currentTimeMillis() + 250 >= deadline) {
        return Future.failedFuture(e);
      }
      return vertx.timer(250).compose(t -> pingUntil(vertx, api, deadline));
    });
  }

  /** Succeeds when Redis answers PING. */
  public static Future<Void> pingRedis(Redis redis) {
    return RedisAPI.api(redis).ping(List.of()).mapEmpty();
  }

  /** Succeeds when MongoDB answers ping. */
  public static Future<Void> pingMongo(MongoClient mongo) {
    return mongo.runCommand("ping", new JsonObject().put("ping", 1)).mapEmpty();
  }
}
