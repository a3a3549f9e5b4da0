package io.kith.app;

import io.kith.app.support.MessageLoad;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.store.Stores;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.RedisNodes;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.UUID;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A Redis Cluster master dies while Kith serves writes: run only against a cluster ({@code KITH_TEST_REDIS_CLUSTER},
 * started by {@code .ci/redis-cluster.sh}) and last, since it leaves the cluster one replica short.
 */
@Tag(KithTestKit.FAILOVER_TAG)
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Redis Cluster failover under load")
class RedisFailoverTest {

  private static final Duration FAILOVER = Duration.ofSeconds(90);

  private TestKith kith;
  private Redis redis;

  @BeforeAll
  void start() {
    assumeTrue(KithTestKit.onCluster(), "needs a Redis Cluster: set " + KithTestKit.CLUSTER_ENV);
    // production's Redis command deadline (the test kit's 30 s is for loaded machines), and no send limit: one
    // writer sends as fast as the node answers
    kith = new TestKith(TestKith.config("accounts", "relations", "messaging", "gateway")
        .put("redis", new JsonObject().put("command-timeout-ms", 2_000))
        .put("messaging", new JsonObject().put("sends-per-minute", 1_000_000)), "f") {
    };
    redis = Redis.createClient(kith.client(),
        Stores.redisOptions(KithTestKit.redisUrl(), KithTestKit.redisSection()));
  }

  @AfterAll
  void stop() {
    if (redis != null) {
      redis.close();
    }
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("a master crashes while messages are sent: its replica takes over, sends that fail are coded 503s, "
      + "sends succeed again, and every acknowledged message is in the history")
  void masterCrashesMidLoad() throws Exception {
    User alice = kith.register();
    User bob = kith.register();
    long conversation = kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject().put("text", "first")
        .put("client_id", UUID.randomUUID().toString())).expect(201).getJsonObject("message").getLong("conversation");
    // the master of the conversation's recent-messages window, which history reads first
    String window = "msg:{c" + conversation + "}:recent";
    String victim = Await.result(RedisNodes.masterOf(redis, window));

    MessageLoad load = new MessageLoad(kith, alice, bob, FAILOVER).start();
    try {
      load.awaitAcknowledged(20);
      // DEBUG SEGFAULT: the server dies at once, as in a crash; its reply never comes
      RedisNodes.sendTo(kith.client(), victim, Request.cmd(Command.DEBUG).arg("SEGFAULT"));
      Await.result(Poll.until(kith.client(), FAILOVER, "a replica to take over " + victim + "'s slots",
          () -> RedisNodes.masterOf(redis, window).map(m -> !m.equals(victim)).otherwise(false)));
      load.awaitAcknowledged(load.acknowledged.size() + 20);
    } finally {
      load.stop();
    }
    load.assertAllInHistory(conversation);
  }
}
