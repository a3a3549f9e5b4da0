package io.kith.platform.store;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.RedisNodes;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
class LuaScriptsTest {

  @Test
  @DisplayName("the digest is the one Redis gives (SCRIPT LOAD of 'return 1')")
  void digestLikeRedis() {
    assertEquals("e0e1f9fabfc9d4800c877a703b823ac0578ff8db", LuaScripts.sha1("return 1"));
    assertEquals("da39a3ee5e6b4b0d3255bfef95601890afd80709", LuaScripts.sha1(""));
  }

  @Test
  @DisplayName("a script runs whether or not Redis knows it, is cached by EVAL, and its own errors still fail")
  void runsByDigest(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      RedisAPI redis = platform.redisApi();
      String key = "test:lua:" + System.nanoTime();
      // unique text, so that no other test has loaded it
      LuaScripts.Script incr = new LuaScripts.Script(
          "-- " + key + "\nreturn redis.call('incrby', KEYS[1], ARGV[1])");
      assertEquals(0, Await.result(redis.script(List.of("EXISTS", incr.sha()))).get(0).toInteger(),
          "the script is new to Redis");

      assertEquals(5L, Await.result(incr.run(redis, List.of("1", key, "5"))).toLong());
      assertEquals(1, Await.result(RedisNodes.sendOnNodeOf(vertx, platform.redis(), key,
              Request.cmd(Command.SCRIPT).arg("EXISTS").arg(incr.sha()))).get(0).toInteger(),
          "the fallback EVAL cached the script (on the node of the key, on a cluster)");
      assertEquals(12L, Await.result(incr.run(redis, List.of("1", key, "7"))).toLong());

      LuaScripts.Script failing = new LuaScripts.Script("-- " + key + "\nreturn redis.call('incrby', KEYS[1], 'x')");
      Throwable e = assertThrows(Throwable.class, () -> Await.result(failing.run(redis, List.of("1", key))));
      assertTrue(e.getMessage() != null && !e.getMessage().contains("NOSCRIPT"), "the script's error: " + e);
      assertEquals("12", Await.result(redis.get(key)).toString(), "nothing ran twice");
    } finally {
      Await.result(platform.close());
    }
  }

  @Test
  @DisplayName("a script runs on the plain client and in a pipelined batch whether or not Redis knows it")
  void runsOnClientAndInBatch(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      String key = "test:lua:" + System.nanoTime();
      LuaScripts.Script incr = new LuaScripts.Script(
          "-- " + key + "\nreturn redis.call('incrby', KEYS[1], ARGV[1])");
      assertEquals(3L, Await.result(incr.run(platform.redis(), List.of(1, key, 3L))).toLong());

      LuaScripts.Script set = new LuaScripts.Script("-- batch " + key + "\nreturn redis.call('set', KEYS[1], ARGV[1])");
      List<Response> replies = Await.result(set.batch(platform.redis(),
          List.of(List.of(1, key + ":a", "x"), List.of(1, key + ":b", "y"))));
      assertEquals(2, replies.size());
      assertEquals(1, Await.result(RedisNodes.sendOnNodeOf(vertx, platform.redis(), key + ":b",
              Request.cmd(Command.SCRIPT).arg("EXISTS").arg(set.sha()))).get(0).toInteger(),
          "the batch sent again by text cached the script (on the node of the key, on a cluster)");
      assertEquals("y", Await.result(platform.redisApi().get(key + ":b")).toString());
    } finally {
      Await.result(platform.close());
    }
  }

  @Test
  @DisplayName("a script is loaded from the .lua resource beside its class, and a missing one fails at once")
  void loadsBesideItsClass() {
    LuaScripts.Script hit = LuaScripts.load(io.kith.platform.limit.RateLimiter.class, "hit.lua");
    assertTrue(hit.sha().matches("[0-9a-f]{40}"));
    assertThrows(IllegalStateException.class, () -> LuaScripts.load(LuaScripts.class, "no-such-script.lua"));
  }

  @Test
  @DisplayName("a batch of several scripts with a plain command between them runs each once more by text on NOSCRIPT")
  void mixedBatch(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      String key = "test:lua:" + System.nanoTime();
      LuaScripts.Script set = new LuaScripts.Script("-- set " + key + "\nreturn redis.call('set', KEYS[1], ARGV[1])");
      LuaScripts.Script get = new LuaScripts.Script("-- get " + key + "\nreturn redis.call('get', KEYS[1])");
      List<Response> replies = Await.result(LuaScripts.batch(platform.redis()::batch, List.of(
          new LuaScripts.Call(set, List.of(1, key, "v")),
          LuaScripts.Call.command(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.EXPIRE).arg(key)
              .arg(60)),
          new LuaScripts.Call(get, List.of(1, key)))));
      assertEquals(3, replies.size());
      assertEquals(1, replies.get(1).toInteger(), "the plain command ran after the first script");
      assertEquals("v", replies.get(2).toString());
      assertTrue(Await.result(platform.redisApi().ttl(key)).toLong() > 0);
    } finally {
      Await.result(platform.close());
    }
  }
}
