package io.kith.platform.events;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.RedisNodes;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
class EventLogTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private Vertx vertx;
  private Platform platform;
  private RedisAPI redis;
  private final List<EventConsumer> consumers = new ArrayList<>();
  private final List<Vertx> others = new ArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    platform = Await.result(KithTestKit.platform(vertx));
    redis = platform.redisApi();
  }

  @AfterEach
  void tearDown() {
    for (EventConsumer c : consumers) {
      c.stop();
    }
    for (Vertx v : others) {
      Await.result(v.close());
    }
    Await.result(platform.close());
  }

  private static String fresh(String what) {
    return what + "-" + UUID.randomUUID().toString().substring(0, 13);
  }

  /** Options with a short claim timeout and read block, so that claims and stops happen quickly. */
  private static EventLogOptions quick() {
    return EventLogOptions.from(new JsonObject()).withClaimAfter(300).withBlock(500);
  }

  /**
   * {@link #quick()} reads with a claim timeout no test reaches: for tests that count deliveries, where a claim of an
   * entry whose handling a busy machine delayed past a short timeout would deliver it twice (at least once is the
   * contract; these tests check order and count on the normal path).
   */
  private static EventLogOptions noClaims() {
    return quick().withClaimAfter(60_000);
  }

  private EventLog log(EventLogOptions options) {
    return new EventLog(vertx, platform.redis(), platform.ids(), options);
  }

  private EventConsumer consume(EventLog log, String domain, String group, Function<DomainEvent, Future<?>> handler) {
    EventConsumer c = Await.result(log.consume(domain, group, handler));
    consumers.add(c);
    return c;
  }

  private List<DomainEvent> append(EventLog log, String domain, int count) {
    List<DomainEvent> appended = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      appended.add(Await.result(log.append(domain, "ThingHappened", new JsonObject().put("n", i))));
    }
    return appended;
  }

  private void await(String what, Supplier<Boolean> condition) {
    Await.result(Poll.until(vertx, WAIT, what, () -> Future.succeededFuture(condition.get())));
  }

  private void awaitNothingPending(String domain, String group) {
    Await.result(Poll.until(vertx, WAIT, "no pending entries in " + group,
        () -> redis.xpending(List.of(EventLog.stream(domain), group)).map(r -> r.get(0).toLong() == 0)));
  }

  private static List<Long> ids(List<DomainEvent> events) {
    return events.stream().map(DomainEvent::id).collect(Collectors.toList());
  }

  @Test
  @DisplayName("an appended event reaches one consumer of every group, once, with its domain, type, time and payload")
  void eachGroupGetsEveryEventOnce() {
    EventLog log = log(noClaims());
    String domain = fresh("dom");
    List<DomainEvent> seenByFeeds = new CopyOnWriteArrayList<>();
    List<DomainEvent> seenByNotifications = new CopyOnWriteArrayList<>();
    consume(log, domain, "feeds", e -> {
      seenByFeeds.add(e);
      return Future.succeededFuture();
    });
    consume(log, domain, "notifications", e -> {
      seenByNotifications.add(e);
      return Future.succeededFuture();
    });

    List<DomainEvent> appended = append(log, domain, 20);

    await("both groups to see 20 events", () -> seenByFeeds.size() >= 20 && seenByNotifications.size() >= 20);
    awaitNothingPending(domain, "feeds");
    awaitNothingPending(domain, "notifications");
    assertEquals(ids(appended), ids(seenByFeeds), "every event once, in stream order");
    assertEquals(ids(appended), ids(seenByNotifications), "every event once, in stream order");
    DomainEvent first = seenByFeeds.get(0);
    assertEquals(domain, first.domain());
    assertEquals("ThingHappened", first.type());
    assertEquals(appended.get(0).time(), first.time());
    assertEquals(new JsonObject().put("n", 0), first.payload());
  }

  @Test
  @DisplayName("appendAll writes one event per payload, in order, that consumers see like appended ones")
  void appendAllInOrder() {
    EventLog log = log(noClaims());
    String domain = fresh("dom");
    List<DomainEvent> seen = new CopyOnWriteArrayList<>();
    consume(log, domain, "readers", e -> {
      seen.add(e);
      return Future.succeededFuture();
    });
    List<JsonObject> payloads = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      payloads.add(new JsonObject().put("n", i));
    }

    List<DomainEvent> appended = Await.result(log.appendAll(domain, "ThingsHappened", payloads));
    List<DomainEvent> single = append(log, domain, 1);

    assertEquals(50, appended.size());
    assertEquals(50, new HashSet<>(ids(appended)).size(), "every event has its own id");
    await("51 events", () -> seen.size() >= 51);
    awaitNothingPending(domain, "readers");
    List<Long> expected = new ArrayList<>(ids(appended));
    expected.addAll(ids(single));
    assertEquals(expected, ids(seen), "every event once, in the order appended");
    for (int i = 0; i < 50; i++) {
      assertEquals("ThingsHappened", seen.get(i).type());
      assertEquals(domain, seen.get(i).domain());
      assertEquals(new JsonObject().put("n", i), seen.get(i).payload());
    }
    assertEquals(List.of(), Await.result(log.appendAll(domain, "ThingsHappened", List.of())));
  }

  @Test
  @DisplayName("a consumer group created now reads the events appended from now on")
  void groupStartsAtTheEnd() {
    EventLog log = log(noClaims());
    String domain = fresh("dom");
    append(log, domain, 3);
    List<DomainEvent> seen = new CopyOnWriteArrayList<>();
    consume(log, domain, "late", e -> {
      seen.add(e);
      return Future.succeededFuture();
    });

    List<DomainEvent> after = append(log, domain, 2);

    await("the new events", () -> seen.size() >= 2);
    awaitNothingPending(domain, "late");
    assertEquals(ids(after), ids(seen));
  }

  @Test
  @DisplayName("two consumers of one group share the events, and no event is handled by both")
  void consumersOfAGroupShare() {
    EventLog log = log(quick().withClaimAfter(60_000));
    String domain = fresh("dom");
    List<Long> byA = new CopyOnWriteArrayList<>();
    List<Long> byB = new CopyOnWriteArrayList<>();
    consume(log, domain, "counters", e -> {
      byA.add(e.id());
      return Future.succeededFuture();
    });
    consume(log, domain, "counters", e -> {
      byB.add(e.id());
      return Future.succeededFuture();
    });

    List<DomainEvent> appended = append(log, domain, 100);

    await("all 100 events to be handled", () -> byA.size() + byB.size() >= 100);
    awaitNothingPending(domain, "counters");
    Set<Long> handled = new HashSet<>(byA);
    handled.retainAll(byB);
    assertTrue(handled.isEmpty(), "handled by both consumers: " + handled);
    assertEquals(100, byA.size() + byB.size());
    Set<Long> union = new HashSet<>(byA);
    union.addAll(byB);
    assertEquals(new HashSet<>(ids(appended)), union);
    assertFalse(byA.isEmpty(), "the first consumer got no event");
    assertFalse(byB.isEmpty(), "the second consumer got no event");
  }

  @Test
  @DisplayName("a concurrent consumer runs at most its concurrency of handlers and leaves the other events to its group")
  void concurrentConsumersShareABurst() {
    EventLog log = log(quick().withClaimAfter(60_000));
    String domain = fresh("dom");
    String group = "fanout";
    Map<String, Set<Long>> runningBy = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> most = new ConcurrentHashMap<>();
    List<Promise<Void>> held = new CopyOnWriteArrayList<>();
    Map<Long, AtomicInteger> handled = new ConcurrentHashMap<>();
    for (String name : List.of("a", "b")) {
      runningBy.put(name, ConcurrentHashMap.newKeySet());
      most.put(name, new AtomicInteger());
      consumers.add(Await.result(log.consume(domain, group, 3, e -> {
        Set<Long> running = runningBy.get(name);
        running.add(e.id());
        most.get(name).accumulateAndGet(running.size(), Math::max);
        handled.computeIfAbsent(e.id(), k -> new AtomicInteger()).incrementAndGet();
        Promise<Void> release = Promise.promise();
        held.add(release);
        return release.future().onComplete(x -> running.remove(e.id()));
      })));
    }

    List<DomainEvent> appended = append(log, domain, 10);

    // both consumers fill their three places and hold them: six events run, four wait in the stream
    await("six handlers to run", () -> held.size() >= 6);
    assertEquals(6, held.size(), "no consumer runs more than three at once");
    assertEquals(3, runningBy.get("a").size());
    assertEquals(3, runningBy.get("b").size());
    // each release frees a place, which takes the next waiting event
    while (handled.size() < 10) {
      int before = handled.size();
      Promise<Void> next = held.stream().filter(p -> !p.future().isComplete()).findFirst().orElseThrow();
      vertx.runOnContext(v -> next.tryComplete());
      await("a freed place to take the next event", () -> handled.size() > before);
      assertTrue(runningBy.get("a").size() <= 3 && runningBy.get("b").size() <= 3, "over three at once");
    }
    held.forEach(p -> vertx.runOnContext(v -> p.tryComplete()));
    awaitNothingPending(domain, group);
    assertEquals(new HashSet<>(ids(appended)), handled.keySet());
    handled.forEach((id, count) -> assertEquals(1, count.get(), "event " + id + " handled twice"));
    assertTrue(most.get("a").get() <= 3 && most.get("b").get() <= 3, "at most three at once: " + most);
  }

  @Test
  @DisplayName("a concurrent consumer that stops lets its running handlers finish and takes no new event")
  void concurrentConsumerStops() {
    EventLog log = log(quick().withClaimAfter(60_000));
    String domain = fresh("dom");
    String group = "fanout";
    List<Promise<Void>> held = new CopyOnWriteArrayList<>();
    List<Long> started = new CopyOnWriteArrayList<>();
    EventConsumer consumer = Await.result(log.consume(domain, group, 2, e -> {
      started.add(e.id());
      Promise<Void> release = Promise.promise();
      held.add(release);
      return release.future();
    }));
    append(log, domain, 2);
    await("both places to be taken", () -> held.size() == 2);

    Future<Void> stopped = consumer.stop();
    assertFalse(stopped.isComplete(), "stopped before its handlers finished");
    held.forEach(p -> vertx.runOnContext(v -> p.tryComplete()));
    Await.result(stopped);
    awaitNothingPending(domain, group);

    List<Long> byOthers = new CopyOnWriteArrayList<>();
    consume(log, domain, group, e -> {
      byOthers.add(e.id());
      return Future.succeededFuture();
    });
    List<DomainEvent> later = append(log, domain, 2);
    await("the rest of the group to handle the new events", () -> byOthers.containsAll(ids(later)));
    assertEquals(2, started.size(), "the stopped consumer took " + started);
  }

  @Test
  @DisplayName("events left unacknowledged by a consumer whose node died mid-batch are handled by another consumer")
  void deadConsumersEventsAreClaimed() {
    String domain = fresh("dom");
    String group = "fanout";
    Vertx doomed = Vertx.vertx();
    others.add(doomed);
    Platform doomedPlatform = Await.result(KithTestKit.platform(doomed));
    EventLog doomedLog = new EventLog(doomed, doomedPlatform.redis(), doomedPlatform.ids(), quick());
    List<Long> startedByDoomed = new CopyOnWriteArrayList<>();
    Await.result(doomedLog.consume(domain, group, e -> {
      startedByDoomed.add(e.id());
      return Promise.promise().future(); // hangs: the node dies before finishing
    }));
    EventLog log = log(quick());

    List<DomainEvent> appended = new ArrayList<>();
    List<Future<DomainEvent>> appending = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      appending.add(log.append(domain, "PostPublished", new JsonObject().put("n", i)));
    }
    Await.result(Future.all(appending));
    appending.forEach(f -> appended.add(f.result()));
    await("the doomed consumer to start on an event", () -> !startedByDoomed.isEmpty());
    Await.result(doomed.close());
    Map<Long, AtomicInteger> handledBySurvivor = new ConcurrentHashMap<>();
    consume(log, domain, group, e -> {
      handledBySurvivor.computeIfAbsent(e.id(), k -> new AtomicInteger()).incrementAndGet();
      return Future.succeededFuture();
    });

    await("the survivor to handle every event", () -> handledBySurvivor.keySet().containsAll(ids(appended)));
    awaitNothingPending(domain, group);
    assertTrue(handledBySurvivor.keySet().containsAll(startedByDoomed));
    handledBySurvivor.forEach((id, count) -> assertEquals(1, count.get(), "event " + id + " handled twice"));
  }

  @Test
  @DisplayName("events held by a stopped consumer whose handler never finished are claimed by the rest of its group")
  void stoppedConsumersEventsAreClaimed() {
    EventLog log = log(quick());
    String domain = fresh("dom");
    String group = "search";
    List<Long> startedByStopped = new CopyOnWriteArrayList<>();
    EventConsumer stuck = Await.result(log.consume(domain, group, e -> {
      startedByStopped.add(e.id());
      return Promise.promise().future();
    }));
    List<DomainEvent> appended = append(log, domain, 3);
    await("the stuck consumer to start on an event", () -> !startedByStopped.isEmpty());
    stuck.stop(); // does not complete: its handler never finishes; it must not hold the events anyway

    Map<Long, AtomicInteger> handled = new ConcurrentHashMap<>();
    consume(log, domain, group, e -> {
      handled.computeIfAbsent(e.id(), k -> new AtomicInteger()).incrementAndGet();
      return Future.succeededFuture();
    });

    await("the rest of the group to handle every event", () -> handled.keySet().containsAll(ids(appended)));
    awaitNothingPending(domain, group);
    handled.forEach((id, count) -> assertEquals(1, count.get(), "event " + id + " handled twice"));
  }

  @Test
  @DisplayName("a claim pass that finds more pending events than one page claims every page at once, not a page per "
      + "claim period")
  void claimPassTakesEveryPage() {
    // pages of 4 and a claim period (claim-after / 2) of five minutes: the events must come back in one pass
    EventLogOptions base = quick().withClaimAfter(600_000);
    EventLog log = log(new EventLogOptions(base.maxLength(), base.claimAfterMillis(), 4, base.blockMillis(),
        base.maxDeliveries(), base.processedTtlSeconds(), base.outboxDrainMillis()));
    String domain = fresh("dom");
    String group = "pusher";
    String stream = EventLog.stream(domain);
    List<DomainEvent> appended = append(log, domain, 13);
    // a consumer of a node that died holds all 13, idle for an hour (XCLAIM sets the idle time)
    Await.result(redis.xgroup(List.of("CREATE", stream, group, "0")));
    Await.result(redis.xreadgroup(List.of("GROUP", group, "ghost", "COUNT", "100", "STREAMS", stream, ">")));
    List<String> args = new ArrayList<>(List.of(stream, group, "ghost", "0"));
    Response pending = Await.result(redis.xpending(List.of(stream, group, "-", "+", "100")));
    pending.forEach(p -> args.add(p.get(0).toString()));
    args.addAll(List.of("IDLE", "3600000"));
    Await.result(redis.xclaim(args));

    Map<Long, AtomicInteger> handled = new ConcurrentHashMap<>();
    EventConsumer c = consume(log, domain, group, e -> {
      handled.computeIfAbsent(e.id(), k -> new AtomicInteger()).incrementAndGet();
      return Future.succeededFuture();
    });
    c.memberLeft();

    await("every page of the departed consumer's events to be claimed and handled",
        () -> handled.keySet().containsAll(ids(appended)));
    awaitNothingPending(domain, group);
    handled.forEach((id, count) -> assertEquals(1, count.get(), "event " + id + " handled twice"));
  }

  @Test
  @DisplayName("a consumer blocked in a long read stops at once, and new events then go to the rest of its group")
  void stoppedConsumerGetsNoNewEvents() {
    // claims are far away and reads block far longer than a test waits: stopping must end the blocked read itself
    EventLog log = log(quick().withClaimAfter(600_000).withBlock(120_000));
    String domain = fresh("dom");
    String group = "mentions";
    List<Long> byStopped = new CopyOnWriteArrayList<>();
    List<Long> byRemaining = new CopyOnWriteArrayList<>();
    EventConsumer stopped = Await.result(log.consume(domain, group, e -> {
      byStopped.add(e.id());
      return Future.succeededFuture();
    }));
    consume(log, domain, group, e -> {
      byRemaining.add(e.id());
      return Future.succeededFuture();
    });

    Await.result(stopped.stop());
    List<DomainEvent> appended = append(log, domain, 3);

    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the remaining consumer to handle the new events",
        () -> Future.succeededFuture(byRemaining.containsAll(ids(appended)))));
    assertTrue(byStopped.isEmpty(), "the stopped consumer handled " + byStopped);
    awaitNothingPending(domain, group);
  }

  @Test
  @DisplayName("a handler that fails is retried until it succeeds, and the event is then acknowledged")
  void failingHandlerRetried() {
    EventLog log = log(quick());
    String domain = fresh("dom");
    AtomicInteger attempts = new AtomicInteger();
    List<Long> succeeded = new CopyOnWriteArrayList<>();
    consume(log, domain, "flaky", e -> {
      if (attempts.incrementAndGet() <= 2) {
        return Future.failedFuture(new IllegalStateException("downstream not ready"));
      }
      succeeded.add(e.id());
      return Future.succeededFuture();
    });

    DomainEvent event = Await.result(log.append(domain, "CommentAdded", new JsonObject()));

    await("the third attempt to succeed", () -> !succeeded.isEmpty());
    awaitNothingPending(domain, "flaky");
    assertEquals(List.of(event.id()), succeeded);
    assertEquals(3, attempts.get());
  }

  @Test
  @DisplayName("a handler that throws instead of failing its future is retried the same way")
  void throwingHandlerRetried() {
    EventLog log = log(quick());
    String domain = fresh("dom");
    AtomicInteger attempts = new AtomicInteger();
    consume(log, domain, "thrower", e -> {
      if (attempts.incrementAndGet() == 1) {
        throw new IllegalStateException("boom");
      }
      return Future.succeededFuture();
    });

    Await.result(log.append(domain, "CommentAdded", new JsonObject()));

    await("a second attempt", () -> attempts.get() >= 2);
    awaitNothingPending(domain, "thrower");
    assertEquals(2, attempts.get());
  }

  @Test
  @DisplayName("an event that keeps failing goes to the group's dead-letter stream after maxDeliveries and stops")
  void poisonedEventDeadLettered() {
    EventLogOptions base = quick();
    EventLog log = log(new EventLogOptions(base.maxLength(), base.claimAfterMillis(), base.batchSize(),
        base.blockMillis(), 3, base.processedTtlSeconds(), base.outboxDrainMillis()));
    String domain = fresh("dom");
    String group = "notifier";
    AtomicInteger poisonAttempts = new AtomicInteger();
    List<Long> handled = new CopyOnWriteArrayList<>();
    consume(log, domain, group, e -> {
      if (e.payload().getBoolean("poison", false)) {
        poisonAttempts.incrementAndGet();
        return Future.failedFuture(new IllegalArgumentException("cannot handle this one"));
      }
      handled.add(e.id());
      return Future.succeededFuture();
    });

    DomainEvent poison = Await.result(log.append(domain, "UserFollowed", new JsonObject().put("poison", true)));
    DomainEvent good = Await.result(log.append(domain, "UserFollowed", new JsonObject().put("poison", false)));

    String dead = EventLog.stream(domain) + ":dead:" + group;
    await("the good event, behind the poisoned one", () -> handled.contains(good.id()));
    Await.result(Poll.until(vertx, WAIT, "the poisoned event in " + dead,
        () -> redis.xlen(dead).map(r -> r.toLong() == 1)));
    awaitNothingPending(domain, group);
    assertEquals(3, poisonAttempts.get(), "delivered exactly maxDeliveries times");
    Response entries = Await.result(redis.xrange(List.of(dead, "-", "+")));
    Map<String, String> fields = new java.util.HashMap<>();
    Response kv = entries.get(0).get(1);
    for (int i = 0; i + 1 < kv.size(); i += 2) {
      fields.put(kv.get(i).toString(), kv.get(i + 1).toString());
    }
    assertEquals(Long.toString(poison.id()), fields.get("id"));
    assertEquals("UserFollowed", fields.get("type"));
    assertEquals(new JsonObject().put("poison", true), new JsonObject(fields.get("payload")));
    assertTrue(fields.containsKey("entry"), "the dead letter names the original stream entry");

    // the group moved on: a later event is handled and the poisoned one is not tried again
    DomainEvent later = Await.result(log.append(domain, "UserFollowed", new JsonObject()));
    await("a later event", () -> handled.contains(later.id()));
    awaitNothingPending(domain, group);
    assertEquals(3, poisonAttempts.get());
  }

  @Test
  @DisplayName("once() runs the handler once per event id and group, and again after a failure")
  void onceGuard() {
    EventLog log = log(quick());
    String group = fresh("grp");
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger failuresLeft = new AtomicInteger(1);
    Function<DomainEvent, Future<?>> guarded = log.once(group, e -> {
      runs.incrementAndGet();
      return failuresLeft.getAndDecrement() > 0 ? Future.failedFuture("transient") : Future.succeededFuture();
    });
    DomainEvent event = new DomainEvent(platform.ids().next(), "dom", "PostLiked", System.currentTimeMillis(),
        new JsonObject());

    Await.failure(guarded.apply(event));
    Await.result(guarded.apply(event));
    Await.result(guarded.apply(event));
    Await.result(guarded.apply(event));

    assertEquals(2, runs.get(), "one failed run, one successful run, then skipped");
    AtomicInteger otherGroupRuns = new AtomicInteger();
    Await.result(log.once(fresh("grp"), e -> {
      otherGroupRuns.incrementAndGet();
      return Future.succeededFuture();
    }).apply(event));
    assertEquals(1, otherGroupRuns.get(), "another group keeps its own record");
    DomainEvent another = new DomainEvent(platform.ids().next(), "dom", "PostLiked", System.currentTimeMillis(),
        new JsonObject());
    Await.result(guarded.apply(another));
    assertEquals(3, runs.get(), "another event id runs the handler");
  }

  @Test
  @DisplayName("once() keeps a redelivered event from being handled twice by a consumer")
  void onceWithRedelivery() {
    EventLog log = log(quick());
    String domain = fresh("dom");
    String group = "counter";
    AtomicInteger effects = new AtomicInteger();
    AtomicInteger deliveries = new AtomicInteger();
    Function<DomainEvent, Future<?>> counted = log.once(group, e -> {
      effects.incrementAndGet();
      return Future.succeededFuture();
    });
    // the effect is applied, but the first acknowledgement is lost (the handler fails after the guard wrote)
    consume(log, domain, group, e -> counted.apply(e).compose(x ->
        deliveries.incrementAndGet() == 1 ? Future.failedFuture("lost ack") : Future.succeededFuture()));

    Await.result(log.append(domain, "PostLiked", new JsonObject()));

    await("the redelivery", () -> deliveries.get() >= 2);
    awaitNothingPending(domain, group);
    assertEquals(1, effects.get());
  }

  @Test
  @DisplayName("invalid domain, type and group names are refused")
  void invalidNamesRefused() {
    EventLog log = log(quick());

    assertThrows(IllegalArgumentException.class, () -> log.append("bad domain", "T", new JsonObject()));
    assertThrows(IllegalArgumentException.class, () -> log.append("dom", "", new JsonObject()));
    assertThrows(IllegalArgumentException.class, () -> log.append(null, "T", new JsonObject()));
    assertThrows(IllegalArgumentException.class, () -> log.append("1dom", "T", new JsonObject()));
    assertThrows(IllegalArgumentException.class,
        () -> log.consume("dom", "group:with:colons", e -> Future.succeededFuture()));
    assertThrows(IllegalArgumentException.class,
        () -> log.consume("x".repeat(65), "g", e -> Future.succeededFuture()));
  }

  // ---------------------------------------------------------------- Redis data loss (issue 19)
  // The test JVM has a Redis of its own and runs one test class at a time, so emptying it touches no other test.

  /** A short read block so that a read notices a lost group soon; the default claim timeout, so no redelivery. */
  private static EventLogOptions noticing() {
    return EventLogOptions.from(new JsonObject()).withBlock(500);
  }

  /** A log with the outbox, hence one that remembers its consumer groups in MongoDB. */
  private EventLog rememberingLog() {
    return new EventLog(vertx, platform.redis(), platform.ids(), noticing(), new EventOutbox(platform.mongo()));
  }

  /** A handler that counts the times it sees each event id. */
  private static Function<DomainEvent, Future<?>> counting(Map<Long, Integer> counts) {
    return e -> {
      counts.merge(e.id(), 1, Integer::sum);
      return Future.succeededFuture();
    };
  }

  @Test
  @DisplayName("after FLUSHALL running consumers create their groups again and handle every event appended since, "
      + "exactly once, with no restart, logging the loss once per group")
  void flushAll() {
    EventLog log = log(noticing());
    String domain = fresh("dom");
    Map<Long, Integer> one = new ConcurrentHashMap<>();
    Map<Long, Integer> four = new ConcurrentHashMap<>();
    consume(log, domain, "one-at-a-time", counting(one));
    consumers.add(Await.result(log.consume(domain, "four-at-a-time", 4, counting(four))));
    List<Long> before = ids(append(log, domain, 5));
    await("the events before the flush", () -> one.keySet().containsAll(before) && four.keySet().containsAll(before));

    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(EventConsumer.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    try {
      Await.result(RedisNodes.flushAll(vertx, platform.redis()));
      // appended at once: some land in a stream that the flush emptied of its groups, before a consumer notices
      List<Long> after = ids(append(log, domain, 30));

      await("every event appended after the flush, in both groups",
          () -> one.keySet().containsAll(after) && four.keySet().containsAll(after));
      awaitNothingPending(domain, "one-at-a-time");
      awaitNothingPending(domain, "four-at-a-time");
      for (String group : List.of("one-at-a-time", "four-at-a-time")) {
        String gone = "Consumer group " + group + " of " + EventLog.stream(domain) + " is gone";
        assertEquals(1, lines.list.stream().filter(l -> l.getFormattedMessage().startsWith(gone)).count(),
            "one line for the loss of " + group);
      }
      assertAfterFlush(after, one, four);
    } finally {
      logger.detachAppender(lines);
    }
  }

  private static void assertAfterFlush(List<Long> after, Map<Long, Integer> one, Map<Long, Integer> four) {
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
    EventLog log = log(noticing());
    String domain = fresh("dom");
    String group = "destroyed";
    Map<Long, Integer> delivered = new ConcurrentHashMap<>();
    Map<Long, Integer> handled = new ConcurrentHashMap<>();
    Function<DomainEvent, Future<?>> guarded = log.once(group, counting(handled));
    consume(log, domain, group, e -> {
      delivered.merge(e.id(), 1, Integer::sum);
      return guarded.apply(e);
    });
    List<Long> before = ids(append(log, domain, 5));
    await("the events before the destroy", () -> handled.keySet().containsAll(before));
    awaitNothingPending(domain, group);

    assertEquals(1, Await.result(redis.xgroup(List.of("DESTROY", EventLog.stream(domain), group))).toInteger());
    List<Long> after = ids(append(log, domain, 5));

    await("the events appended after the destroy", () -> handled.keySet().containsAll(after));
    await("the events before the destroy read again from the stream's start",
        () -> before.stream().allMatch(id -> delivered.getOrDefault(id, 0) >= 2));
    awaitNothingPending(domain, group);
    assertEquals(10, handled.size(), String.valueOf(handled));
    assertTrue(handled.values().stream().allMatch(n -> n == 1), "each handled once: " + handled);
  }

  @Test
  @DisplayName("a group that Redis lost while none of its consumers ran handles, when one starts, the events "
      + "appended meanwhile")
  void lostWhileDown() {
    EventLog log = rememberingLog();
    String domain = fresh("dom");
    Map<Long, Integer> seen = new ConcurrentHashMap<>();
    EventConsumer first = Await.result(log.consume(domain, "restarted", counting(seen)));
    List<Long> before = ids(append(log, domain, 2));
    await("the events before the stop", () -> seen.keySet().containsAll(before));
    Await.result(first.stop());

    Await.result(RedisNodes.flushAll(vertx, platform.redis()));
    List<Long> meanwhile = ids(append(log, domain, 3));
    consume(log, domain, "restarted", counting(seen));
    List<Long> after = ids(append(log, domain, 2));

    await("the events appended while no consumer ran, and after",
        () -> seen.keySet().containsAll(meanwhile) && seen.keySet().containsAll(after));
    awaitNothingPending(domain, "restarted");
    assertEquals(7, seen.size(), String.valueOf(seen));
    assertTrue(seen.values().stream().allMatch(n -> n == 1), "each handled once: " + seen);
    log.close();
  }

  @Test
  @DisplayName("a group new to a deployment that remembers its groups starts at the stream's end: the events "
      + "appended before it are not replayed to it")
  void newGroupStartsAtTheEnd() {
    EventLog log = rememberingLog();
    String domain = fresh("dom");
    List<Long> old = ids(append(log, domain, 3));
    Map<Long, Integer> seen = new ConcurrentHashMap<>();

    consume(log, domain, "newcomer", counting(seen));
    List<Long> after = ids(append(log, domain, 2));

    await("the events appended after the start", () -> seen.keySet().containsAll(after));
    awaitNothingPending(domain, "newcomer");
    assertTrue(old.stream().noneMatch(seen::containsKey), "older events replayed: " + seen);
    log.close();
  }
}
