package io.kith.app;

import io.kith.platform.config.ConfigException;
import io.kith.platform.config.KithConfig;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Starting a node: embedded stores, data-directory lock, and the one-line refusals of starts that cannot work. */
@ExtendWith(KithTestKit.class)
class KithStartTest {

  private static String failureOf(Future<?> f) {
    return Await.failure(f).getMessage();
  }

  private static JsonObject embedded(Path dir) {
    return new JsonObject()
        .put("kith", new JsonObject().put("data-dir", dir.toString()).put("modules", new JsonArray().add("gateway")))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("redis", new JsonObject().put("url", ""))
        .put("mongo", new JsonObject().put("url", ""));
  }

  @Test
  @DisplayName("with no store URLs a node starts embedded Redis (append-only file on) and MongoDB under its data dir")
  void embeddedStores(@TempDir Path dir) throws Exception {
    Kith kith = Await.result(Kith.start(KithConfig.of(embedded(dir))));
    try {
      assertTrue(kith.httpPort() > 0);
      assertTrue(Files.isRegularFile(dir.resolve("kith.pid")), "pidfile written");
      assertTrue(Files.isRegularFile(dir.resolve("redis").resolve("redis.pid")), "redis pidfile written");
      assertTrue(Files.isRegularFile(dir.resolve("mongo").resolve("kith.mv")), "H2 file created");
      assertTrue(Files.list(dir.resolve("redis")).anyMatch(p -> p.getFileName().toString().startsWith("appendonly")),
          "append-only file on");
      Await.result(kith.platform().redisApi().set(java.util.List.of("kith:test:persist", "kept")));
    } finally {
      Await.result(kith.stop());
    }
    assertFalse(Files.exists(dir.resolve("kith.pid")), "pidfile removed on clean stop");
    Kith again = Await.result(Kith.start(KithConfig.of(embedded(dir))));
    try {
      assertEquals("kept", Await.result(again.platform().redisApi().get("kith:test:persist")).toString(),
          "Redis data survives a restart");
    } finally {
      Await.result(again.stop());
    }
  }

  @Test
  @DisplayName("a second node on the same data directory is refused with a line naming the directory")
  void dataDirLocked(@TempDir Path dir) throws Exception {
    Kith first = Await.result(Kith.start(KithConfig.of(embedded(dir))));
    try {
      String message = failureOf(Kith.start(KithConfig.of(embedded(dir))));
      assertTrue(message.contains("in use by another Kith"), message);
      assertTrue(message.contains("kith.data-dir"), message);
    } finally {
      Await.result(first.stop());
    }
  }

