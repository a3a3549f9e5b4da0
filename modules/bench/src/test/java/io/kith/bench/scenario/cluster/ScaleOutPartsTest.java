package io.kith.bench.scenario.cluster;

import io.kith.bench.report.OperationStats;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scale-out scenario's maths and readings: ratios against the goals, /metrics and /proc/stat, costs per op. */
class ScaleOutPartsTest {

  private static final String METRICS = """
      # HELP vertx_eventbus_received_total Number of messages received
      # TYPE vertx_eventbus_received_total counter
      vertx_eventbus_received_total 120.0
      vertx_eventbus_received_total_extra 5.0
      # TYPE vertx_eventbus_bytes_read summary
      vertx_eventbus_bytes_read_count 30.0
      vertx_eventbus_bytes_read_sum 9000.0
      vertx_eventbus_sent_total{failure="none",note="a } in a value"} 7.0 1700000000000
      vertx_eventbus_sent_total{failure="TIMEOUT"} 2.0
      """;

  @Test
  @DisplayName("each added node's share of linear scaling: 3 nodes at 2x one node brought half a node each")
  void efficiency() {
    assertEquals(0.5, ScaleFigures.efficiencyPerAddedNode(2.0, 3), 1e-9);
    assertEquals(1.0, ScaleFigures.efficiencyPerAddedNode(3.0, 3), 1e-9);
    assertEquals(-0.25, ScaleFigures.efficiencyPerAddedNode(0.5, 3), 1e-9);
    assertTrue(Double.isNaN(ScaleFigures.efficiencyPerAddedNode(1.0, 1)));
    assertEquals(2.0, ScaleFigures.throughputGoal(3), 1e-9);
    assertEquals(1.5, ScaleFigures.throughputGoal(2), 1e-9);
  }

  @Test
  @DisplayName("per-round ratios pair each cluster slice with the one-node slice of its round, sorted")
  void perRound() {
    List<OperationStats> one = List.of(stats("1n", 100, 1), stats("1n", 200, 1));
    List<OperationStats> many = List.of(stats("3n", 150, 1), stats("3n", 100, 1));
    assertEquals(List.of(0.5, 1.5), ScaleFigures.perRoundRatios(one, many));
  }

  @Test
  @DisplayName("operations side by side share a window; slices one after another add their windows")
  void combine() {
    OperationStats a = stats("a", 100, 2);
    OperationStats b = stats("b", 300, 2);
    OperationStats mix = OperationStats.concurrent("mix", "both", List.of(a, b));
    assertEquals(400, mix.ok());
    assertEquals(200.0, mix.throughput(), 1e-9);
    OperationStats run = OperationStats.sequential("run", "slices", List.of(mix, mix));
    assertEquals(800, run.ok());
    assertEquals(4.0, run.windowSeconds(), 1e-9);
    assertEquals(200.0, run.throughput(), 1e-9);
    assertEquals(4, run.errors());
    assertEquals(Map.of("HTTP 503 unavailable", 4L), run.errorKinds());
  }

  @Test
  @DisplayName("a metric's samples are summed over label sets, whole names only, timestamps ignored")
  void metrics() {
    assertEquals(120.0, NodeSample.sum(METRICS, NodeSample.RECEIVED));
    assertEquals(30.0, NodeSample.sum(METRICS, NodeSample.READ_FROM_PEERS));
    assertEquals(9.0, NodeSample.sum(METRICS, NodeSample.SENT));
    assertEquals(0.0, NodeSample.sum(METRICS, NodeSample.PUBLISHED));
  }

  @Test
  @DisplayName("the machine's busy time is everything but idle and I/O wait on /proc/stat's cpu line")
  void machine() {
    assertArrayEquals(new long[] {60, 1000},
        NodeSample.busyAndTotal("cpu  30 5 20 900 40 3 2 0 0 0"));
    NodeSample before = new NodeSample(0, 0, Map.of("hazelcast", 10L), 0, 0, Map.of(), 100, 1000);
    NodeSample after = new NodeSample(10, 50, Map.of("hazelcast", 30L, "jit", 5L), 0, 0, Map.of(), 600, 2000);
    NodeSample used = after.minus(before);
    assertEquals(Map.of("hazelcast", 20L, "jit", 5L), used.threadNanos());
    assertEquals(0.5, used.machineBusyShare(), 1e-9);
    assertEquals(0.5, used.plus(used).machineBusyShare(), 1e-9);
    assertEquals(20, used.plus(used).wallNanos());
  }

  @Test
  @DisplayName("costs per operation divide what the processes used by the answered requests")
  void costs() {
    NodeSample used = new NodeSample(1_000_000_000L, 4_000_000_000L, Map.of("hazelcast", 400_000_000L), 200_000,
        1_000_000_000L, Map.of(NodeSample.RECEIVED, 4000.0, NodeSample.READ_FROM_PEERS, 1000.0), 1, 2);
    Map<String, Double> figures = new java.util.HashMap<>();
    ScaleFigures.costs("3n", 3, used, 1000).forEach(f -> figures.put(f.name(), f.value()));
    assertEquals(4.0, figures.get("3n node CPU/op"), 1e-9);
    assertEquals(0.4, figures.get("3n hazelcast/op"), 1e-9);
    assertEquals(0.0, figures.get("3n jit/op"), 1e-9);
    assertEquals(0.2, figures.get("3n redis CPU/op"), 1e-9);
    assertEquals(4.0, figures.get("3n bus msgs/op"), 1e-9);
    assertEquals(0.25, figures.get("3n bus remote share"), 1e-9);
    assertTrue(Double.isNaN(ScaleFigures.millisPerOp(5, 0)));
  }

  @Test
  @DisplayName("idle nodes are CPU time over wall time between slices, and unknown when never sampled idle")
  void idle() {
    NodeSample idle = new NodeSample(2_000_000_000L, 500_000_000L, Map.of(), 0, 0, Map.of(), 0, 0);
    assertEquals(0.25, ScaleFigures.idle("3n", idle).value(), 1e-9);
    assertTrue(Double.isNaN(ScaleFigures.idle("3n", null).value()));
  }

  /** {@code ok} answers of 1 ms in {@code seconds}, and one 503. */
  private static OperationStats stats(String name, int ok, int seconds) {
    Histogram latency = new Histogram(3_600_000_000L, 3);
    for (int i = 0; i < ok; i++) {
      latency.recordValue(1000);
    }
    return new OperationStats(name, name, ok + 1, 1, 0, 0, Map.of("HTTP 503 unavailable", 1L), latency,
        new Histogram(3_600_000_000L, 3), seconds * 1_000_000_000L);
  }
}
