package io.kith.app;

import io.kith.app.support.MessageLoad;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.store.Stores;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.RedisNodes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Kith on {@code redis.mode: sentinel}: a master, its replica and one sentinel (quorum 1), real redis-server
 * processes of this test's own, so that crashing the master leaves the other tests' Redis alone.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Redis Sentinel mode and failover")
class RedisSentinelTest {

  private static final Duration FAILOVER = Duration.ofSeconds(90);
  private static final String MASTER_NAME = "kith-test";

  private final List<Process> servers = new ArrayList<>();
  private Path dir;
  private int master;
  private int replica;
  private int sentinel;
  private TestKith kith;

  @BeforeAll
  void start() throws Exception {
    assumeTrue(onPath("redis-server"), "needs redis-server on PATH (.ci/run installs it)");
    dir = Files.createTempDirectory("kith-sentinel");
    master = freePort();
    replica = freePort();
    sentinel = freePort();
    servers.add(redis("master", "--port", Integer.toString(master)));
    servers.add(redis("replica", "--port", Integer.toString(replica), "--replicaof", "127.0.0.1",
        Integer.toString(master)));
    Path conf = dir.resolve("sentinel.conf");
    Files.writeString(conf, String.join("\n",
        "port " + sentinel, "bind 127.0.0.1", "dir " + dir,
        "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master + " 1",
        "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
        "sentinel failover-timeout " + MASTER_NAME + " 5000", ""));
    servers.add(new ProcessBuilder("redis-server", conf.toString(), "--sentinel")
        .redirectErrorStream(true).redirectOutput(dir.resolve("sentinel.log").toFile()).start());
    kith = new TestKith(TestKith.config("accounts", "relations", "messaging", "gateway")
        .put("redis", new JsonObject().put("mode", Stores.SENTINEL).put("url", "redis://127.0.0.1:" + sentinel)
            .put("master-name", MASTER_NAME).put("command-timeout-ms", 2_000))
        .put("messaging", new JsonObject().put("sends-per-minute", 1_000_000)), "s") {
    };
    // the replica in sync, and known to the sentinel, before anything is crashed
    Await.result(Poll.until(kith.client(), FAILOVER, "the replica in sync and seen by the sentinel",
        () -> info(replica, "replication").map(i -> i.contains("master_link_status:up"))
            .compose(up -> !up ? Future.succeededFuture(false)
                : sentinelSays(Request.cmd(Command.SENTINEL).arg("REPLICAS").arg(MASTER_NAME))
                    .map(r -> r.size() == 1))
            .otherwise(false)));
  }

  @AfterAll
  void stop() throws Exception {
    if (kith != null) {
      kith.close();
    }
    for (Process p : servers) {
      p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("the master crashes while messages are sent: the sentinel promotes the replica, Kith finds it, sends "
      + "that fail are coded 503s, and every acknowledged message is in the history")
  void masterCrashesMidLoad() throws Exception {
    User alice = kith.register();
    User bob = kith.register();
    long conversation = kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject().put("text", "first")
        .put("client_id", UUID.randomUUID().toString())).expect(201).getJsonObject("message").getLong("conversation");
    assertEquals(Integer.toString(master), masterPort(), "the sentinel names the first master");

    MessageLoad load = new MessageLoad(kith, alice, bob, FAILOVER).start();
    try {
      load.awaitAcknowledged(20);
      // DEBUG SEGFAULT: the server dies at once, as in a crash; its reply never comes
      RedisNodes.sendTo(kith.client(), "127.0.0.1:" + master, Request.cmd(Command.DEBUG).arg("SEGFAULT"));
      Await.result(Poll.until(kith.client(), FAILOVER, "the sentinel to promote the replica",
          () -> sentinelSays(Request.cmd(Command.SENTINEL).arg("GET-MASTER-ADDR-BY-NAME").arg(MASTER_NAME))
              .map(r -> r.get(1).toString().equals(Integer.toString(replica))).otherwise(false)));
      load.awaitAcknowledged(load.acknowledged.size() + 20);
    } finally {
      load.stop();
    }
    load.assertAllInHistory(conversation);
    assertNotEquals(Integer.toString(master), masterPort());
    // what Kith wrote after the failover is on the promoted replica
    Response keys = Await.result(RedisNodes.sendTo(kith.client(), "127.0.0.1:" + replica,
        Request.cmd(Command.DBSIZE)));
    assertNotEquals(0L, keys.toLong());
  }

  private String masterPort() {
    return Await.result(sentinelSays(Request.cmd(Command.SENTINEL).arg("GET-MASTER-ADDR-BY-NAME").arg(MASTER_NAME)))
        .get(1).toString();
  }

  private Future<Response> sentinelSays(Request request) {
    return RedisNodes.sendTo(kith.client(), "127.0.0.1:" + sentinel, request);
  }

  private Future<String> info(int port, String section) {
    return RedisNodes.sendTo(kith.client(), "127.0.0.1:" + port, Request.cmd(Command.INFO).arg(section))
        .map(Response::toString);
  }

  private Process redis(String name, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--dir", dir.toString()));
    if (redisMajor() >= 7) {
      command.addAll(List.of("--enable-debug-command", "local"));
    }
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile()).start();
  }

  private static int redisMajor() throws IOException {
    try {
      Process p = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      p.waitFor(10, TimeUnit.SECONDS);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("v=(\\d+)\\.").matcher(out);
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static boolean onPath(String binary) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String d : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, binary))) {
        return true;
      }
    }
    return false;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
