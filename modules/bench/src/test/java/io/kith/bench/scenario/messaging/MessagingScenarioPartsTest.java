package io.kith.bench.scenario.messaging;

import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.ScenarioResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The figures of the messaging scenarios from given measurements: ratios, goals and per-connection heap. */
class MessagingScenarioPartsTest {

  private static final long TEN_SECONDS = 10_000_000_000L;

  /** {@code count} latencies of 1..count µs times {@code factor}, over ten seconds. */
  private static OperationStats op(String name, int count, int factor, long timeouts, double offered) {
    Histogram h = new Histogram(600_000_000L, 3);
    for (int i = 1; i <= count; i++) {
      h.recordValue((long) i * factor);
    }
    return new OperationStats(name, name, count + timeouts, 0, timeouts, 0, Map.of(), h,
        new Histogram(600_000_000L, 3), TEN_SECONDS, offered);
  }

  private static Map<String, Figure> byName(List<Figure> figures) {
    return figures.stream().collect(Collectors.toMap(Figure::name, Function.identity()));
  }

  @Test
  @DisplayName("a percentile counting failures as slowest moves up within the answers, and is n/a past them")
  void percentileCountingFailures() {
    assertEquals(0.99, MessagingDirectScenario.percentileCountingFailures(op("a", 1000, 1, 0, 100), 99), 1e-9);
    // 10 timeouts in 1,010: the p99 over all is the 999.9th of the 1,000 answers
    assertEquals(1.0, MessagingDirectScenario.percentileCountingFailures(op("a", 1000, 1, 10, 100), 99), 1e-9);
    assertEquals(0.5, MessagingDirectScenario.percentileCountingFailures(op("a", 1000, 1, 0, 100), 50), 1e-9);
    // 20 timeouts in 1,020: more than 1 % failed, so the p99 is beyond every answer
    assertTrue(Double.isNaN(MessagingDirectScenario.percentileCountingFailures(op("a", 1000, 1, 20, 100), 99)));
    assertTrue(Double.isNaN(MessagingDirectScenario.percentileCountingFailures(op("a", 0, 1, 5, 100), 50)));
  }

  @Test
  @DisplayName("the throughput ratio is direct max over echo max, held to 0.5; the half-max p99 is held to 50 ms")
  void messagingFigures() {
    List<OperationStats> table = List.of(
        op(MessagingDirectScenario.ECHO_MAX, 100_000, 1, 0, Double.NaN), // 10,000/s
        op(MessagingDirectScenario.DIRECT_MAX, 6_000, 10, 0, Double.NaN), // 600/s
        op(MessagingDirectScenario.DIRECT_HALF, 3_000, 20, 0, 300)); // p99 = 59.4 ms
    List<String> notes = new ArrayList<>();
    Map<String, Figure> f = byName(MessagingDirectScenario.figures(table, 32, notes));
    assertEquals(10_000, f.get("ws-echo max").value(), 1e-6);
    assertEquals(600, f.get("direct max").value(), 1e-6);
    Figure ratio = f.get("direct/ws-echo max throughput");
    assertEquals(0.06, ratio.value(), 1e-9);
    assertEquals(">= 0.5", ratio.goal().describe());
    assertFalse(ratio.met());
    assertEquals(300, f.get("half-max rate").value(), 1e-9);
    Figure p99 = f.get("direct p99 at half max");
    assertEquals(59.4, p99.value(), 0.1);
    assertEquals("<= 50", p99.goal().describe());
    assertFalse(p99.met());
    assertTrue(notes.stream().anyMatch(n -> n.startsWith("throughput: direct max / ws-echo max = 600.0 / 10,000 msg/s "
        + "= 0.060 (goal >= 0.500: MISSED)")), notes.toString());

    List<OperationStats> fast = List.of(
        op(MessagingDirectScenario.ECHO_MAX, 100_000, 1, 0, Double.NaN),
        op(MessagingDirectScenario.DIRECT_MAX, 60_000, 1, 0, Double.NaN),
        op(MessagingDirectScenario.DIRECT_HALF, 30_000, 1, 0, 3000));
    Map<String, Figure> g = byName(MessagingDirectScenario.figures(fast, 32, new ArrayList<>()));
    assertTrue(g.get("direct/ws-echo max throughput").met());
    assertTrue(g.get("direct p99 at half max").met());
  }

