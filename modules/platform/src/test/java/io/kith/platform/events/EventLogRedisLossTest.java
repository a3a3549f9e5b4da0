package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.RedisAPI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Consumers outlive the loss of their group: Redis emptied (FLUSHALL) or the group destroyed while they run. The
 * test JVM has a Redis of its own and runs one test class at a time, so emptying it touches no other test.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
class EventLogRedisLossTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private Vertx vertx;
  private Platform platform;
  private RedisAPI redis;
  private final List<EventConsumer> consumers = new ArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    platform = Await.result(KithTestKit.platform(vertx));
    redis = platform.redisApi();
  }

  @AfterEach
  void tearDown() {
    for (EventConsumer c : consumers) {
      Await.result(c.stop());
    }
    Await.result(platform.close());
  }

  private static String fresh(String what) {
    return what + "-" + UUID.randomUUID().toString().substring(0, 13);
  }

  /** A short read block so that a read notices a lost group soon; the default claim timeout, so no redelivery. */
  private EventLog log() {
    return new EventLog(vertx, platform.redis(), platform.ids(),
        EventLogOptions.from(new JsonObject()).withBlock(500));
  }

  private void consume(EventLog log, String domain, String group, int concurrency,
                       Function<DomainEvent, Future<?>> handler) {
    consumers.add(Await.result(log.consume(domain, group, concurrency, handler)));
  }

  /** A handler that counts the times it sees each event id. */
  private static Function<DomainEvent, Future<?>> counting(Map<Long, Integer> counts) {
    return e -> {
      counts.merge(e.id(), 1, Integer::sum);
      return Future.succeededFuture();
    };
  }

  private List<Long> append(EventLog log, String domain, int count) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(Await.result(log.append(domain, "ThingHappened", new JsonObject().put("n", i))).id());
    }
    return ids;
  }

  private void await(String what, Supplier<Boolean> condition) {
    Await.result(Poll.until(vertx, WAIT, what, () -> Future.succeededFuture(condition.get())));
  }

  private void awaitNothingPending(String domain, String group) {
    Await.result(Poll.until(vertx, WAIT, "no pending entries in " + group,
        () -> redis.xpending(List.of(EventLog.stream(domain), group)).map(r -> r.get(0).toLong() == 0)));
  }

  @Test
  @DisplayName("after FLUSHALL running consumers create their groups again and handle every event appended since, "
      + "exactly once, with no restart")
  void flushAll() {
    EventLog log = log();
    String domain = fresh("dom");
    Map<Long, Integer> one = new ConcurrentHashMap<>();
    Map<Long, Integer> four = new ConcurrentHashMap<>();
    consume(log, domain, "one-at-a-time", 1, counting(one));
    consume(log, domain, "four-at-a-time", 4, counting(four));
    List<Long> before = append(log, domain, 5);
    await("the events before the flush", () -> one.keySet().containsAll(before) && four.keySet().containsAll(before));

    Await.result(redis.flushall(List.of()));
    // appended at once: some land in a stream that the flush emptied of its groups, before a consumer notices
    List<Long> after = append(log, domain, 30);

    await("every event appended after the flush, in both groups",
        () -> one.keySet().containsAll(after) && four.keySet().containsAll(after));
    awaitNothingPending(domain, "one-at-a-time");
    awaitNothingPending(domain, "four-at-a-time");
    for (long id : after) {
      assertEquals(1, one.get(id), "event " + id + " handled once by the one-at-a-time consumer");
      assertEquals(1, four.get(id), "event " + id + " handled once by the concurrent consumer");
    }
    assertEquals(35, one.size(), "nothing but the appended events: " + one);
    assertEquals(35, four.size(), "nothing but the appended events: " + four);
  }

  @Test
  @DisplayName("a destroyed group is created again by its consumer, which reads the whole stream again: once() skips "
      + "the events it handled, and the new ones are handled once")
  void destroyedGroup() {
    EventLog log = log();
    String domain = fresh("dom");
    String group = "destroyed";
    Map<Long, Integer> delivered = new ConcurrentHashMap<>();
    Map<Long, Integer> handled = new ConcurrentHashMap<>();
    Function<DomainEvent, Future<?>> guarded = log.once(group, counting(handled));
    consume(log, domain, group, 1, e -> {
      delivered.merge(e.id(), 1, Integer::sum);
      return guarded.apply(e);
    });
    List<Long> before = append(log, domain, 5);
    await("the events before the destroy", () -> handled.keySet().containsAll(before));
    awaitNothingPending(domain, group);

    assertEquals(1, Await.result(redis.xgroup(List.of("DESTROY", EventLog.stream(domain), group))).toInteger());
    List<Long> after = append(log, domain, 5);

    await("the events appended after the destroy", () -> handled.keySet().containsAll(after));
    await("the events before the destroy read again from the stream's start",
        () -> before.stream().allMatch(id -> delivered.getOrDefault(id, 0) >= 2));
    awaitNothingPending(domain, group);
    for (long id : before) {
      assertEquals(1, handled.get(id), "event " + id + " re-read but not handled again");
    }
    for (long id : after) {
      assertEquals(1, handled.get(id), "event " + id + " handled once");
    }
    assertEquals(10, handled.size(), String.valueOf(handled));
  }

  /** As {@link #log()}, with the outbox, hence with the consumer groups remembered in MongoDB. */
  private EventLog logWithOutbox() {
    return new EventLog(vertx, platform.redis(), platform.ids(),
        EventLogOptions.from(new JsonObject()).withBlock(500), new EventOutbox(platform.mongo()));
  }

  @Test
  @DisplayName("a group that Redis lost while none of its consumers ran handles, when one starts, the events "
      + "appended meanwhile")
  void lostWhileDown() {
    EventLog log = logWithOutbox();
    String domain = fresh("dom");
    Map<Long, Integer> seen = new ConcurrentHashMap<>();
    EventConsumer first = Await.result(log.consume(domain, "restarted", counting(seen)));
    List<Long> before = append(log, domain, 2);
    await("the events before the stop", () -> seen.keySet().containsAll(before));
    Await.result(first.stop());

    Await.result(redis.flushall(List.of()));
    List<Long> meanwhile = append(log, domain, 3);
    consume(log, domain, "restarted", 1, counting(seen));
    List<Long> after = append(log, domain, 2);

    await("the events appended while no consumer ran, and after", () -> seen.keySet().containsAll(meanwhile)
        && seen.keySet().containsAll(after));
    awaitNothingPending(domain, "restarted");
    assertEquals(7, seen.size(), String.valueOf(seen));
    assertTrue(seen.values().stream().allMatch(n -> n == 1), "each handled once: " + seen);
    log.close();
  }

  @Test
  @DisplayName("a group new to the deployment starts at the stream's end: the events appended before it are not "
      + "replayed to it")
  void newGroupStartsAtTheEnd() {
    EventLog log = logWithOutbox();
    String domain = fresh("dom");
    List<Long> old = append(log, domain, 3);
    Map<Long, Integer> seen = new ConcurrentHashMap<>();

    consume(log, domain, "newcomer", 1, counting(seen));
    List<Long> after = append(log, domain, 2);

    await("the events appended after the start", () -> seen.keySet().containsAll(after));
    awaitNothingPending(domain, "newcomer");
    assertTrue(old.stream().noneMatch(seen::containsKey), "older events replayed: " + seen);
    log.close();
  }
}
