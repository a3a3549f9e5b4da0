package io.kith.bench.load;

import io.kith.bench.jvm.KithCpu;
import io.kith.bench.report.OperationStats;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runner against in-memory operations: no server involved, only the scheduling and the accounting. */
class LoadRunnerTest {

  private Vertx vertx;
  private Context context;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private static LoadSettings openLoop(double rate, long warmupMs, long durationMs, Duration timeout, int maxInFlight) {
    return new LoadSettings(rate, false, Duration.ofMillis(warmupMs), Duration.ofMillis(durationMs), 4, timeout,
        maxInFlight);
  }

  private List<OperationStats> run(LoadSettings settings, List<Operation> ops) throws Exception {
    return new LoadRunner(vertx, context, settings, ProgressListener.NONE).run("test", ops).await(30, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("open loop sends exactly the scheduled number of requests per operation and leaves out the warm-up")
  void interleavesOperationsAtTheSameRate() throws Exception {
    AtomicInteger a = new AtomicInteger();
    AtomicInteger b = new AtomicInteger();
    List<OperationStats> stats = run(openLoop(200, 100, 500, Duration.ofSeconds(5), 1000), List.of(
        new Operation("a", "first", () -> {
          a.incrementAndGet();
          return Future.succeededFuture();
        }),
        new Operation("b", "second", () -> {
          b.incrementAndGet();
          return Future.succeededFuture();
        })));
    // 400 req/s together over 0.6 s = 240 requests, 20 warm-up and 100 measured for each operation.
    assertEquals(120, a.get());
    assertEquals(120, b.get());
    for (OperationStats s : stats) {
      assertEquals(100, s.sent(), s.name());
      assertEquals(100, s.ok(), s.name());
      assertEquals(0, s.failed(), s.name());
    }
    assertEquals(List.of("a", "b"), stats.stream().map(OperationStats::name).toList());
  }

  @Test
  @DisplayName("an operation with a rate of its own runs at that rate in the same phase, and each reports its rate")
  void operationsAtDifferentRates() throws Exception {
    AtomicInteger a = new AtomicInteger();
    AtomicInteger b = new AtomicInteger();
    List<OperationStats> stats = run(openLoop(200, 100, 500, Duration.ofSeconds(5), 1000), List.of(
        new Operation("a", "at the run's rate", () -> {
          a.incrementAndGet();
          return Future.succeededFuture();
        }),
        new Operation("b", "at 50 req/s", () -> {
          b.incrementAndGet();
          return Future.succeededFuture();
        }).atRate(50)));
    // Over 0.6 s: 200 req/s is 20 warm-up and 100 measured requests, 50 req/s is 5 and 25.
    assertEquals(120, a.get());
    assertEquals(30, b.get());
    assertEquals(100, stats.get(0).sent());
    assertEquals(100, stats.get(0).ok());
    assertEquals(25, stats.get(1).sent());
    assertEquals(25, stats.get(1).ok());
    assertEquals(200.0, stats.get(0).offeredRate());
    assertEquals(50.0, stats.get(1).offeredRate());
  }

  @Test
  @DisplayName("latency runs from the intended send time, so a stalled generator shows in the percentiles")
  void correctsForCoordinatedOmission() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    List<OperationStats> stats = run(openLoop(500, 0, 1000, Duration.ofSeconds(5), 10_000), List.of(
        new Operation("stall", "blocks the event loop once for 200 ms", () -> {
          if (calls.incrementAndGet() == 100) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            while (System.nanoTime() < until) {
              Thread.onSpinWait();
            }
          }
          return Future.succeededFuture();
        })));
    OperationStats s = stats.get(0);
    assertEquals(500, s.sent());
    assertEquals(500, s.ok());
    // The ~100 requests due during the stall were sent after it; measured from their intended times, their latencies
    // spread from ~200 ms down to ~0. Measured from the actual send they would all be near zero.
    assertTrue(s.maxMillis() >= 190, "max " + s.maxMillis());
    long slow = s.latencyMicros().getCountBetweenValues(100_000, Long.MAX_VALUE / 4);
    assertTrue(slow >= 40, "requests slower than 100 ms: " + slow);
    assertTrue(s.sendLagMillis(100) >= 190, "the send lag shows the stall too");
  }

  @Test
  @DisplayName("a response delayed by the target is measured, and failures are counted apart with their message")
  void measuresDelaysAndCountsErrors() throws Exception {
    AtomicInteger n = new AtomicInteger();
    List<OperationStats> stats = run(openLoop(100, 0, 500, Duration.ofSeconds(5), 1000), List.of(
        new Operation("slow", "answers after 30 ms", () -> {
          Promise<Void> p = Promise.promise();
          vertx.setTimer(30, t -> p.complete());
          return p.future();
        }),
        new Operation("flaky", "every other request fails", () -> n.incrementAndGet() % 2 == 0
            ? Future.failedFuture("HTTP 500")
            : Future.succeededFuture())));
    OperationStats slow = stats.get(0);
    assertEquals(50, slow.ok());
    assertTrue(slow.percentileMillis(50) >= 29, "p50 " + slow.percentileMillis(50));
    OperationStats flaky = stats.get(1);
    assertEquals(50, flaky.sent());
    assertEquals(25, flaky.errors());
    assertEquals(25, flaky.ok());
    assertEquals(25L, flaky.errorKinds().get("HTTP 500"));
  }

