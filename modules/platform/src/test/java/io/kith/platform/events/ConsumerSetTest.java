package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
@DisplayName("A set of event consumers started and stopped together")
class ConsumerSetTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private Vertx vertx;
  private Platform platform;
  private final List<ConsumerSet> sets = new ArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    platform = Await.result(KithTestKit.platform(vertx));
  }

  @AfterEach
  void tearDown() {
    sets.forEach(ConsumerSet::stop);
    Await.result(platform.close());
  }

  private static String fresh(String what) {
    return what + "-" + UUID.randomUUID().toString().substring(0, 13);
  }

  /** A log whose reads block far longer than a test waits and that claims nothing: stopping must end a read. */
  private EventLog log() {
    EventLogOptions options = EventLogOptions.from(new JsonObject()).withClaimAfter(600_000).withBlock(120_000);
    return new EventLog(vertx, platform.redis(), platform.ids(), options);
  }

  private ConsumerSet set(EventLog log) {
    ConsumerSet set = new ConsumerSet(log);
    sets.add(set);
    return set;
  }

  private static Function<DomainEvent, Future<?>> into(List<Long> seen) {
    return e -> {
      seen.add(e.id());
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

  @Test
  @DisplayName("each consumer of a set handles every event of its stream once, and records it as done for its group")
  void consumersHandleEachEventOnce() {
    EventLog log = log();
    String first = fresh("dom");
    String second = fresh("dom");
    String group = fresh("grp");
    List<Long> seenFirst = new CopyOnWriteArrayList<>();
    List<Long> seenSecond = new CopyOnWriteArrayList<>();
    ConsumerSet set = set(log);
    Await.result(set.once(first, group, into(seenFirst)));
    Await.result(set.once(second, group, 4, into(seenSecond)));

    List<Long> appendedFirst = append(log, first, 5);
    List<Long> appendedSecond = append(log, second, 5);

    await("both consumers to handle their five events",
        () -> seenFirst.containsAll(appendedFirst) && seenSecond.containsAll(appendedSecond));
    assertEquals(appendedFirst, seenFirst, "the first stream's events once each, in order");
    assertEquals(5, seenSecond.size(), "the concurrent consumer handled each event once: " + seenSecond);
    // the once() guard of the group is written after each handler: a redelivery would be skipped
    for (long id : appendedFirst) {
      String done = "events:done:{" + group + "}:" + id;
      Await.result(Poll.until(vertx, WAIT, "the done record " + done,
          () -> platform.redisApi().exists(List.of(done)).map(r -> r.toInteger() == 1)));
    }
  }

  @Test
  @DisplayName("stopping a set stops every consumer it started: later events go to the rest of their groups")
  void stopStopsEveryConsumer() {
    EventLog log = log();
    String first = fresh("dom");
    String second = fresh("dom");
    String group = fresh("grp");
    List<Long> bySet = new CopyOnWriteArrayList<>();
    List<Long> byRest = new CopyOnWriteArrayList<>();
    ConsumerSet stopped = set(log);
    Await.result(stopped.once(first, group, into(bySet)));
    Await.result(stopped.once(second, group, 2, into(bySet)));
    ConsumerSet rest = set(log);
    Await.result(rest.once(first, group, into(byRest)));
    Await.result(rest.once(second, group, into(byRest)));

    Await.result(stopped.stop());
    List<Long> appended = new ArrayList<>(append(log, first, 3));
    appended.addAll(append(log, second, 3));

    await("the rest of the groups to handle the six new events", () -> byRest.containsAll(appended));
    assertTrue(bySet.isEmpty(), "the stopped set handled " + bySet);
  }

  @Test
  @DisplayName("an invalid group name is refused before anything starts, and a set with nothing started stops at once")
  void invalidGroupRefused() {
    ConsumerSet set = set(log());

    assertThrows(IllegalArgumentException.class, () -> set.once(fresh("dom"), "no spaces allowed", e -> null));
    assertThrows(IllegalArgumentException.class, () -> set.once("", fresh("grp"), e -> null));

    Await.result(set.stop());
  }
}
