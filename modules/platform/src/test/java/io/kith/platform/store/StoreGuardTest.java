package io.kith.platform.store;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.CountingRedis;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.StallingProxy;
import io.vertx.circuitbreaker.CircuitBreakerState;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Command;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

@ExtendWith({VertxExtension.class, KithTestKit.class})
class StoreGuardTest {

  @Test
  @DisplayName("a Redis that stops answering fails each command with unavailable, then the open circuit refuses "
      + "commands without sending them")
  void stalledRedisTimesOutThenTripsTheCircuit(Vertx vertx) {
    try (StallingProxy silent = Await.result(StallingProxy.start(vertx, "127.0.0.1", 0))) {
      CountingRedis counting = new CountingRedis(
          Redis.createClient(vertx, Stores.redisOptions("redis://127.0.0.1:" + silent.port(), new JsonObject())));
      GuardedRedis redis = new GuardedRedis(vertx, counting, 200, 3, 600_000);
      for (int i = 0; i < 3; i++) {
        Throwable e = Await.failure(redis.send(Request.cmd(Command.PING)));
        assertTrue(Failures.is(e, KithErrors.UNAVAILABLE), "failure " + i + ": " + e);
      }
      assertEquals(CircuitBreakerState.OPEN, redis.state());
      int sent = counting.trips().size();
      for (int i = 0; i < 5; i++) {
        Throwable e = Await.failure(redis.send(Request.cmd(Command.PING)));
        assertTrue(Failures.is(e, KithErrors.UNAVAILABLE), "refusal " + i + ": " + e);
      }
      Throwable connect = Await.failure(redis.connect());
      assertTrue(Failures.is(connect, KithErrors.UNAVAILABLE), "connect: " + connect);
      assertEquals(sent, counting.trips().size(), "commands sent while the circuit was open");
      counting.close();
    }
  }

  @Test
  @DisplayName("commands and batches in flight when Redis drops its connections (a restart) fail with unavailable, "
      + "and the client serves again on new connections")
  void droppedConnectionsAreUnavailable(Vertx vertx) {
    assumeFalse(KithTestKit.onCluster(),
        "a proxy in front of one server: a cluster client learns the nodes' own addresses and goes around it");
    java.net.URI target = java.net.URI.create(KithTestKit.redisUrl());
    try (StallingProxy proxy = Await.result(StallingProxy.start(vertx, target.getHost(), target.getPort()))) {
      GuardedRedis redis = new GuardedRedis(vertx, Redis.createClient(vertx,
          Stores.redisOptions("redis://127.0.0.1:" + proxy.port(), new JsonObject())), 600_000, 10, 600_000);
      Await.result(redis.send(Request.cmd(Command.PING)));
      proxy.stall(true);
      io.vertx.core.Future<io.vertx.redis.client.Response> inFlight = redis.send(Request.cmd(Command.PING));
      proxy.disconnect();
      Throwable e = Await.failure(inFlight);
      assertTrue(Failures.is(e, KithErrors.UNAVAILABLE), "in flight: " + e);
      proxy.stall(false);
      Await.result(io.kith.platform.testkit.Poll.until(vertx, java.time.Duration.ofSeconds(20),
          "Redis to answer again", () -> redis.send(Request.cmd(Command.PING)).map(r -> "PONG".equals(r.toString()))
              .otherwise(false)));
      // again with a batch: the client reports one cut off as an error reply of its own, "ERR [0] CONNECTION_CLOSED"
      proxy.stall(true);
      io.vertx.core.Future<java.util.List<io.vertx.redis.client.Response>> batchInFlight = redis.batch(
          java.util.List.of(Request.cmd(Command.PING), Request.cmd(Command.PING)));
      proxy.disconnect();
      Throwable batch = Await.failure(batchInFlight);
      assertTrue(Failures.is(batch, KithErrors.UNAVAILABLE), "batch in flight: " + batch);
      redis.close();
    }
  }