  @Test
  @DisplayName("requests that never answer time out, and beyond the in-flight cap due requests are dropped")
  void timesOutAndDrops() throws Exception {
    List<OperationStats> stats = run(openLoop(200, 0, 500, Duration.ofMillis(100), 5), List.of(
        new Operation("silent", "never answers", () -> Promise.promise().future())));
    OperationStats s = stats.get(0);
    assertEquals(100, s.sent() + s.dropped(), "every scheduled request is either sent or dropped");
    assertEquals(s.sent(), s.timeouts(), "every sent request timed out");
    assertTrue(s.dropped() > 0, "the cap of 5 in flight dropped requests");
    assertEquals(0, s.ok());
    assertTrue(Double.isNaN(s.percentileMillis(50)));
  }

  @Test
  @DisplayName("closed loop keeps exactly the configured number of requests in flight")
  void closedLoopKeepsConcurrency() throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger highest = new AtomicInteger();
    LoadSettings settings = new LoadSettings(0, true, Duration.ofMillis(50), Duration.ofMillis(300), 3,
        Duration.ofSeconds(60), 1);
    List<OperationStats> stats = run(settings, List.of(new Operation("x", "answers after 2 ms", () -> {
      highest.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      Promise<Void> p = Promise.promise();
      vertx.setTimer(2, t -> {
        inFlight.decrementAndGet();
        p.complete();
      });
      return p.future();
    })));
    assertEquals(3, highest.get());
    // How many fit in 300 ms depends on the machine; that each completion is followed by the next request does not:
    // more than the three first requests were measured, and every measured request was answered.
    assertTrue(stats.get(0).ok() > 3, "ok " + stats.get(0).ok());
    assertEquals(stats.get(0).sent(), stats.get(0).ok());
    assertTrue(Double.isNaN(stats.get(0).offeredRate()), "closed loop offers no rate");
    assertEquals(0, stats.get(0).failed());
  }

  @Test
  @DisplayName("an operation that throws counts as an error instead of stopping the run")
  void throwingOperationIsAnError() throws Exception {
    List<OperationStats> stats = run(openLoop(100, 0, 200, Duration.ofSeconds(1), 100), List.of(
        new Operation("boom", "throws", () -> {
          throw new IllegalStateException("boom");
        })));
    assertEquals(20, stats.get(0).errors());
    assertEquals(20L, stats.get(0).errorKinds().get("boom"));
  }

  @Test
  @DisplayName("a runner with other settings runs its phases on the same context, with those settings")
  void withOtherSettings() throws Exception {
    LoadRunner open = new LoadRunner(vertx, context, openLoop(100, 0, 200, Duration.ofSeconds(1), 100),
        ProgressListener.NONE);
    LoadSettings closed = new LoadSettings(0, true, Duration.ZERO, Duration.ofMillis(100), 2, Duration.ofSeconds(5), 1);
    LoadRunner other = open.with(closed);
    assertSame(closed, other.settings());
    AtomicInteger elsewhere = new AtomicInteger();
    List<OperationStats> stats = other.run("closed", List.of(new Operation("x", "answers at once", () -> {
      if (Vertx.currentContext() != context) {
        elsewhere.incrementAndGet();
      }
      return Future.succeededFuture();
    }))).await(30, TimeUnit.SECONDS);
    assertEquals(0, elsewhere.get(), "every request is sent on the runner's context");
    assertTrue(Double.isNaN(stats.get(0).offeredRate()), "closed loop offers no rate");
    assertEquals(0, stats.get(0).failed());
  }

  @Test
  @DisplayName("every operation of a phase carries Kith's CPU over the phase's answers, shared by the phase's operations")
  void cpuPerPhase() throws Exception {
    // Work the generator does not do: a thread outside the runner's Vert.x burns CPU that must count as Kith's.
    Thread kith = new Thread(() -> {
      long until = System.nanoTime() + 300_000_000L;
      double x = 0;
      while (System.nanoTime() < until) {
        x += Math.sqrt(x + 1);
      }
      if (x < 0) {
        throw new AssertionError();
      }
    }, "pretend-kith");
    LoadRunner runner = new LoadRunner(vertx, context, openLoop(100, 0, 600, Duration.ofSeconds(5), 1000),
        ProgressListener.NONE, KithCpu.inProcess(vertx));
    Future<List<OperationStats>> phase = runner.run("cpu", List.of(
        new Operation("a", "first", () -> Future.succeededFuture()),
        new Operation("b", "second", () -> Future.succeededFuture())));
    kith.start();
    kith.join();
    List<OperationStats> stats = phase.await(30, TimeUnit.SECONDS);
    OperationStats.Cpu cpu = stats.get(0).cpu();
    assertSame(cpu, stats.get(1).cpu());
    assertEquals(List.of("a", "b"), cpu.operations());
    assertEquals(stats.get(0).ok() + stats.get(1).ok(), cpu.requests());
    assertTrue(cpu.nanos() > 0 && cpu.millisPerRequest() > 0, cpu.toString());

    List<OperationStats> unmeasured = run(openLoop(100, 0, 100, Duration.ofSeconds(5), 1000),
        List.of(new Operation("c", "third", () -> Future.succeededFuture())));
    assertEquals(null, unmeasured.get(0).cpu());
  }
}
