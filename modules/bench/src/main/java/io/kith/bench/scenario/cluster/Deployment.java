package io.kith.bench.scenario.cluster;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.client.Target;
import io.kith.bench.cluster.KithNode;
import io.kith.bench.cluster.LocalCluster;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.RedisWork;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.platform.store.EmbeddedRedis;
import io.kith.platform.store.FreePorts;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpMethod;
import io.vertx.redis.client.Redis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One configuration the scale-out scenario measures: {@code size} clustered Kith processes on loopback
 * ({@link LocalCluster}), their own redis-server, the MongoDB-wire server every configuration shares (a database of
 * their own on it), an HTTP client per node, and the users the load acts as. Each configuration lives apart (its own
 * Hazelcast cluster name, Redis and database), so one can stay up, idle, while the other is measured.
 */
final class Deployment {

  /** Fixed heap and the serial collector: three nodes on two cores, none taking both for its GC. */
  static final List<String> JVM = List.of("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC");

  private final String name;
  private final EmbeddedRedis redis;
  private final LocalCluster cluster;
  private final List<BenchHttpClient> clients = new ArrayList<>();
  private final List<BenchAccounts> accounts = new ArrayList<>();
  private Redis redisClient;
  private List<BenchAccounts.User> users = List.of();
  private List<BenchAccounts.User> loginUsers = List.of();

  private Deployment(String name, EmbeddedRedis redis, LocalCluster cluster) {
    this.name = name;
    this.redis = redis;
    this.cluster = cluster;
  }

  /**
   * Starts the configuration's redis-server and nodes under {@code dir} (blocking, on a worker), then its clients on
   * the scenario's context.
   */
  static Future<Deployment> start(ScenarioContext context, Context ctx, WorkerExecutor worker, Path dir, int size,
                                  String mongoUrl) {
    String name = size + "n";
    Future<Deployment> started = worker.executeBlocking(() -> {
      EmbeddedRedis redis = EmbeddedRedis.start(dir.resolve("redis"), FreePorts.pick(), true);
      try {
        return new Deployment(name, redis, LocalCluster.start(dir, size,
            new LocalCluster.Stores(redis.url(), mongoUrl, "scale_" + name), LocalCluster.LIMITS, JVM));
      } catch (Exception | Error e) {
        redis.close();
        throw e;
      }
    }, false);
    return ScenarioContext.onContext(ctx, started).map(d -> d.connect(context));
  }

  private Deployment connect(ScenarioContext context) {
    String tag = BenchAccounts.newTag();
    for (KithNode node : cluster.nodes()) {
      BenchHttpClient client = new BenchHttpClient(context.vertx(), Target.parse(node.base()),
          context.settings().connections(), context.settings().timeout().toMillis() + 1000);
      clients.add(client);
      accounts.add(new BenchAccounts(client, tag));
    }
    redisClient = Redis.createClient(context.vertx(), redis.url());
    return this;
  }

  /** {@code 1n}, {@code 3n}: the operations' prefix in the report. */
  String name() {
    return name;
  }

  /** How many nodes it runs. */
  int size() {
    return clients.size();
  }

  /** The client of node {@code i % size}: the load spreads over the nodes' HTTP ports. */
  BenchHttpClient client(long i) {
    return clients.get((int) Math.floorMod(i, (long) clients.size()));
  }

  /** The accounts helper on node {@code i % size}. */
  BenchAccounts accounts(long i) {
    return accounts.get((int) Math.floorMod(i, (long) accounts.size()));
  }

  /** The users the load acts as ({@link #setUp}). */
  List<BenchAccounts.User> users() {
    return users;
  }

  /**
   * The users the logins log in as, and only they: a user keeps at most 50 sessions, so logging in as the load's
   * users would drop the sessions whose tokens the other requests carry (401 session_revoked).
   */
  List<BenchAccounts.User> loginUsers() {
    return loginUsers;
  }

  /**
   * Registers {@code count} users spread over the nodes, and {@code logins} more for the logins; makes each of the
   * first follow the next {@code follows} (so that posts fan out and follows notify), and reads each of their home
   * timelines once (a timeline nobody read is not fanned out to).
   */
  Future<Void> setUp(int count, int logins, int follows) {
    List<BenchAccounts.User> registered = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < count + logins; i++) {
      int index = i;
      chain = chain.compose(v -> accounts(index).register("u" + index).map(u -> {
        registered.add(u);
        return null;
      }));
    }
    return chain.compose(v -> {
      users = List.copyOf(registered.subList(0, count));
      loginUsers = List.copyOf(registered.subList(count, count + logins));
      Future<Void> seeding = Future.succeededFuture();
      for (int i = 0; i < count; i++) {
        BenchAccounts.User user = users.get(i);
        for (int f = 1; f <= follows; f++) {
          BenchAccounts.User followed = users.get((i + f) % count);
          long k = (long) i * follows + f;
          seeding = seeding.compose(x -> client(k).requestJson(HttpMethod.PUT, MixedOperations.FOLLOWING
              + followed.id(), null, user.accessToken(), 200).mapEmpty());
        }
        seeding = seeding.compose(x -> client(user.id()).getJson(MixedOperations.HOME, user.accessToken())
            .mapEmpty());
      }
      return seeding;
    });
  }

  /** Samples what the deployment's processes used so far ({@link NodeSample}). */
  Future<NodeSample> sample(Context ctx, WorkerExecutor worker) {
    List<ProcessHandle> pids = cluster.nodes().stream().map(n -> n.process().orElseThrow()).toList();
    List<String> metrics = cluster.nodes().stream().map(n -> n.base() + "/metrics").toList();
    return ScenarioContext.onContext(ctx, RedisWork.take(redisClient)).compose(redisWork -> ScenarioContext.onContext(
        ctx, worker.executeBlocking(() -> NodeSample.take(pids, metrics, redisWork.cpuMicros()), false)));
  }

  /** The nodes' logs, for the notes. */
  Path logs() {
    return cluster.node(0).log().getParent();
  }

  /** Stops the nodes and the redis-server (blocking: call on a worker). */
  void stop() {
    try {
      cluster.close();
    } finally {
      redis.close();
    }
  }

  /** Closes the clients (on the scenario's context). */
  Future<Void> closeClients() {
    List<Future<Void>> closing = new ArrayList<>();
    clients.forEach(c -> closing.add(c.close()));
    if (redisClient != null) {
      redisClient.close();
    }
    return Future.join(closing).mapEmpty();
  }

  @Override
  public String toString() {
    return name + " (" + size() + " node" + (size() == 1 ? "" : "s") + ")";
  }
}
