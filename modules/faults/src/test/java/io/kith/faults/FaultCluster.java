package io.kith.faults;

import io.kith.platform.store.EmbeddedMongo;
import io.kith.platform.store.EmbeddedRedis;
import io.kith.platform.store.FreePorts;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Three Kith nodes in cluster mode on loopback, each running every module, on one real redis-server (AOF on, started
 * here from PATH, else the binary embedded-redis ships) and one MongoDB-wire server (the embedded one on its H2
 * backend, in this JVM: the faults hit the nodes, not MongoDB). Everything lives under
 * {@code target/faults/<test>/}: the nodes' logs, Redis's data and log, MongoDB's file.
 */
final class FaultCluster implements AutoCloseable {

  /** Generous for a JVM start on two busy cores. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(180);

  private final Path dir;
  private final int redisPort = FreePorts.pick();
  private EmbeddedRedis redis;
  private final EmbeddedMongo mongo;
  private final List<KithNode> nodes = new ArrayList<>();
  final Api api = new Api();

  private FaultCluster(Path dir) {
    this.dir = dir;
    this.redis = EmbeddedRedis.start(dir.resolve("redis"), redisPort, true);
    this.mongo = EmbeddedMongo.startH2(dir.resolve("mongo"), 0);
  }

  /**
   * Starts the stores and three nodes: the first alone, then the other two, which join it; returns once every node
   * answers /health and the first has logged a cluster of three members. {@code overrides} are KITH_ variables set
   * on every node on top of the suite's own.
   */
  static FaultCluster start(String test, Map<String, String> overrides) throws Exception {
    Path dir = Path.of("target", "faults", test).toAbsolutePath();
    Files.createDirectories(dir);
    FaultCluster cluster = new FaultCluster(dir);
    try {
      cluster.startNodes(3, overrides);
    } catch (Exception | AssertionError e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private void startNodes(int count, Map<String, String> overrides) throws Exception {
    List<Integer> clusterPorts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      clusterPorts.add(FreePorts.pick());
    }
    String members = clusterPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    String clusterName = "faults-" + UUID.randomUUID();
    for (int i = 0; i < count; i++) {
      String name = "node-" + (i + 1);
      Files.deleteIfExists(dir.resolve(name + ".log"));
      Map<String, String> env = new HashMap<>(Map.ofEntries(
          Map.entry("KITH_DATA_DIR", dir.resolve(name).toString()),
          Map.entry("KITH_MODULES", "all"),
          Map.entry("KITH_HTTP_PORT", Integer.toString(FreePorts.pick())),
          Map.entry("KITH_HTTP_INSTANCES", "1"),
          Map.entry("KITH_HTTP_ACCESS_LOG", "false"),
          Map.entry("KITH_REDIS_URL", redis.url()),
          Map.entry("KITH_MONGO_URL", mongo.url()),
          Map.entry("KITH_MONGO_DATABASE", "faults"),
          Map.entry("KITH_CLUSTER_ENABLED", "true"),
          Map.entry("KITH_CLUSTER_NAME", clusterName),
          Map.entry("KITH_CLUSTER_HOST", "127.0.0.1"),
          Map.entry("KITH_CLUSTER_PORT", Integer.toString(clusterPorts.get(i))),
          Map.entry("KITH_CLUSTER_MEMBERS", members),
          Map.entry("KITH_CLUSTER_JOIN_WAIT_SECONDS", "3"),
          Map.entry("KITH_TOKENS_SECRET", "fault-suite-secret-fault-suite-secret-0123456789"),
          // the lowest password-hashing cost: the suite registers hundreds of users (Kith warns about it)
          Map.entry("KITH_ACCOUNTS_ARGON2_MEMORY_KIB", "1024"),
          Map.entry("KITH_ACCOUNTS_ARGON2_ITERATIONS", "1"),
          // every user registers from 127.0.0.1
          Map.entry("KITH_ACCOUNTS_REGISTER_MAX_PER_ADDRESS", "100000"),
          Map.entry("KITH_MESSAGING_SENDS_PER_MINUTE", "100000"),
          // a dead node's pending events are claimed after 5 s rather than 30 s: the suite stays bounded
          Map.entry("KITH_EVENTLOG_CLAIM_AFTER_MS", "5000")));
      env.putAll(overrides);
      int port = Integer.parseInt(env.get("KITH_HTTP_PORT"));
      nodes.add(new KithNode(name, port, dir.resolve(name + ".log"), env));
    }
    launch();
    awaitLog(nodes.get(0), "Members {size:" + count, START_TIMEOUT);
  }

  // The first node alone (it forms the cluster after cluster.join-wait-seconds), then the others, which join it.
  private void launch() throws Exception {
    nodes.get(0).start();
    nodes.get(0).awaitHealthy(START_TIMEOUT);
    for (KithNode node : nodes.subList(1, nodes.size())) {
      node.start();
    }
    for (KithNode node : nodes.subList(1, nodes.size())) {
      node.awaitHealthy(START_TIMEOUT);
    }
  }

  /** Starts every node again (after they all stopped), as the cluster was first started. */
  void restartNodes() throws Exception {
    launch();
  }

  /** Waits until {@code node}'s log contains {@code text}. */
  static void awaitLog(KithNode node, String text, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.readString(node.log()).contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(node + " never logged '" + text + "':\n" + node.tail());
      }
      Thread.sleep(200);
    }
  }

  KithNode node(int index) {
    return nodes.get(index);
  }

  List<KithNode> nodes() {
    return List.copyOf(nodes);
  }

  /** Stops redis-server (SIGTERM: it writes its AOF) and starts it again on the same port and data. */
  void restartRedis() {
    redis.close();
    redis = EmbeddedRedis.start(dir.resolve("redis"), redisPort, true);
  }

  /** FLUSHALL: Redis keeps running with every key gone (streams, consumer groups, sessions, derived data). */
  void flushRedis() throws IOException {
    try (Socket socket = new Socket("127.0.0.1", redisPort)) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write("*1\r\n$8\r\nFLUSHALL\r\n".getBytes(StandardCharsets.US_ASCII));
      String reply = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
          .readLine();
      if (!"+OK".equals(reply)) {
        throw new IllegalStateException("FLUSHALL answered " + reply);
      }
    }
  }

  @Override
  public void close() {
    nodes.forEach(KithNode::stopQuietly);
    try {
      redis.close();
    } finally {
      mongo.close();
    }
  }
}
