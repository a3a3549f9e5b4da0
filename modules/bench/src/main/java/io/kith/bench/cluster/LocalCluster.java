package io.kith.bench.cluster;

import io.kith.platform.store.FreePorts;

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
 * Kith nodes in cluster mode on loopback, as an operator runs them: {@link KithNode} processes configured only by
 * {@code KITH_} variables (cluster on, distinct HTTP and Hazelcast ports, every member listed, a shared
 * {@code tokens.secret}, every module on every node), on stores someone else started. Password hashing is at its
 * lowest cost and the limits a load from one address would hit are raised, for the load generators that use it (the
 * fault suite, the bench's {@code scale-out}). Node logs are {@code node-N.log} in the directory given.
 */
public final class LocalCluster implements AutoCloseable {

  /** Generous for a JVM start on two busy cores. */
  public static final Duration START_TIMEOUT = Duration.ofSeconds(180);

  /** The per-user limits a load would otherwise hit (429 is allowed, but a client stuck on it measures nothing). */
  public static final Map<String, String> LIMITS = Map.of(
      "KITH_FEEDS_POSTS_PER_HOUR", "100000",
      "KITH_FEEDS_LIKES_PER_MINUTE", "100000",
      "KITH_RELATIONS_FOLLOWS_PER_MINUTE", "100000");

  private final List<KithNode> nodes;
  // a node outliving the JVM that started it (Ctrl-C of the bench, a crashed test JVM) would hold its ports and CPU
  private final Thread killer;

  private LocalCluster(List<KithNode> nodes) {
    this.nodes = List.copyOf(nodes);
    this.killer = new Thread(() -> this.nodes.forEach(n -> n.process().ifPresent(ProcessHandle::destroyForcibly)),
        "local-cluster-killer");
    Runtime.getRuntime().addShutdownHook(killer);
  }

  /**
   * The stores the nodes share.
   *
   * @param redisUrl {@code redis://...}
   * @param mongoUrl {@code mongodb://...}
   * @param database the MongoDB database
   */
  public record Stores(String redisUrl, String mongoUrl, String database) {
  }

  /**
   * Starts {@code count} nodes: the first alone, then the others, which join it; returns once every node answers
   * /health and the first has logged a cluster of {@code count} members. {@code overrides} are KITH_ variables set on
   * every node on top of these; {@code jvmOptions} are each node's JVM options. Stops what it started on failure.
   */
  public static LocalCluster start(Path dir, int count, Stores stores, Map<String, String> overrides,
                                   List<String> jvmOptions) throws Exception {
    Files.createDirectories(dir);
    List<Integer> clusterPorts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      clusterPorts.add(FreePorts.pick());
    }
    String members = clusterPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    String clusterName = "kith-" + UUID.randomUUID();
    List<KithNode> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = "node-" + (i + 1);
      Files.deleteIfExists(dir.resolve(name + ".log"));
      Map<String, String> env = new HashMap<>(Map.ofEntries(
          Map.entry("KITH_DATA_DIR", dir.resolve(name).toString()),
          Map.entry("KITH_MODULES", "all"),
          Map.entry("KITH_HTTP_PORT", Integer.toString(FreePorts.pick())),
          Map.entry("KITH_HTTP_INSTANCES", "1"),
          Map.entry("KITH_HTTP_ACCESS_LOG", "false"),
          Map.entry("KITH_REDIS_URL", stores.redisUrl()),
          Map.entry("KITH_MONGO_URL", stores.mongoUrl()),
          Map.entry("KITH_MONGO_DATABASE", stores.database()),
          Map.entry("KITH_CLUSTER_ENABLED", "true"),
          Map.entry("KITH_CLUSTER_NAME", clusterName),
          Map.entry("KITH_CLUSTER_HOST", "127.0.0.1"),
          Map.entry("KITH_CLUSTER_PORT", Integer.toString(clusterPorts.get(i))),
          Map.entry("KITH_CLUSTER_MEMBERS", members),
          Map.entry("KITH_CLUSTER_JOIN_WAIT_SECONDS", "3"),
          Map.entry("KITH_TOKENS_SECRET", "local-cluster-secret-local-cluster-secret-0123456789"),
          // the lowest password-hashing cost: the loads register hundreds of users (Kith warns about it)
          Map.entry("KITH_ACCOUNTS_ARGON2_MEMORY_KIB", "1024"),
          Map.entry("KITH_ACCOUNTS_ARGON2_ITERATIONS", "1"),
          // every user registers from 127.0.0.1
          Map.entry("KITH_ACCOUNTS_REGISTER_MAX_PER_ADDRESS", "100000"),
          Map.entry("KITH_MESSAGING_SENDS_PER_MINUTE", "100000")));
      env.putAll(overrides);
      int port = Integer.parseInt(env.get("KITH_HTTP_PORT"));
      nodes.add(new KithNode(name, port, dir.resolve(name + ".log"), env, jvmOptions));
    }
    LocalCluster cluster = new LocalCluster(nodes);
    try {
      cluster.launch();
      awaitLog(nodes.get(0), "Members {size:" + count, START_TIMEOUT);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * Starts every node (again, after they all stopped): the first alone (it forms the cluster after
   * cluster.join-wait-seconds), then the others, which join it.
   */
  public void launch() throws Exception {
    nodes.get(0).start();
    nodes.get(0).awaitHealthy(START_TIMEOUT);
    for (KithNode node : nodes.subList(1, nodes.size())) {
      node.start();
    }
    for (KithNode node : nodes.subList(1, nodes.size())) {
      node.awaitHealthy(START_TIMEOUT);
    }
  }

  /** Waits until {@code node}'s log contains {@code text}. */
  public static void awaitLog(KithNode node, String text, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.readString(node.log()).contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(node + " never logged '" + text + "':\n" + node.tail());
      }
      Thread.sleep(200);
    }
  }

  /** Node {@code index}, from 0. */
  public KithNode node(int index) {
    return nodes.get(index);
  }

  /** The nodes, in start order. */
  public List<KithNode> nodes() {
    return nodes;
  }

  /** Stops whatever still runs (SIGCONT, SIGTERM, then SIGKILL). */
  @Override
  public void close() {
    nodes.forEach(KithNode::stopQuietly);
    try {
      Runtime.getRuntime().removeShutdownHook(killer);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs or has run
    }
  }
}