  @Test
  @DisplayName("a Redis error reply, alone or in a batch, passes through unchanged and does not open the circuit")
  void errorRepliesAreNotOutages(Vertx vertx) {
    Redis raw = Redis.createClient(vertx, Stores.redisOptions(KithTestKit.redisUrl(), KithTestKit.redisSection()));
    GuardedRedis redis = new GuardedRedis(vertx, raw, 2_000, 1, 600_000);
    String key = "kith:test:guard:" + KithTestKit.newUserId();
    Await.result(redis.send(Request.cmd(Command.SET).arg(key).arg("text").arg("EX").arg(60)));
    for (int i = 0; i < 3; i++) {
      Throwable e = Await.failure(redis.send(Request.cmd(Command.LPUSH).arg(key).arg("x")));
      assertNull(Failures.codeOf(e), "a WRONGTYPE reply is not coded: " + e);
      assertTrue(String.valueOf(e.getMessage()).startsWith("WRONGTYPE"), String.valueOf(e));
    }
    Throwable inBatch = Await.failure(redis.batch(java.util.List.of(Request.cmd(Command.GET).arg(key),
        Request.cmd(Command.LPUSH).arg(key).arg("x"))));
    assertNull(Failures.codeOf(inBatch), "a WRONGTYPE reply in a batch is not coded: " + inBatch);
    assertEquals(CircuitBreakerState.CLOSED, redis.state());
    assertEquals("text", Await.result(redis.send(Request.cmd(Command.GET).arg(key))).toString());
    redis.close();
  }

  @Test
  @DisplayName("a MongoDB that does not answer fails with unavailable after the driver's deadline, while a "
      + "duplicate key still fails as a duplicate key")
  void mongoOutagesAreUnavailableOthersPassThrough(Vertx vertx) {
    try (StallingProxy silent = Await.result(StallingProxy.start(vertx, "127.0.0.1", 0))) {
      JsonObject section = new JsonObject().put("server-selection-timeout-ms", 300).put("breaker-max-failures", 2);
      MongoClient mongo = Stores.mongo(vertx, "mongodb://127.0.0.1:" + silent.port(), "kith-guard", section);
      for (int i = 0; i < 4; i++) {
        Throwable e = Await.failure(mongo.findOne("things", new JsonObject(), null));
        assertTrue(Failures.is(e, KithErrors.UNAVAILABLE), "failure " + i + ": " + e);
      }
      mongo.close();
    }
    MongoClient mongo = Stores.mongo(vertx, KithTestKit.mongoUrl(), "kith-test", new JsonObject());
    String id = "guard-" + KithTestKit.newUserId();
    Await.result(mongo.insert("kith_guard_test", new JsonObject().put("_id", id)));
    for (int i = 0; i < 3; i++) {
      Throwable e = Await.failure(mongo.insert("kith_guard_test", new JsonObject().put("_id", id)));
      assertTrue(MongoErrors.isDuplicateKey(e), "duplicate: " + e);
      assertFalse(Failures.is(e, KithErrors.UNAVAILABLE));
    }
    assertEquals(id, Await.result(mongo.findOne("kith_guard_test", new JsonObject().put("_id", id), null))
        .getString("_id"));
  }

  @Test
  @DisplayName("a start waits for a Redis that is reachable but slow to answer (past the command deadline), and "
      + "fails at once when nothing listens")
  void startWaitsForSlowRedis(Vertx vertx) {
    assumeFalse(KithTestKit.onCluster(),
        "a proxy in front of one server: a cluster client learns the nodes' own addresses and goes around it");
    java.net.URI target = java.net.URI.create(KithTestKit.redisUrl());
    try (StallingProxy proxy = Await.result(StallingProxy.start(vertx, target.getHost(), target.getPort()))) {
      proxy.stall(true);
      JsonObject section = new JsonObject().put("command-timeout-ms", 100);
      io.vertx.core.Future<Void> waiting = Stores.awaitRedis(vertx, "redis://127.0.0.1:" + proxy.port(), section,
          600_000);
      // the guarded client gives up on a command after its deadline; the start keeps waiting
      Throwable guarded = Await.failure(Stores.pingRedis(Stores.redis(vertx, "redis://127.0.0.1:" + proxy.port(),
          section)));
      assertTrue(Failures.is(guarded, KithErrors.UNAVAILABLE), String.valueOf(guarded));
      assertFalse(waiting.isComplete(), "the start gave up on a Redis that was only slow");
      proxy.stall(false);
      Await.result(waiting);
    }
    int closed = FreePorts.pick();
    Throwable refused = Await.failure(Stores.awaitRedis(vertx, "redis://127.0.0.1:" + closed, new JsonObject(),
        600_000));
    assertFalse(Failures.is(refused, KithErrors.UNAVAILABLE), "refused is reported as it is: " + refused);
  }
}
