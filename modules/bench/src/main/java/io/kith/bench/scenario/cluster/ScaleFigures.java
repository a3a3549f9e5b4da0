package io.kith.bench.scenario.cluster;

import io.kith.bench.jvm.ThreadCpu;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The scale-out scenario's arithmetic: how the cluster's throughput and tail compare with one node's, and what each
 * configuration's processes spent per operation. Pure, so that it is tested without starting a node.
 */
final class ScaleFigures {

  /** The goal: each added node brings at least half a node's throughput. */
  static final double EFFICIENCY_GOAL = 0.5;
  /** The goal: the cluster's p99 at most three times one node's. */
  static final double P99_GOAL = 3.0;

  private ScaleFigures() {
  }

  /**
   * The share of linear scaling each added node brought: 1.0 when {@code nodes} nodes serve {@code nodes} times one
   * node's throughput, 0 when they serve what one node does, negative when less. NaN for fewer than two nodes.
   */
  static double efficiencyPerAddedNode(double throughputRatio, int nodes) {
    return nodes < 2 ? Double.NaN : (throughputRatio - 1) / (nodes - 1);
  }

  /** The throughput ratio that meets {@link #EFFICIENCY_GOAL} with {@code nodes} nodes (2.0 for three). */
  static double throughputGoal(int nodes) {
    return 1 + EFFICIENCY_GOAL * (nodes - 1);
  }

  /**
   * The ratio of each round's two slices, {@code many} over {@code one} throughput, sorted: a round's slices ran
   * next to each other, so their ratio is less exposed to the machine's drift than the totals are.
   */
  static List<Double> perRoundRatios(List<OperationStats> one, List<OperationStats> many) {
    List<Double> ratios = new ArrayList<>();
    for (int r = 0; r < Math.min(one.size(), many.size()); r++) {
      ratios.add(many.get(r).throughput() / one.get(r).throughput());
    }
    ratios.sort(null);
    return ratios;
  }

  /** Milliseconds per operation of {@code nanos} over {@code ops} operations; NaN without operations. */
  static double millisPerOp(double nanos, long ops) {
    return ops <= 0 ? Double.NaN : nanos / 1e6 / ops;
  }

  /**
   * The cores a configuration's nodes kept busy while it had no load (between its slices; heartbeats, the event log's
   * consumers, the JIT finishing): a cost that does not scale with requests, NaN when never sampled idle.
   */
  static Figure idle(String name, NodeSample idle) {
    double cores = idle == null || idle.wallNanos() <= 0 ? Double.NaN : (double) idle.nodeNanos() / idle.wallNanos();
    return Figure.of(name + " idle nodes", cores, "cores", "CPU time of the nodes per second of wall time while "
        + "the other configuration was measured");
  }

  /** What one configuration's processes spent per answered request of its mix, as figures. */
  static List<Figure> costs(String name, int size, NodeSample used, long ops) {
    List<Figure> figures = new ArrayList<>();
    String nodes = size + " node" + (size == 1 ? "" : "s");
    figures.add(Figure.of(name + " node CPU/op", millisPerOp(used.nodeNanos(), ops), "ms", "CPU time of the "
        + nodes + " (all their threads) per answered request: the figure that carries over to one machine per "
        + "node"));
    for (String group : List.of(ThreadCpu.EVENT_LOOPS, ThreadCpu.WORKERS, ThreadCpu.HAZELCAST, ThreadCpu.JIT,
        ThreadCpu.GC_VM, ThreadCpu.OTHER)) {
      figures.add(Figure.of(name + " " + group + "/op", millisPerOp(used.threadNanos().getOrDefault(group, 0L), ops),
          "ms", "CPU time of the nodes' " + group + " threads per answered request"));
    }
    figures.add(Figure.of(name + " redis CPU/op", millisPerOp(used.redisMicros() * 1000, ops), "ms",
        "CPU time of the configuration's redis-server per answered request"));
    figures.add(Figure.of(name + " bench CPU/op", millisPerOp(used.benchNanos(), ops), "ms", "CPU time of the "
        + "bench's JVM (the load generator and the shared MongoDB-wire server) per answered request"));
    double received = used.eventBus().getOrDefault(NodeSample.RECEIVED, 0.0);
    double fromPeers = used.eventBus().getOrDefault(NodeSample.READ_FROM_PEERS, 0.0);
    figures.add(Figure.of(name + " bus msgs/op", received / ops, "msgs", "event-bus messages the nodes "
        + "received (service calls, event-log wake-ups, pushes; replies not counted) per answered request"));
    figures.add(Figure.of(name + " bus remote/op", fromPeers / ops, "msgs", "of those, messages that came from "
        + "another node (read off the cluster's TCP connections)"));
    figures.add(Figure.of(name + " bus remote share", received <= 0 ? Double.NaN : fromPeers / received, "",
        "the share of received event-bus messages that crossed nodes; the rest stayed in their node"));
    figures.add(Figure.of(name + " machine busy", used.machineBusyShare(), "", String.format(Locale.ROOT,
        "share of the machine's CPU time busy during the configuration's slices, anyone's work (%d cores)",
        Runtime.getRuntime().availableProcessors())));
    return figures;
  }
}
