package io.kith.platform.store;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pipelined batches whose keys span hash slots, as a fan-out sends them: on a single Redis one pipeline, on a Redis
 * Cluster ({@code KITH_TEST_REDIS_CLUSTER}) split per slot by {@link SlotBatchedRedis}; the answers must not differ.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Redis batches across hash slots")
class SlotBatchedRedisTest {

  @Test
  @DisplayName("a batch over hundreds of users' keys answers every command in order, commands of one key in order")
  void answersInOrder(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      String run = "test:slots:" + System.nanoTime();
      List<Request> commands = new ArrayList<>();
      // more slots than one wave of parts, each key written, incremented and read in the same batch
      for (int i = 0; i < 600; i++) {
        commands.add(Request.cmd(Command.SET).arg(run + ":{u:" + i + "}").arg(i));
      }
      for (int i = 0; i < 600; i++) {
        commands.add(Request.cmd(Command.INCR).arg(run + ":{u:" + i + "}"));
        commands.add(Request.cmd(Command.GET).arg(run + ":{u:" + i + "}"));
      }
      commands.add(Request.cmd(Command.PING));

      List<Response> replies = Await.result(platform.redis().batch(commands));

      assertEquals(commands.size(), replies.size());
      for (int i = 0; i < 600; i++) {
        assertEquals("OK", replies.get(i).toString());
        assertEquals(i + 1L, replies.get(600 + 2 * i).toLong(), "INCR of key " + i);
        assertEquals(Integer.toString(i + 1), replies.get(601 + 2 * i).toString(), "GET of key " + i);
      }
      assertEquals("PONG", replies.get(replies.size() - 1).toString());
    } finally {
      Await.result(platform.close());
    }
  }

  @Test
  @DisplayName("a command Redis refuses fails the batch with Redis's error, whichever slot it is in")
  void refusalFailsTheBatch(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      String run = "test:slots:" + System.nanoTime();
      Await.result(platform.redis().send(Request.cmd(Command.SET).arg(run + ":{u:text}").arg("a string")));
      List<Request> commands = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        commands.add(Request.cmd(Command.SET).arg(run + ":{u:" + i + "}").arg(i));
      }
      commands.add(Request.cmd(Command.LPUSH).arg(run + ":{u:text}").arg("x"));

      Throwable e = Await.failure(platform.redis().batch(commands));

      assertTrue(String.valueOf(e.getMessage()).contains("WRONGTYPE"), String.valueOf(e));
    } finally {
      Await.result(platform.close());
    }
  }
}