  @Test
  @DisplayName("a taken HTTP port is refused with a line saying how to choose another")
  void httpPortTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("0.0.0.0"))) {
      JsonObject overrides = new JsonObject()
          .put("kith", new JsonObject().put("modules", new JsonArray().add("gateway")))
          .put("http", new JsonObject().put("port", taken.getLocalPort()));
      String message = failureOf(Kith.start(KithTestKit.config(overrides)));
      assertTrue(message.contains("HTTP port " + taken.getLocalPort()), message);
      assertTrue(message.contains("KITH_HTTP_PORT"), message);
    }
  }

  @Test
  @DisplayName("an unreachable external Redis is refused with a line naming redis.url")
  void unreachableRedis() throws Exception {
    JsonObject overrides = new JsonObject()
        .put("redis", new JsonObject().put("url", "redis://127.0.0.1:" + FreePorts.pick()))
        .put("kith", new JsonObject().put("modules", new JsonArray().add("gateway")));
    String message = failureOf(Kith.start(KithTestKit.config(overrides)));
    assertTrue(message.contains("cannot reach Redis"), message);
    assertTrue(message.contains("KITH_REDIS_URL"), message);
  }

  @Test
  @DisplayName("an unreachable external MongoDB is refused with a line naming mongo.url")
  void unreachableMongo() throws Exception {
    JsonObject overrides = new JsonObject()
        .put("mongo", new JsonObject().put("url", "mongodb://127.0.0.1:" + FreePorts.pick())
            .put("server-selection-timeout-ms", 500))
        .put("kith", new JsonObject().put("modules", new JsonArray().add("gateway")));
    String message = failureOf(Kith.start(KithTestKit.config(overrides)));
    assertTrue(message.contains("cannot reach MongoDB"), message);
    assertTrue(message.contains("KITH_MONGO_URL"), message);
  }

  @Test
  @DisplayName("an unknown module name is refused and the known ones are listed")
  void unknownModule() {
    KithConfig config = KithTestKit.config(new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray().add("gateway").add("fedds"))));
    ConfigException e = assertThrows(ConfigException.class, () -> Kith.chooseModules(config));
    assertTrue(e.getMessage().contains("fedds"), e.getMessage());
    assertTrue(e.getMessage().contains("gateway"), e.getMessage());
  }

  @Test
  @DisplayName("a presence heartbeat too slow for the presence expiry is refused at start")
  void heartbeatMustBeatExpiry() {
    KithConfig config = KithTestKit.config(new JsonObject()
        .put("bridge", new JsonObject().put("presence-heartbeat-seconds", 40))
        .put("accounts", new JsonObject().put("presence-expiry-seconds", 60)));
    ConfigException e = assertThrows(ConfigException.class, () -> Kith.checkConsistency(config));
    assertTrue(e.getMessage().contains("presence-heartbeat-seconds"), e.getMessage());
    Kith.checkConsistency(KithTestKit.config(new JsonObject()));
  }

  @Test
  @DisplayName("a Redis mode other than standalone, cluster or sentinel, or cluster or sentinel mode without the "
      + "servers to ask, is refused at start")
  void redisModeChecked() {
    ConfigException e = assertThrows(ConfigException.class, () -> Kith.checkConsistency(KithTestKit.config(
        new JsonObject().put("redis", new JsonObject().put("mode", "replicated")))));
    assertTrue(e.getMessage().contains("redis.mode must be standalone, cluster or sentinel"), e.getMessage());
    e = assertThrows(ConfigException.class, () -> Kith.checkConsistency(KithTestKit.config(
        new JsonObject().put("redis", new JsonObject().put("mode", "sentinel").put("url", "")))));
    assertTrue(e.getMessage().contains("redis.mode sentinel needs redis.url"), e.getMessage());
    Kith.checkConsistency(KithTestKit.config(new JsonObject().put("redis", new JsonObject().put("mode", "sentinel")
        .put("url", "redis://127.0.0.1:26379").put("master-name", "kith"))));
    e = assertThrows(ConfigException.class, () -> Kith.checkConsistency(KithTestKit.config(
        new JsonObject().put("redis", new JsonObject().put("mode", "cluster").put("url", "")))));
    assertTrue(e.getMessage().contains("redis.mode cluster needs redis.url"), e.getMessage());
    Kith.checkConsistency(KithTestKit.config(new JsonObject().put("redis", new JsonObject().put("mode", "cluster")
        .put("url", "redis://127.0.0.1:7000,redis://127.0.0.1:7001"))));
  }

  @Test
  @DisplayName("a cluster member is evicted after cluster.member-timeout-seconds without heartbeats (one a second); "
      + "a timeout outside 3 to 600 s is refused, naming the key")
  void memberTimeout() {
    com.hazelcast.config.Config hz = Cluster.manager(KithTestKit.config(new JsonObject()).section("cluster"))
        .getConfig();
    assertEquals("10", hz.getProperty("hazelcast.max.no.heartbeat.seconds"));
    assertEquals("1", hz.getProperty("hazelcast.heartbeat.interval.seconds"));
    for (int wrong : new int[] {2, 601}) {
      KithConfig config = KithTestKit.config(new JsonObject()
          .put("cluster", new JsonObject().put("member-timeout-seconds", wrong)));
      ConfigException e = assertThrows(ConfigException.class, () -> Cluster.manager(config.section("cluster")));
      assertTrue(e.getMessage().contains("cluster.member-timeout-seconds"), e.getMessage());
    }
  }

  @Test
  @DisplayName("modules start in order: domain services before the gateway")
  void moduleOrder() {
    KithConfig config = KithTestKit.config(new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray().add("all"))));
    var names = Kith.chooseModules(config).stream().map(m -> m.name()).toList();
    assertEquals("gateway", names.get(names.size() - 1), names.toString());
    assertTrue(names.contains("echo"));
  }
}