  @Test
  @DisplayName("CPU costs give a CPU-bound throughput ratio and rate, and a low machine share is explained")
  void cpuFigures() {
    List<String> notes = new ArrayList<>();
    Map<String, Figure> f = byName(MessagingDirectScenario.cpuFigures(
        new MessagingDirectScenario.CpuCost(0.05, 0.95), new MessagingDirectScenario.CpuCost(5.0, 0.5), 2, notes));
    assertEquals(0.01, f.get("direct/ws-echo by CPU cost").value(), 1e-12);
    assertEquals(400, f.get("direct max if CPU-bound").value(), 1e-9);
    assertEquals(0.5, f.get("machine share, direct-max").value());
    assertTrue(notes.get(0).startsWith("during direct-max these processes used 50 % of the machine's 2 cores"),
        notes.toString());
    List<String> none = new ArrayList<>();
    MessagingDirectScenario.cpuFigures(new MessagingDirectScenario.CpuCost(0.05, 0.95),
        new MessagingDirectScenario.CpuCost(5.0, 0.9), 2, none);
    assertTrue(none.isEmpty());
  }

  @Test
  @DisplayName("without a half-max phase there are no half-max figures")
  void noHalfMax() {
    List<OperationStats> table = List.of(op(MessagingDirectScenario.ECHO_MAX, 1000, 1, 0, Double.NaN),
        op(MessagingDirectScenario.DIRECT_MAX, 0, 1, 3, Double.NaN));
    Map<String, Figure> f = byName(MessagingDirectScenario.figures(table, 4, new ArrayList<>()));
    assertEquals(0.0, f.get("direct/ws-echo max throughput").value());
    assertNull(f.get("direct p99 at half max"));
  }

  @Test
  @DisplayName("heap per connection is the growth between readings over the connections, server and client apart")
  void idleHeapFigures() {
    long mib = 1024 * 1024;
    BridgeIdleHeapScenario.Readings readings = new BridgeIdleHeapScenario.Readings(
        100 * mib, 110 * mib, 50 * mib, 60 * mib, 101 * mib, 121 * mib, 51 * mib, 56 * mib, 101 * mib + 1000 * 16);
    ScenarioResult result = BridgeIdleHeapScenario.result(readings, 1000, 100);
    Map<String, Figure> f = byName(result.figures());
    assertEquals(20 * mib / 1000.0, f.get("server heap per bridge connection").value(), 1e-9);
    assertEquals(10 * mib / 1000.0, f.get("server heap per raw WebSocket").value(), 1e-9);
    assertEquals(2.0, f.get("bridge/raw WebSocket heap").value(), 1e-9);
    assertEquals(20.0, f.get("server heap, all bridge connections").value(), 1e-9);
    assertEquals(16.0, f.get("left after closing, per connection").value(), 1e-9);
    assertEquals(5 * mib / 1000.0, f.get("client heap per bridge connection").value(), 1e-9);
    assertEquals(10 * mib / 1000.0, f.get("client heap per raw WebSocket").value(), 1e-9);
    assertTrue(result.operations().isEmpty());
    assertEquals("largest growth by class, per bridge connection (bytes, objects): byte[] 2,000 (20.00); "
        + "java.lang.String 48.0 (2.00)", BridgeIdleHeapScenario.breakdown("per bridge connection", List.of(
            new io.kith.bench.jvm.ClassHistogram.Growth("[B", 20, 2000),
            new io.kith.bench.jvm.ClassHistogram.Growth("java.lang.String", 2, 48))));
    assertEquals("largest growth by class, per raw WebSocket (bytes, objects): nothing grew",
        BridgeIdleHeapScenario.breakdown("per raw WebSocket", List.of()));
  }
}
