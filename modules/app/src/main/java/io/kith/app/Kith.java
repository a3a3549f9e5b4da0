package io.kith.app;

import io.kith.app.log.LogFormat;
import io.kith.gateway.GatewayVerticle;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.kith.platform.bus.NodeRollCall;
import io.kith.platform.config.ConfigException;
import io.kith.platform.config.KithConfig;
import io.kith.platform.metrics.KithMetrics;
import io.kith.platform.metrics.MeterBounds;
import io.kith.platform.store.EmbeddedMongo;
import io.kith.platform.store.EmbeddedRedis;
import io.kith.platform.store.StoreStartException;
import io.kith.platform.store.Stores;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A running Kith node: configuration, then stores (embedded when no URL is given), then Vert.x (clustered when
 * {@code cluster.enabled}), then the platform, then the modules chosen by {@code kith.modules} in start order.
 * {@link #stop()} undoes it all in reverse.
 */
public final class Kith {

  private static final Logger LOG = LoggerFactory.getLogger(Kith.class);

  private final KithConfig config;
  private final boolean stoppedByCaller;
  private DataDir dataDir;
  private EmbeddedRedis embeddedRedis;
  private EmbeddedMongo embeddedMongo;
  private Vertx vertx;
  private Platform platform;
  private HazelcastClusterManager clusterManager;
  private MessageConsumer<JsonObject> rollCall;
  private final KithMetrics metrics = new KithMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  private final List<String> deployments = new ArrayList<>();
  private final List<String> modules = new ArrayList<>();
  private boolean stopped;

  private Kith(KithConfig config, boolean stoppedByCaller) {
    this.config = config;
    this.stoppedByCaller = stoppedByCaller;
  }

  /**
   * Starts a node. On failure everything started so far is stopped and the future fails with a one-line message
   * saying what to fix. An embedded Redis is also stopped when the JVM exits without {@link #stop()}.
   */
  public static Future<Kith> start(KithConfig config) {
    return start(config, false);
  }

  /**
   * Starts a node whose {@link #stop()} the caller runs on JVM exit ({@code Main}'s shutdown hook): the embedded Redis
   * then has no shutdown hook of its own, which would stop it concurrently, before the consumers that read from it.
   */
  static Future<Kith> start(KithConfig config, boolean stoppedByCaller) {
    Kith kith = new Kith(config, stoppedByCaller);
    try {
      LogFormat.apply(config);
      checkConsistency(config);
      kith.startStores();
      kith.checkHttpPort();
      List<KithModule> chosen = chooseModules(config);
      return kith.startVertx()
          .compose(v -> kith.startPlatform())
          .compose(v -> kith.deploy(chosen))
          .compose(v -> kith.answerRollCalls())
          .map(v -> {
            kith.announce();
            return kith;
          })
          .recover(e -> kith.stop().transform(x -> Future.failedFuture(e)));
    } catch (RuntimeException e) {
      return kith.stop().transform(x -> Future.failedFuture(e));
    }
  }

  /** Settings of different sections that only work together. */
  static void checkConsistency(KithConfig config) {
    try {
      String mode = Stores.mode(config.section("redis"));
      if (Stores.CLUSTER.equals(mode) && config.getString("redis.url", "").isBlank()) {
        throw new ConfigException("redis.mode cluster needs redis.url (KITH_REDIS_URL): the seed nodes, "
            + "comma-separated (redis://10.0.0.1:6379,redis://10.0.0.2:6379); there is no embedded Redis Cluster");
      }
      if (Stores.SENTINEL.equals(mode) && config.getString("redis.url", "").isBlank()) {
        throw new ConfigException("redis.mode sentinel needs redis.url (KITH_REDIS_URL): the sentinels, "
            + "comma-separated (redis://10.0.0.1:26379,redis://10.0.0.2:26379), and redis.master-name");
      }
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
    Object heartbeat = config.get("bridge.presence-heartbeat-seconds");
    Object expiry = config.get("accounts.presence-expiry-seconds");
    if (heartbeat instanceof Number && expiry instanceof Number
        && ((Number) heartbeat).doubleValue() * 2 > ((Number) expiry).doubleValue()) {
      throw new ConfigException("bridge.presence-heartbeat-seconds (" + heartbeat + ") must be at most half of "
          + "accounts.presence-expiry-seconds (" + expiry + "), or connections lapse between heartbeats");
    }
  }

  private void startStores() {
    String redisUrl = config.getString("redis.url", "");
    String mongoUrl = config.getString("mongo.url", "");
    if (!redisUrl.isEmpty() && !mongoUrl.isEmpty()) {
      return;
    }
    Path dir = Path.of(config.getString("kith.data-dir", "./data"));
    dataDir = DataDir.acquire(dir);
    if (redisUrl.isEmpty()) {
      embeddedRedis = EmbeddedRedis.start(dir.resolve("redis"), intAt("redis.embedded-port"), false,
          !stoppedByCaller);
    }
    if (mongoUrl.isEmpty()) {
      embeddedMongo = EmbeddedMongo.startH2(dir.resolve("mongo"), intAt("mongo.embedded-port"));
    }
    LOG.warn("Using embedded stores under {}: for development only. Set KITH_REDIS_URL and KITH_MONGO_URL "
        + "for production.", dir.toAbsolutePath().normalize());
  }

  private int intAt(String path) {
    Object v = config.get(path);
    return v instanceof Number ? ((Number) v).intValue() : 0;
  }

  private void checkHttpPort() {
    if (!runs("gateway", config)) {
      return;
    }
    int port = intAt("http.port");
    String host = config.getString("http.host", "0.0.0.0");
    if (port <= 0) {
      return;
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(InetAddress.getByName(host), port));
    } catch (IOException e) {
      throw new StoreStartException("HTTP port " + port + " on " + host + " is in use: stop what holds it or set "
          + "http.port (KITH_HTTP_PORT)");
    }
  }

  private Future<Void> startVertx() {
    // fixed buckets and capped tag values (MeterBounds), no quantile histograms: /metrics stays small whatever the
    // traffic. A registry of this node's own (by name too), so that nodes sharing a JVM (tests) keep their meters apart.
    MeterBounds.apply(metrics.registry());
    VertxOptions options = new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions()
        .setEnabled(true)
        .setRegistryName("kith-" + UUID.randomUUID())
        .setJvmMetricsEnabled(true)
        .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.HTTP_ROUTE,
            // no EB_ADDRESS: user and room addresses would make one series per user
            Label.EB_FAILURE, Label.POOL_TYPE, Label.POOL_NAME))
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true).setPublishQuantiles(false)));
    VertxBuilder builder = Vertx.builder().withMetrics(new MicrometerMetricsFactory(metrics.registry()));
    JsonObject cluster = config.section("cluster");
    if (!cluster.getBoolean("enabled", false)) {
      vertx = builder.with(options).build();
      return Future.succeededFuture();
    }
    String host = cluster.getString("host", "127.0.0.1");
    ClusterBus bus = ClusterBus.of(cluster);
    bus.apply(options.getEventBusOptions());
    HazelcastClusterManager manager = Cluster.manager(cluster);
    clusterManager = manager;
    LOG.info("Joining cluster '{}' as {}:{} (members {}), event bus on {}:{} ({})", cluster.getString("name"), host,
        cluster.getInteger("port"), cluster.getJsonArray("members"), bus.host(), bus.port(),
        bus.tls() != null ? "TLS with client certificates" : "clear text");
    return builder.with(options).withClusterManager(manager).buildClustered()
        .recover(e -> Future.failedFuture(new StoreStartException("cannot join the cluster on " + host + ":"
            + cluster.getInteger("port") + " (" + e.getMessage() + "): check cluster.host, cluster.port, "
            + "cluster.members, cluster.bus-* and cluster.tls.* (KITH_CLUSTER_*)")))
        .map(v -> {
          vertx = v;
          return null;
        });
  }

  private Future<Void> startPlatform() {
    String redisUrl = embeddedRedis != null ? embeddedRedis.url() : config.getString("redis.url", "");
    String mongoUrl = embeddedMongo != null ? embeddedMongo.url() : config.getString("mongo.url", "");
    return Platform.start(vertx, config, redisUrl, mongoUrl, metrics).map(p -> {
      platform = p;
      if (clusterManager != null) {
        HazelcastClusterManager manager = clusterManager;
        int minMembers = config.section("cluster").getInteger("min-members", 1);
        p.addReadinessCheck("cluster", () -> Cluster.readiness(manager, minMembers));
        Cluster.watch(manager, p.membership());
      }
      return null;
    });
  }

  private Future<Void> deploy(List<KithModule> chosen) {
    Future<Void> chain = Future.succeededFuture();
    for (KithModule module : chosen) {
      chain = chain.compose(v -> module.deploy(platform)
          .recover(e -> Future.failedFuture(new IllegalStateException(
              "module " + module.name() + " failed to start: " + e.getMessage(), e)))
          .map(id -> {
            deployments.add(id);
            modules.add(module.name());
            return null;
          }));
    }
    return chain;
  }

  /** Answers the operators' roll call (the console's cluster view) once every module is up. */
  private Future<Void> answerRollCalls() {
    rollCall = NodeRollCall.answer(platform, this::modules);
    return rollCall.completion();
  }

  private void announce() {
    String stores = (embeddedRedis != null ? embeddedRedis.binary() + " at " + embeddedRedis.url()
        : "Redis at " + Platform.redact(config.getString("redis.url", ""))) + ", "
        + (embeddedMongo != null ? "embedded MongoDB-wire (H2) at " + embeddedMongo.url()
        : "MongoDB at " + Platform.redact(config.getString("mongo.url", "")));
    LOG.info("Kith is up: modules {} on {} ({})", modules, vertx.isClustered() ? "a cluster node" : "one node",
        stores);
    if (embeddedMongo != null && !embeddedMongo.ignoredIndexes().isEmpty()) {
      List<String> indexes = embeddedMongo.ignoredIndexes();
      Set<String> collections = indexes.stream().map(i -> i.substring(0, i.lastIndexOf('.')))
          .collect(Collectors.toCollection(TreeSet::new));
      LOG.info("The embedded MongoDB-wire server does not build the {} non-unique indexes declared (queries on {} "
          + "scan their collection); unique indexes are enforced", indexes.size(), String.join(", ", collections));
    }
    if (modules.contains("gateway")) {
      String base = "http://localhost:" + httpPort();
      LOG.info("Try: {}/health  {}/ready  {}/api/v1/ping  {}/api/v1/openapi.yaml  {}/metrics  (bridge: {}/eventbus{})",
          base, base, base, base, base, base, tcpBridgePort() > 0 ? ", tcp " + tcpBridgePort() : "");
    }
  }

  static boolean runs(String module, KithConfig config) {
    Set<String> wanted = wanted(config);
    return wanted.contains("all") || wanted.contains(module);
  }

  private static Set<String> wanted(KithConfig config) {
    Object v = config.get("kith.modules");
    Set<String> wanted = new TreeSet<>();
    if (v instanceof JsonArray) {
      ((JsonArray) v).forEach(m -> wanted.add(String.valueOf(m).trim().toLowerCase(java.util.Locale.ROOT)));
    } else if (v != null) {
      for (String m : v.toString().split(",")) {
        wanted.add(m.trim().toLowerCase(java.util.Locale.ROOT));
      }
    }
    wanted.remove("");
    if (wanted.isEmpty()) {
      wanted.add("all");
    }
    return wanted;
  }

  static List<KithModule> chooseModules(KithConfig config) {
    List<KithModule> available = new ArrayList<>();
    ServiceLoader.load(KithModule.class).forEach(available::add);
    Set<String> known = available.stream().map(KithModule::name).collect(Collectors.toCollection(TreeSet::new));
    Set<String> wanted = wanted(config);
    for (String w : wanted) {
      if (!w.equals("all") && !known.contains(w)) {
        throw new ConfigException("kith.modules names an unknown module '" + w + "'; known: all, "
            + String.join(", ", known));
      }
    }
    return available.stream()
        .filter(m -> wanted.contains("all") || wanted.contains(m.name()))
        .sorted(Comparator.comparingInt(KithModule::order).thenComparing(KithModule::name))
        .toList();
  }

  /** The Hazelcast cluster manager (null when not clustered), for tests that check what the member bound. */
  HazelcastClusterManager clusterManager() {
    return clusterManager;
  }

  /** The HTTP port the gateway listens on (0 when this node runs no gateway). */
  public int httpPort() {
    Object port = vertx == null ? null : vertx.sharedData().getLocalMap(GatewayVerticle.PORTS_MAP).get("http");
    return port instanceof Integer ? (Integer) port : 0;
  }

  /** The TCP bridge port (0 when off or no gateway). */
  public int tcpBridgePort() {
    Object port = vertx == null ? null : vertx.sharedData().getLocalMap(GatewayVerticle.PORTS_MAP).get("tcp");
    return port instanceof Integer ? (Integer) port : 0;
  }

  /** The node's platform. */
  public Platform platform() {
    return platform;
  }

  /** The node's Vert.x instance. */
  public Vertx vertx() {
    return vertx;
  }

  /** The names of the modules this node runs. */
  public List<String> modules() {
    return List.copyOf(modules);
  }

  private Future<Void> undeployRest() {
    List<Future<Void>> rest = new ArrayList<>();
    for (String id : Set.copyOf(vertx.deploymentIDs())) {
      rest.add(vertx.undeploy(id).otherwiseEmpty());
    }
    return Future.join(rest).mapEmpty();
  }

  /**
   * Stops the node: modules in reverse start order (the gateway drains in-flight HTTP requests first, each domain
   * stops its consumers and timers), any verticle still deployed, the platform (store clients), Vert.x (leaving the
   * cluster), then the embedded stores. Safe to call twice.
   */
  public synchronized Future<Void> stop() {
    if (stopped) {
      return Future.succeededFuture();
    }
    stopped = true;
    Future<Void> chain = Future.succeededFuture();
    if (rollCall != null) {
      // chained on a future of no context: the rest of the chain must not run on an event loop closed by its end
      MessageConsumer<JsonObject> answering = rollCall;
      chain = chain.eventually(answering::unregister);
    }
    if (vertx != null) {
      for (int i = deployments.size() - 1; i >= 0; i--) {
        String id = deployments.get(i);
        chain = chain.eventually(() -> vertx.undeploy(id));
      }
      // A module may deploy more verticles than the one id it answers (feeds deploys two): whatever is still
      // deployed stops here too, so that no consumer or timer outlives the store clients closed next.
      chain = chain.eventually(this::undeployRest);
      if (platform != null) {
        chain = chain.eventually(platform::close);
      }
      chain = chain.eventually(vertx::close);
    }
    return chain.eventually(() -> {
      if (embeddedMongo != null) {
        embeddedMongo.close();
      }
      if (embeddedRedis != null) {
        embeddedRedis.close();
      }
      if (dataDir != null) {
        dataDir.close();
      }
      return Future.succeededFuture();
    }).otherwiseEmpty();
  }
}
