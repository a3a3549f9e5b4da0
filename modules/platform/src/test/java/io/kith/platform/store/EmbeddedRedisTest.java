package io.kith.platform.store;

import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
@Timeout(60)
class EmbeddedRedisTest {

  @TempDir
  Path dir;

  private static long pidIn(Path dir) throws Exception {
    return Long.parseLong(Files.readString(dir.resolve("redis.pid"), StandardCharsets.US_ASCII).trim());
  }

  private static String ping(Vertx vertx, EmbeddedRedis server) {
    Redis client = Stores.redis(vertx, server.url(), new JsonObject());
    try {
      return Await.result(RedisAPI.api(client).ping(List.of())).toString();
    } finally {
      client.close();
    }
  }

  @Test
  @DisplayName("starting Redis on a data directory stops the redis-server a killed run left running there")
  void leftoverServerStopped(Vertx vertx) throws Exception {
    EmbeddedRedis leftover = EmbeddedRedis.start(dir, 0, false);
    EmbeddedRedis fresh = null;
    try {
      long leftoverPid = pidIn(dir);
      assertTrue(ProcessHandle.of(leftoverPid).map(ProcessHandle::isAlive).orElse(false));
      assertEquals("PONG", ping(vertx, leftover));

      // the JVM that started it is gone (simulated: its handle is simply not used again)
      fresh = EmbeddedRedis.start(dir, 0, false);

      assertFalse(ProcessHandle.of(leftoverPid).map(ProcessHandle::isAlive).orElse(false),
          "the leftover redis-server is still running");
      assertEquals("PONG", ping(vertx, fresh));
      assertNotEquals(leftoverPid, pidIn(dir));
    } finally {
      if (fresh != null) {
        fresh.close();
      }
      leftover.close();
    }
  }

  @Test
  @DisplayName("a pidfile naming a process that is not redis-server leaves that process alone")
  void foreignProcessSpared() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "120").start();
    try {
      Files.writeString(dir.resolve("redis.pid"), Long.toString(sleeper.pid()) + "\n");

      EmbeddedRedis.stopLeftover(dir);

      assertTrue(sleeper.isAlive(), "a process that is not redis-server was stopped");
      assertFalse(Files.exists(dir.resolve("redis.pid")), "the stale pidfile was removed");
    } finally {
      sleeper.destroy();
      sleeper.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("an unreadable pidfile is ignored and Redis starts")
  void garbagePidfileIgnored(Vertx vertx) throws Exception {
    Files.writeString(dir.resolve("redis.pid"), "not a pid");

    try (EmbeddedRedis server = EmbeddedRedis.start(dir, 0, false)) {
      assertEquals("PONG", ping(vertx, server));
    }
  }

  @Test
  @DisplayName("a port already in use is refused with a message naming the setting to change")
  void portInUseRefused() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      StoreStartException e = assertThrows(StoreStartException.class,
          () -> EmbeddedRedis.start(null, taken.getLocalPort(), false));

      assertTrue(e.getMessage().contains("KITH_REDIS_EMBEDDED_PORT"), e.getMessage());
      assertTrue(e.getMessage().contains(Integer.toString(taken.getLocalPort())), e.getMessage());
    }
  }
}
