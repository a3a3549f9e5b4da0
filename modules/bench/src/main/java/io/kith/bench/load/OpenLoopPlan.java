package io.kith.bench.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The open-loop schedule of one phase whose operations may run at different rates.
 *
 * <p>Operations with the same rate share a <em>lane</em>: one {@link OpenLoopSchedule} at {@code rate × operations}
 * requests per second, in rounds that hold each operation of the lane once, in an order shuffled per round. So
 * operations at the same rate are interleaved exactly as in a single-rate phase, and an operation at another rate (a
 * background load, say) runs on its own lane beside them. All lanes start at the same instant and share the warm-up
 * and the measured window. A {@link Cursor} walks the requests of every lane in intended-time order, which keeps the
 * runner's queue of pending requests sorted by intended time.
 *
 * <p>The plan itself is immutable; each cursor holds its own position and shuffle state, so the pacer thread and the
 * event loop can each walk the plan with a cursor of their own.
 */
final class OpenLoopPlan {

  /** Operations sharing one rate, on one schedule. */
  private record Lane(OpenLoopSchedule schedule, int[] operations) {
  }

  private final Lane[] lanes;
  private final long startNanos;
  private final long warmupNanos;
  private final long measureNanos;

  /**
   * @param startNanos   the {@link System#nanoTime()} at which the first request of every lane is due
   * @param rates        requests per second of each operation, by operation index; each positive
   * @param warmupNanos  length of the unrecorded warm-up, zero or more
   * @param measureNanos length of the recorded part, positive
   */
  OpenLoopPlan(long startNanos, double[] rates, long warmupNanos, long measureNanos) {
    if (rates.length == 0) {
      throw new IllegalArgumentException("a plan needs at least one operation");
    }
    Map<Double, List<Integer>> byRate = new LinkedHashMap<>();
    for (int op = 0; op < rates.length; op++) {
      if (!(rates[op] > 0) || Double.isInfinite(rates[op])) {
        throw new IllegalArgumentException("rate of operation " + op + " must be a positive number, got " + rates[op]);
      }
      byRate.computeIfAbsent(rates[op], r -> new ArrayList<>()).add(op);
    }
    List<Lane> built = new ArrayList<>();
    byRate.forEach((rate, ops) -> built.add(new Lane(
        new OpenLoopSchedule(startNanos, rate * ops.size(), warmupNanos, measureNanos),
        ops.stream().mapToInt(Integer::intValue).toArray())));
    this.lanes = built.toArray(new Lane[0]);
    this.startNanos = startNanos;
    this.warmupNanos = warmupNanos;
    this.measureNanos = measureNanos;
  }

  /** How many lanes (distinct rates) the plan has. */
  int lanes() {
    return lanes.length;
  }

  /** How many requests the plan holds, all lanes together. */
  long total() {
    long total = 0;
    for (Lane lane : lanes) {
      total += lane.schedule().total();
    }
    return total;
  }

  /** The {@link System#nanoTime()} at which recording starts. */
  long measureStartNanos() {
    return startNanos + warmupNanos;
  }

  /** The {@link System#nanoTime()} at which the plan ends. */
  long endNanos() {
    return startNanos + warmupNanos + measureNanos;
  }

  /** A cursor at the first request; {@code seed} decides the shuffled order of operations within rounds. */
  Cursor cursor(long seed) {
    return new Cursor(seed);
  }

  /**
   * A position in the plan: the earliest request not yet consumed, over all lanes (ties go to the lane created
   * first). Not thread-safe; each thread walks with its own cursor.
   */
  final class Cursor {
    private final long[] next = new long[lanes.length];
    private final int[][] order = new int[lanes.length][];
    private final long[] orderRound = new long[lanes.length];
    private final SplittableRandom[] shuffles = new SplittableRandom[lanes.length];
    private int current = -1;

    private Cursor(long seed) {
      SplittableRandom root = new SplittableRandom(seed);
      for (int l = 0; l < lanes.length; l++) {
        order[l] = new int[lanes[l].operations().length];
        orderRound[l] = -1;
        shuffles[l] = root.split();
      }
      locate();
    }

    /** Whether every request has been consumed. */
    boolean done() {
      return current < 0;
    }

    /** The intended send time of the current request, or {@link Long#MAX_VALUE} when done. */
    long intendedNanos() {
      return current < 0 ? Long.MAX_VALUE : lanes[current].schedule().intendedNanos(next[current]);
    }

    /** Whether the current request belongs to the warm-up. */
    boolean warmup() {
      requireCurrent();
      return lanes[current].schedule().isWarmup(next[current]);
    }

    /** The operation index of the current request. */
    int operation() {
      requireCurrent();
      int l = current;
      int[] ops = lanes[l].operations();
      int n = ops.length;
      long index = next[l];
      long round = index / n;
      if (round != orderRound[l]) {
        orderRound[l] = round;
        int[] o = order[l];
        for (int i = 0; i < n; i++) {
          o[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
          int j = shuffles[l].nextInt(i + 1);
          int t = o[i];
          o[i] = o[j];
          o[j] = t;
        }
      }
      return ops[order[l][(int) (index % n)]];
    }

    /** Moves to the next request in intended-time order. */
    void advance() {
      requireCurrent();
      next[current]++;
      locate();
    }

    /**
     * Consumes every request due at {@code nowNanos} in every lane at once (the pacer's use: it needs only the time
     * of the next request, never the operations skipped).
     */
    void skipDue(long nowNanos) {
      for (int l = 0; l < lanes.length; l++) {
        next[l] = Math.max(next[l], lanes[l].schedule().dueCount(nowNanos));
      }
      locate();
    }

    private void locate() {
      current = -1;
      long earliest = Long.MAX_VALUE;
      for (int l = 0; l < lanes.length; l++) {
        OpenLoopSchedule s = lanes[l].schedule();
        if (next[l] < s.total()) {
          long t = s.intendedNanos(next[l]);
          if (current < 0 || t < earliest) {
            current = l;
            earliest = t;
          }
        }
      }
    }

    private void requireCurrent() {
      if (current < 0) {
        throw new IllegalStateException("the plan has no more requests");
      }
    }
  }
}
