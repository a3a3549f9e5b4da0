package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
@DisplayName("Event-log readers and the command pool")
class EventReadersPoolTest {

  private static final int POOL = 2;
  private static final int GROUPS = 6;

  @Test
  @DisplayName("more consumer groups than redis.max-pool-size: every reader blocks on a connection of its own, "
      + "commands are still answered, and every group gets the event")
  void readersDoNotStarveCommands(Vertx vertx) throws Exception {
    Platform platform = Await.result(KithTestKit.platform(vertx, new JsonObject()
        .put("redis", new JsonObject().put("max-pool-size", POOL))));
    EventLog log = new EventLog(vertx, platform.redis(), platform.ids(),
        EventLogOptions.from(new JsonObject()).withClaimAfter(60_000).withBlock(2_000));
    String domain = "pool-" + UUID.randomUUID();
    List<AtomicInteger> seen = new ArrayList<>();
    List<EventConsumer> consumers = new ArrayList<>();
    try {
      for (int g = 0; g < GROUPS; g++) {
        AtomicInteger count = new AtomicInteger();
        seen.add(count);
        consumers.add(Await.result(log.consume(domain, "group-" + g, e -> {
          count.incrementAndGet();
          return Future.succeededFuture();
        })));
      }
      // the readers are all blocked in XREADGROUP now; a command still gets a connection of the pool
      String key = "pool-test:" + UUID.randomUUID();
      Await.result(platform.redisApi().set(List.of(key, "v")));
      assertEquals("v", Await.result(platform.redisApi().get(key)).toString());
      Await.result(log.append(domain, "ThingHappened", new JsonObject().put("n", 1)));
      Await.result(Poll.until(vertx, Duration.ofSeconds(60), "every group to get the event",
          () -> Future.succeededFuture(seen.stream().allMatch(c -> c.get() >= 1))));
      for (AtomicInteger count : seen) {
        assertEquals(1, count.get());
      }
    } finally {
      for (EventConsumer c : consumers) {
        c.stop();
      }
      Await.result(platform.close());
    }
  }
}
