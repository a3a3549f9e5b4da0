package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.metrics.KithMetrics;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The event log's gauges, read by explicit polls (the periodic one is set far beyond the test). */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Event log gauges")
class EventLogMetricsTest {

  private Vertx vertx;
  private Platform platform;
  private EventLog log;
  private EventLogMetrics gauges;
  private final KithMetrics metrics = new KithMetrics(new SimpleMeterRegistry());
  private EventConsumer consumer;
  // what the stuck handler waits for: released before the consumer stops, so that its stop does not wait forever
  private final Promise<Void> release = Promise.promise();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    platform = Await.result(KithTestKit.platform(vertx));
    // one entry read at a time, never claimed, and no outbox drain while the test runs
    log = new EventLog(vertx, platform.redis(), platform.ids(),
        new EventLogOptions(10_000, 600_000, 1, 500, 10, 3_600, 3_600_000), new EventOutbox(platform.mongo()));
    gauges = new EventLogMetrics(vertx, log, metrics, 3_600_000);
  }

  @AfterEach
  void tearDown() {
    gauges.close();
    release.tryComplete();
    if (consumer != null) {
      Await.result(consumer.stop());
    }
    log.close();
    Await.result(platform.close());
  }

  private double gauge(String name, String domain, String group) {
    return metrics.registry().get(name).tags("stream", EventLog.stream(domain), "group", group).gauge().value();
  }

  @Test
  @DisplayName("lag counts the entries not yet delivered to a group, pending those delivered and not acknowledged, "
      + "and the backlog both")
  void lagAndPending() {
    String domain = "metrics" + UUID.randomUUID().toString().substring(0, 8);
    String group = "stuck";
    // a handler that does not finish during the test: the first entry stays pending, the consumer takes no other
    consumer = Await.result(log.consume(domain, group, e -> release.future()));
    for (int i = 0; i < 5; i++) {
      Await.result(log.append(domain, "ThingHappened", new JsonObject().put("n", i)));
    }
    Await.result(Poll.until(vertx, Duration.ofSeconds(20), "one entry pending and four waiting", () -> gauges.poll()
        .map(v -> gauge(KithMetrics.EVENTLOG_PENDING, domain, group) == 1
            && gauge(KithMetrics.EVENTLOG_LAG, domain, group) == 4)));
    assertEquals(5, gauges.backlog(domain, group));
    assertEquals(0, gauges.backlog(domain, "no-such-group"));
  }

  @Test
  @DisplayName("the outbox size is the number of events parked in MongoDB")
  void outboxSize() {
    Await.result(gauges.poll());
    double before = metrics.registry().get(KithMetrics.OUTBOX_SIZE).gauge().value();
    EventOutbox outbox = log.outbox();
    for (int i = 0; i < 2; i++) {
      Await.result(outbox.park(new DomainEvent(platform.ids().next(), "metrics", "ThingHappened",
          System.currentTimeMillis(), new JsonObject())));
    }
    Await.result(gauges.poll());
    assertEquals(before + 2, metrics.registry().get(KithMetrics.OUTBOX_SIZE).gauge().value());
    Await.result(outbox.drain(10, event -> Future.succeededFuture()));
  }
}
