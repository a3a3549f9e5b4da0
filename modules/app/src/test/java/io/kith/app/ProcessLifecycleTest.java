package io.kith.app;

import io.kith.platform.config.KithConfig;
import io.kith.platform.store.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real {@code Main} in a child JVM: it serves /health on embedded stores, shuts down cleanly and quietly on
 * SIGTERM, keeps every acknowledged write and leaves nothing behind that blocks the next start after SIGKILL, and
 * refuses a start that cannot work (a misspelt configuration key included) with one line and exit status 1.
 */
class ProcessLifecycleTest {

  private static Process launch(Path dataDir, int httpPort, Path log, String... args) throws IOException {
    return launch(dataDir, httpPort, log, Map.of(), args);
  }

  // env: variables added to (or replacing) the defaults below, such as KITH_MODULES=all for the domains' consumers
  private static Process launch(Path dataDir, int httpPort, Path log, Map<String, String> extraEnv, String... args)
      throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("KITH_"));
    env.put("KITH_DATA_DIR", dataDir.toString());
    env.put("KITH_HTTP_PORT", Integer.toString(httpPort));
    env.put("KITH_HTTP_INSTANCES", "1");
    env.put("KITH_BRIDGE_TCP_PORT", "0");
    env.put("KITH_MODULES", "gateway");
    env.putAll(extraEnv);
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    return pb.start();
  }

  private static boolean healthy(int port) {
    try {
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
              .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 && r.body().contains("\"UP\"");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  // Stops a child still running (a failed test) with SIGTERM first, so that it stops its embedded Redis.
  private static void stop(Process child) throws InterruptedException {
    if (child.isAlive()) {
      child.destroy();
      if (!child.waitFor(120, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  private static String get(int port, String path) throws IOException, InterruptedException {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  private static void awaitHealthy(Process p, int port, Path log) throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    while (!healthy(port)) {
      if (!p.isAlive()) {
        throw new AssertionError("Kith exited early:\n" + Files.readString(log));
      }
      if (System.currentTimeMillis() > deadline) {
        p.destroyForcibly();
        throw new AssertionError("Kith did not become healthy:\n" + Files.readString(log));
      }
      Thread.sleep(100);
    }
  }

  private static long redisPid(Path dataDir) throws IOException {
    return Long.parseLong(Files.readString(dataDir.resolve("redis").resolve("redis.pid"), StandardCharsets.US_ASCII)
        .trim());
  }

  @Test
  @DisplayName("SIGTERM drains and stops everything: exit, embedded Redis gone, pidfile removed")
  void sigtermShutsDownCleanly(@TempDir Path dir) throws Exception {
    int port = FreePorts.pick();
    Path log = dir.resolve("kith.log");
    Process kith = launch(dir.resolve("data"), port, log);
    awaitHealthy(kith, port, log);
    long redis = redisPid(dir.resolve("data"));
    assertTrue(ProcessHandle.of(redis).map(ProcessHandle::isAlive).orElse(false), "embedded redis runs");

    kith.destroy(); // SIGTERM
    assertTrue(kith.waitFor(60, TimeUnit.SECONDS), "exits after SIGTERM");
    assertFalse(ProcessHandle.of(redis).map(ProcessHandle::isAlive).orElse(false), "embedded redis stopped");
    assertFalse(Files.exists(dir.resolve("data").resolve("kith.pid")), "pidfile removed");
    String output = Files.readString(log);
    assertTrue(output.contains("Stopped"), output);
  }

  @Test
  @DisplayName("a node running every module starts without embedded-store warnings and stops by itself with no WARN or ERROR line")
  void cleanStopIsQuiet(@TempDir Path dir) throws Exception {
    int port = FreePorts.pick();
    Path log = dir.resolve("kith.log");
    // a grace far longer than the wait below: a stop that sat out the grace would fail, whatever the machine's speed
    Process kith = launch(dir.resolve("data"), port, log,
        Map.of("KITH_MODULES", "all", "KITH_SHUTDOWN_GRACE_SECONDS", "3600"));
    try {
      awaitHealthy(kith, port, log);
      assertTrue(get(port, "/ready").contains("\"UP\""), "ready: Redis and MongoDB answer");
      // a connection a stop must not wait for: an idle keep-alive HTTP connection
      HttpClient client = HttpClient.newHttpClient();
      client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/ping")).build(),
          HttpResponse.BodyHandlers.ofString());

      kith.destroy(); // SIGTERM
      assertTrue(kith.waitFor(300, TimeUnit.SECONDS), "exits after SIGTERM by itself, without waiting out the grace");
    } finally {
      stop(kith);
    }
    String output = Files.readString(log);
    assertTrue(output.contains("Stopped"), output);
    List<String> lines = List.of(output.split("\n"));
    // the embedded MongoDB says once which indexes it does not build, and warns about nothing
    assertEquals(1, lines.stream().filter(l -> l.contains("does not build the")).count(), output);
    assertEquals(List.of(), lines.stream().filter(l -> l.contains(" d.b.m.")
        && (l.contains(" WARN ") || l.contains(" ERROR "))).toList(), output);
    int shutdown = lines.indexOf(lines.stream().filter(l -> l.contains("Shutting down")).findFirst().orElseThrow());
    List<String> noisy = lines.subList(shutdown, lines.size()).stream()
        .filter(l -> l.contains(" WARN ") || l.contains(" ERROR ") || l.startsWith("\tat ")).toList();
    assertEquals(List.of(), noisy, output);
  }

  @Test
  @DisplayName("writes the embedded MongoDB acknowledged survive kill -9 mid-write, and a counter never hands out a value twice")
  void acknowledgedWritesSurviveSigkill(@TempDir Path dir) throws Exception {
    int port = FreePorts.pick();
    int mongoPort = FreePorts.pick();
    Path data = dir.resolve("data");
    Path log = dir.resolve("kith.log");
    Map<String, String> env = Map.of("KITH_MONGO_EMBEDDED_PORT", Integer.toString(mongoPort));
    Process kith = launch(data, port, log, env);
    awaitHealthy(kith, port, log);

    Vertx vertx = Vertx.vertx();
    Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicLong highestSeq = new AtomicLong();
    AtomicBoolean writing = new AtomicBoolean(true);
    try {
      MongoClient mongo = MongoClient.create(vertx, new JsonObject()
          .put("connection_string", "mongodb://127.0.0.1:" + mongoPort).put("db_name", "durability")
          .put("serverSelectionTimeoutMS", 2000));
      // one write at a time, as a service does: a record, then the next value of a counter (messaging's sequence
      // numbers are such a counter: findOneAndUpdate with $inc)
      Thread writer = new Thread(() -> {
        for (int i = 1; writing.get(); i++) {
          try {
            await(mongo.insert("records", new JsonObject().put("_id", i)));
            acknowledged.add(i);
            JsonObject counter = await(mongo.findOneAndUpdateWithOptions("counters",
                new JsonObject().put("_id", "seq"), new JsonObject().put("$inc", new JsonObject().put("n", 1L)),
                new FindOptions(), new UpdateOptions().setUpsert(true).setReturningNewDocument(true)));
            highestSeq.accumulateAndGet(counter.getLong("n"), Math::max);
          } catch (Exception e) {
            return; // the server is gone
          }
        }
      }, "durability-writer");
      writer.start();
      long deadline = System.currentTimeMillis() + 120_000;
      while (acknowledged.size() < 200 && writer.isAlive() && System.currentTimeMillis() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(acknowledged.size() >= 200, "the writer got going: " + acknowledged.size());

      kith.destroyForcibly(); // SIGKILL while the writer is writing
      assertTrue(kith.waitFor(30, TimeUnit.SECONDS));
      writing.set(false);
      writer.join(120_000);
      assertFalse(writer.isAlive(), "the writer stopped");
      mongo.close();
    } finally {
      writing.set(false);
      stop(kith);
    }

    Process again = launch(data, port, log, env);
    try {
      awaitHealthy(again, port, log);
      MongoClient mongo = MongoClient.create(vertx, new JsonObject()
          .put("connection_string", "mongodb://127.0.0.1:" + mongoPort).put("db_name", "durability"));
      JsonArray ids = new JsonArray(List.copyOf(acknowledged));
      long present = await(mongo.count("records", new JsonObject().put("_id", new JsonObject().put("$in", ids))));
      assertEquals(acknowledged.size(), present, "every acknowledged record is there after kill -9");
      JsonObject next = await(mongo.findOneAndUpdateWithOptions("counters", new JsonObject().put("_id", "seq"),
          new JsonObject().put("$inc", new JsonObject().put("n", 1L)), new FindOptions(),
          new UpdateOptions().setReturningNewDocument(true)));
      assertTrue(next.getLong("n") > highestSeq.get(),
          "the counter goes on after " + highestSeq.get() + ", not back: " + next.getLong("n"));
      mongo.close();
    } finally {
      stop(again);
      vertx.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("after SIGKILL the orphaned embedded Redis is stopped by the next start, which then succeeds")
  void sigkillLeftoversAreCleanedUp(@TempDir Path dir) throws Exception {
    int port = FreePorts.pick();
    Path data = dir.resolve("data");
    Path log = dir.resolve("kith.log");
    Process kith = launch(data, port, log);
    awaitHealthy(kith, port, log);
    long orphan = redisPid(data);
    kith.destroyForcibly(); // SIGKILL: no shutdown hook runs
    assertTrue(kith.waitFor(30, TimeUnit.SECONDS));
    assertTrue(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false),
        "the killed JVM could not stop its redis-server child");

    JsonObject config = new JsonObject()
        .put("kith", new JsonObject().put("data-dir", data.toString()).put("modules", new JsonArray().add("gateway")))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0));
    Kith again = Kith.start(KithConfig.of(config)).toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    try {
      ProcessHandle.of(orphan).ifPresent(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join());
      assertFalse(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false), "orphan stopped");
      assertTrue(again.httpPort() > 0);
    } finally {
      again.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("a configuration file with a misspelt key exits with status 1 before any store starts, naming key and file")
  void unknownConfigurationKeyExitsNonZero(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("prod.yaml");
    Files.writeString(file, "redis:\n  ulr: redis://redis.internal:6379\n");
    Path log = dir.resolve("kith.log");
    Process kith = launch(dir.resolve("data"), FreePorts.pick(), log, file.toString());
    assertTrue(kith.waitFor(90, TimeUnit.SECONDS), "exits");
    assertEquals(1, kith.exitValue());
    List<String> lines = Files.readAllLines(log);
    String last = lines.get(lines.size() - 1);
    assertTrue(last.startsWith("kith: cannot start: unknown configuration key 'redis.ulr' in " + file), last);
    assertFalse(Files.exists(dir.resolve("data").resolve("redis")), "no embedded store was started");
  }

  @Test
  @DisplayName("a start that cannot succeed exits with status 1 and one line saying what to fix")
  void failedStartExitsNonZero(@TempDir Path dir) throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
      Path log = dir.resolve("kith.log");
      Process kith = launch(dir.resolve("data"), taken.getLocalPort(), log);
      assertTrue(kith.waitFor(90, TimeUnit.SECONDS), "exits");
      assertEquals(1, kith.exitValue());
      List<String> lines = Files.readAllLines(log);
      String last = lines.get(lines.size() - 1);
      assertTrue(last.startsWith("kith: cannot start: HTTP port " + taken.getLocalPort()), last);
      assertFalse(Files.readString(log).contains("\tat "), "no stack trace");
    }
  }
}
