package io.kith.platform.store;

import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.PlatformTestBase;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pipelined batches whose keys span hash slots, as a fan-out sends them: on a single Redis one pipeline, on a Redis
 * Cluster ({@code KITH_TEST_REDIS_CLUSTER}) split per slot by {@link SlotBatchedRedis}; the answers must not differ.
 */
@DisplayName("Redis batches across hash slots")
class SlotBatchedRedisTest extends PlatformTestBase {

  @Test
  @DisplayName("a batch over hundreds of users' keys answers every command in order, commands of one key in order")
  void answersInOrder() {
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

    List<Response> replies = await(platform.redis().batch(commands));

    assertEquals(commands.size(), replies.size());
    for (int i = 0; i < 600; i++) {
      assertEquals("OK", replies.get(i).toString());
      assertEquals(i + 1L, replies.get(600 + 2 * i).toLong(), "INCR of key " + i);
      assertEquals(Integer.toString(i + 1), replies.get(601 + 2 * i).toString(), "GET of key " + i);
    }
    assertEquals("PONG", replies.get(replies.size() - 1).toString());
  }

  @Test
  @DisplayName("an MGET over many users' keys answers each key's value in the order asked, alone or in a batch")
  void mgetAcrossSlots() {
    String run = "test:slots:" + System.nanoTime();
    Request mget = Request.cmd(Command.MGET);
    List<Request> writes = new ArrayList<>();
    // every third key missing; two keys of one user side by side, as a post's copy and its version
    for (int i = 0; i < 300; i++) {
      mget.arg(run + ":{u:" + i + "}").arg(run + ":{u:" + i + "}:v");
      if (i % 3 != 0) {
        writes.add(Request.cmd(Command.SET).arg(run + ":{u:" + i + "}").arg("value " + i));
      }
    }
    await(platform.redis().batch(writes));

    Response alone = await(platform.redis().send(mget));
    List<Response> batched = await(platform.redis().batch(List.of(Request.cmd(Command.PING), mget,
        Request.cmd(Command.GET).arg(run + ":{u:1}"))));

    assertEquals("PONG", batched.get(0).toString());
    assertEquals("value 1", batched.get(2).toString());
    for (Response answer : List.of(alone, batched.get(1))) {
      assertEquals(600, answer.size());
      for (int i = 0; i < 300; i++) {
        Response value = answer.get(2 * i);
        assertEquals(i % 3 == 0 ? null : "value " + i, value == null ? null : value.toString(), "key " + i);
        assertEquals(null, answer.get(2 * i + 1), "missing key beside key " + i);
      }
    }
  }

  @Test
  @DisplayName("a command Redis refuses fails the batch with Redis's error, whichever slot it is in")
  void refusalFailsTheBatch() {
    String run = "test:slots:" + System.nanoTime();
    await(platform.redis().send(Request.cmd(Command.SET).arg(run + ":{u:text}").arg("a string")));
    List<Request> commands = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      commands.add(Request.cmd(Command.SET).arg(run + ":{u:" + i + "}").arg(i));
    }
    commands.add(Request.cmd(Command.LPUSH).arg(run + ":{u:text}").arg("x"));

    Throwable e = Await.failure(platform.redis().batch(commands));

    assertTrue(String.valueOf(e.getMessage()).contains("WRONGTYPE"), String.valueOf(e));
  }
}
