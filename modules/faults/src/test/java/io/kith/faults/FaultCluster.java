package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.kith.bench.cluster.LocalCluster;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Three Kith nodes in cluster mode on loopback ({@link LocalCluster}), each running every module, on one real
 * redis-server (AOF on, started here from PATH, else the binary embedded-redis ships) and one MongoDB-wire server (the
 * embedded one on its H2 backend, in this JVM: the faults hit the nodes, not MongoDB). Everything lives under
 * {@code target/faults/<test>/}: the nodes' logs, Redis's data and log, MongoDB's file.
 */
final class FaultCluster implements AutoCloseable {

  /** The suite's own settings on every node. */
  private static final Map<String, String> SUITE = Map.of(
      // a dead node's pending events are claimed after 5 s rather than 30 s: the suite stays bounded
      "KITH_EVENTLOG_CLAIM_AFTER_MS", "5000");
  /** Small heaps and C1 only: three nodes start faster on two busy cores, and the suite measures no speed. */
  private static final List<String> JVM = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private final Path dir;
  private final int redisPort = FreePorts.pick();
  private EmbeddedRedis redis;
  private final EmbeddedMongo mongo;
  private LocalCluster nodes;
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
      Map<String, String> env = new HashMap<>(SUITE);
      env.putAll(overrides);
      cluster.nodes = LocalCluster.start(dir, 3,
          new LocalCluster.Stores(cluster.redis.url(), cluster.mongo.url(), "faults"), env, JVM);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** Starts every node again (after they all stopped), as the cluster was first started. */
  void restartNodes() throws Exception {
    nodes.launch();
  }

  KithNode node(int index) {
    return nodes.node(index);
  }

  List<KithNode> nodes() {
    return nodes.nodes();
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
    if (nodes != null) {
      nodes.close();
    }
    try {
      redis.close();
    } finally {
      mongo.close();
    }
  }
}
