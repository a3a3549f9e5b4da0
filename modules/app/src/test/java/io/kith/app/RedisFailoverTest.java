package io.kith.app;

import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.store.Stores;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.RedisNodes;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
    long conversation = send(alice, bob).getJsonObject("message").getLong("conversation");
    // the master of the conversation's recent-messages window, which history reads first
    String window = "msg:{c" + conversation + "}:recent";
    String victim = Await.result(RedisNodes.masterOf(redis, window));

    Writer writer = new Writer(alice, bob);
    Thread thread = new Thread(writer, "failover-writer");
    thread.start();
    try {
      awaitAcknowledged(writer, 20);
      // DEBUG SEGFAULT: the server dies at once, as in a crash; its reply never comes
      RedisNodes.sendTo(kith.client(), victim, Request.cmd(Command.DEBUG).arg("SEGFAULT"));
      Await.result(Poll.until(kith.client(), FAILOVER, "a replica to take over " + victim + "'s slots",
          () -> RedisNodes.masterOf(redis, window).map(m -> !m.equals(victim)).otherwise(false)));
      awaitAcknowledged(writer, writer.acknowledged.size() + 20);
    } finally {
      writer.stopped = true;
      thread.join(TimeUnit.MINUTES.toMillis(3));
    }

    assertEquals(List.of(), writer.unexpected, "every send answered 201, or 503 unavailable while Redis failed over");
    Set<Long> acknowledged = new TreeSet<>(writer.acknowledged);
    Await.result(Poll.until(kith.client(), FAILOVER, "every acknowledged message in bob's history",
        () -> Future.succeededFuture(history(bob, conversation).containsAll(acknowledged))));
    List<Long> seqs = historySeqs(bob, conversation);
    assertEquals(new TreeSet<>(seqs).size(), seqs.size(), "no sequence twice: " + seqs);
  }

  private JsonObject send(User from, User to) {
    return kith.post("/direct/" + to.path() + "/messages", from, new JsonObject().put("text", "load")
        .put("client_id", UUID.randomUUID().toString())).expect(201);
  }

  private void awaitAcknowledged(Writer writer, int count) {
    Await.result(Poll.until(kith.client(), FAILOVER, count + " acknowledged sends",
        () -> Future.succeededFuture(writer.acknowledged.size() >= count || !writer.unexpected.isEmpty())));
    assertEquals(List.of(), writer.unexpected, "an unexpected reply while sending");
  }

  private Set<Long> history(User as, long conversation) {
    return new TreeSet<>(page(as, conversation, "id"));
  }

  private List<Long> historySeqs(User as, long conversation) {
    return page(as, conversation, "seq");
  }

  // every message of the conversation, following after_seq
  private List<Long> page(User as, long conversation, String member) {
    List<Long> out = new ArrayList<>();
    long after = 0;
    while (true) {
      JsonObject page = kith.get("/conversations/" + conversation + "/messages?after_seq=" + after + "&limit=100",
          as).expect(200);
      if (page.getJsonArray("items").isEmpty()) {
        return out;
      }
      for (Object m : page.getJsonArray("items")) {
        out.add(((JsonObject) m).getLong(member));
        after = ((JsonObject) m).getLong("seq");
      }
    }
  }

  /**
   * Sends messages from alice to bob one after another until stopped: a 201 is an acknowledged message (its id
   * kept), a 503 {@code unavailable} a refusal while Redis fails over; anything else is kept as unexpected.
   */
  private final class Writer implements Runnable {

    final List<Long> acknowledged = new CopyOnWriteArrayList<>();
    final List<String> unexpected = new CopyOnWriteArrayList<>();
    volatile boolean stopped;
    private final User from;
    private final User to;

    Writer(User from, User to) {
      this.from = from;
      this.to = to;
    }

    @Override
    public void run() {
      while (!stopped && unexpected.isEmpty()) {
        JsonObject body = new JsonObject().put("text", "load").put("client_id", UUID.randomUUID().toString());
        try {
          // the request deadline (http.request-timeout-seconds) answers long before this wait ends
          Reply reply = kith.send(HttpMethod.POST, "/api/v1/direct/" + to.path() + "/messages", from.access(), body)
              .toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
          if (reply.status() == 201) {
            acknowledged.add(reply.json().getJsonObject("message").getLong("id"));
          } else if (reply.status() != 503 || !"unavailable".equals(reply.json().getString("code"))) {
            unexpected.add(reply.status() + " " + reply.text());
          }
        } catch (Exception e) {
          unexpected.add(e.toString());
        }
      }
    }
  }
}
