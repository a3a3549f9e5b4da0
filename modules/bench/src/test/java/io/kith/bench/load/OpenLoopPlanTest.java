package io.kith.bench.load;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenLoopPlanTest {

  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;

  /** One request as a cursor yields it. */
  private record Request(int op, long intendedNanos, boolean warmup) {
  }

  private static List<Request> walk(OpenLoopPlan plan) {
    List<Request> all = new ArrayList<>();
    OpenLoopPlan.Cursor cursor = plan.cursor(7);
    while (!cursor.done()) {
      all.add(new Request(cursor.operation(), cursor.intendedNanos(), cursor.warmup()));
      cursor.advance();
    }
    return all;
  }

  private static long count(List<Request> requests, int op, boolean warmup) {
    return requests.stream().filter(r -> r.op() == op && r.warmup() == warmup).count();
  }

  @Test
  @DisplayName("operations at the same rate share one schedule at the summed rate, each once per round")
  void sameRateIsOneInterleavedLane() {
    long start = 1_000 * S;
    OpenLoopPlan plan = new OpenLoopPlan(start, new double[] {100, 100, 100}, 0, S);
    assertEquals(1, plan.lanes());
    OpenLoopSchedule single = new OpenLoopSchedule(start, 300, 0, S);
    List<Request> requests = walk(plan);
    assertEquals(single.total(), requests.size());
    for (int i = 0; i < requests.size(); i++) {
      assertEquals(single.intendedNanos(i), requests.get(i).intendedNanos(), "request " + i);
    }
    for (int round = 0; round < requests.size() / 3; round++) {
      Set<Integer> ops = new HashSet<>();
      for (int i = 0; i < 3; i++) {
        ops.add(requests.get(round * 3 + i).op());
      }
      assertEquals(Set.of(0, 1, 2), ops, "round " + round);
    }
  }

  @Test
  @DisplayName("an operation at its own rate gets its own count, warm-up included, beside the others")
  void ownRateGetsItsOwnCount() {
    // 0.1 s warm-up + 0.5 s measured: 200 req/s is 20 + 100 requests, 50 req/s is 5 + 25.
    OpenLoopPlan plan = new OpenLoopPlan(0, new double[] {200, 50}, 100 * MS, 500 * MS);
    assertEquals(2, plan.lanes());
    assertEquals(150, plan.total());
    List<Request> requests = walk(plan);
    assertEquals(20, count(requests, 0, true));
    assertEquals(100, count(requests, 0, false));
    assertEquals(5, count(requests, 1, true));
    assertEquals(25, count(requests, 1, false));
    List<Long> slow = requests.stream().filter(r -> r.op() == 1).map(Request::intendedNanos).toList();
    for (int k = 0; k < slow.size(); k++) {
      assertEquals(k * 20 * MS, slow.get(k), "the 50 req/s lane is due every 20 ms from the shared start");
    }
    assertEquals(100 * MS, plan.measureStartNanos());
    assertEquals(600 * MS, plan.endNanos());
  }

  @Test
  @DisplayName("the cursor yields the requests of all lanes in intended-time order")
  void mergedInTimeOrder() {
    OpenLoopPlan plan = new OpenLoopPlan(-3 * S, new double[] {333, 7.5, 333, 1234.5}, 250 * MS, 750 * MS);
    assertEquals(3, plan.lanes());
    List<Request> requests = walk(plan);
    assertEquals(plan.total(), requests.size());
    for (int i = 1; i < requests.size(); i++) {
      assertTrue(requests.get(i - 1).intendedNanos() <= requests.get(i).intendedNanos(), "request " + i);
    }
    for (Request r : requests) {
      assertEquals(r.intendedNanos() < plan.measureStartNanos(), r.warmup(), "warm-up is the same window everywhere");
      assertTrue(r.intendedNanos() < plan.endNanos());
    }
    long a = count(requests, 0, false);
    long c = count(requests, 2, false);
    assertTrue(Math.abs(a - c) <= 1, "same rate, same count up to the round cut by the end: " + a + " vs " + c);
  }

  @Test
  @DisplayName("skipDue consumes exactly the requests due at that instant, in every lane")
  void skipDueStopsAtTheFirstRequestNotYetDue() {
    OpenLoopPlan plan = new OpenLoopPlan(0, new double[] {1000, 30}, 0, S);
    List<Request> requests = walk(plan);
    OpenLoopPlan.Cursor pacer = plan.cursor(1);
    for (long now : new long[] {0, 5 * MS + 1, 33 * MS + 333_334, 500 * MS, 998 * MS}) {
      pacer.skipDue(now);
      long next = requests.stream().mapToLong(Request::intendedNanos).filter(t -> t > now).min().orElseThrow();
      assertEquals(next, pacer.intendedNanos(), "after skipping to " + now);
    }
    pacer.skipDue(2 * S);
    assertTrue(pacer.done());
    assertEquals(Long.MAX_VALUE, pacer.intendedNanos());
    assertThrows(IllegalStateException.class, pacer::advance);
  }

  @Test
  @DisplayName("rates that are not positive numbers, and an empty plan, are refused")
  void refusesBadRates() {
    assertThrows(IllegalArgumentException.class, () -> new OpenLoopPlan(0, new double[] {}, 0, S));
    assertThrows(IllegalArgumentException.class, () -> new OpenLoopPlan(0, new double[] {10, 0}, 0, S));
    assertThrows(IllegalArgumentException.class, () -> new OpenLoopPlan(0, new double[] {Double.NaN}, 0, S));
    assertThrows(IllegalArgumentException.class, () -> new Operation("x", "x", () -> null, -1));
    assertThrows(IllegalArgumentException.class, () -> new Operation("x", "x", () -> null).atRate(0));
    assertEquals(5.0, new Operation("x", "x", () -> null).atRate(5).rate());
    assertEquals(0.0, new Operation("x", "x", () -> null).rate(), "0 stands for the run's rate");
  }
}
