package io.kith.platform.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bounds on a registry: fixed buckets and capped tag values. */
class MeterBoundsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void setUp() {
    MeterBounds.apply(registry);
  }

  @Test
  @DisplayName("a timer asking for a percentile histogram gets the fixed SLO buckets instead")
  void fixedBuckets() {
    Timer timer = Timer.builder("t").publishPercentileHistogram().publishPercentiles(0.99).register(registry);
    timer.record(Duration.ofMillis(30));
    CountAtBucket[] buckets = timer.takeSnapshot().histogramCounts();
    double[] bounds = Arrays.stream(buckets).mapToDouble(b -> b.bucket(TimeUnit.SECONDS))
        .toArray();
    assertArrayEquals(new double[] {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}, bounds, 1e-9);
    assertEquals(0, timer.takeSnapshot().percentileValues().length);
  }

  @Test
  @DisplayName("a route tag keeps its first 300 values and counts the rest as other; an empty route is unmatched")
  void cappedRoutes() {
    for (int i = 0; i < 400; i++) {
      Counter.builder("requests").tag("route", "/r/" + i).register(registry).increment();
    }
    Counter.builder("requests").tag("route", "").register(registry).increment();
    Set<String> routes = new TreeSet<>();
    for (Meter meter : registry.find("requests").meters()) {
      routes.add(meter.getId().getTag("route"));
    }
    assertEquals(302, routes.size());
    assertTrue(routes.contains(MeterBounds.OTHER) && routes.contains(MeterBounds.UNMATCHED), routes.toString());
    assertEquals(100, registry.get("requests").tag("route", MeterBounds.OTHER).counter().count());
    // a value kept before the cap was reached stays itself
    Counter.builder("requests").tag("route", "/r/7").register(registry).increment();
    assertEquals(2, registry.get("requests").tag("route", "/r/7").counter().count());
  }

  @Test
  @DisplayName("tags that are not capped keep every value")
  void otherTagsUntouched() {
    for (int i = 0; i < 400; i++) {
      Counter.builder("c").tag("pool", "p" + i).register(registry).increment();
    }
    assertEquals(400, registry.find("c").meters().size());
  }
}
