package io.kith.bench.load;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenLoopScheduleTest {

  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;

  @Test
  @DisplayName("requests are due at start plus index times the interval, whatever the responses do")
  void intendedTimesAreFixedIntervals() {
    long start = 123_456_789L;
    OpenLoopSchedule schedule = new OpenLoopSchedule(start, 1000, 0, S);
    assertEquals(start, schedule.intendedNanos(0));
    assertEquals(start + MS, schedule.intendedNanos(1));
    assertEquals(start + 999 * MS, schedule.intendedNanos(999));
    assertEquals(1000, schedule.total(), "1000 req/s for 1 s is 1000 requests");
    assertEquals(start + S, schedule.endNanos());
  }

  @Test
  @DisplayName("a rate that does not divide a second rounds each intended time, never drifting")
  void fractionalIntervalsDoNotDrift() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(0, 3, 0, S);
    assertEquals(3, schedule.total());
    assertEquals(0, schedule.intendedNanos(0));
    assertEquals(333_333_333L, schedule.intendedNanos(1));
    assertEquals(666_666_667L, schedule.intendedNanos(2));
    assertEquals(3_000_000_000L, schedule.intendedNanos(9), "after 9 requests at 3/s exactly 3 s have passed");

    OpenLoopSchedule slow = new OpenLoopSchedule(0, 0.5, 0, 3 * S);
    assertEquals(2, slow.total(), "0.5 req/s over 3 s: due at 0 s and 2 s");
    assertEquals(2 * S, slow.intendedNanos(1));
  }

  @Test
  @DisplayName("the warm-up is the first part of the same schedule")
  void warmupComesFirst() {
    long start = -5 * S; // System.nanoTime() may be negative
    OpenLoopSchedule schedule = new OpenLoopSchedule(start, 100, S, 2 * S);
    assertEquals(300, schedule.total());
    assertTrue(schedule.isWarmup(0));
    assertTrue(schedule.isWarmup(99));
    assertFalse(schedule.isWarmup(100));
    assertEquals(start + S, schedule.intendedNanos(100));
    assertEquals(start + S, schedule.measureStartNanos());
    assertEquals(start + 3 * S, schedule.endNanos());
  }

  @Test
  @DisplayName("dueCount counts the requests whose intended time has come")
  void dueCountAtBoundaries() {
    long start = 10 * S;
    OpenLoopSchedule schedule = new OpenLoopSchedule(start, 1000, 0, S);
    assertEquals(0, schedule.dueCount(start - 1));
    assertEquals(1, schedule.dueCount(start));
    assertEquals(1, schedule.dueCount(start + MS - 1));
    assertEquals(2, schedule.dueCount(start + MS));
    assertEquals(1000, schedule.dueCount(start + 999 * MS));
    assertEquals(1000, schedule.dueCount(start + 60 * S), "never more than the schedule holds");
  }

  @Test
  @DisplayName("dueCount agrees with intendedNanos for awkward rates at any instant")
  void dueCountMatchesIntendedTimes() {
    Random random = new Random(42);
    for (double rate : new double[] {1, 3, 7.5, 333, 1234.5, 99_999}) {
      OpenLoopSchedule schedule = new OpenLoopSchedule(777, rate, 250 * MS, 750 * MS);
      for (int trial = 0; trial < 500; trial++) {
        long now = 777 + (long) (random.nextDouble() * 1.2 * S) - 10 * MS;
        long expected = 0;
        while (expected < schedule.total() && schedule.intendedNanos(expected) <= now) {
          expected++;
        }
        assertEquals(expected, schedule.dueCount(now), "rate " + rate + " at " + now);
      }
      long last = schedule.total() - 1;
      assertTrue(schedule.intendedNanos(last) < schedule.endNanos(), "the last request is due before the end");
      assertTrue(schedule.intendedNanos(last + 1) >= schedule.endNanos(), "the next one would not be");
    }
  }

  @Test
  @DisplayName("a rate that is not positive is refused")
  void refusesBadRates() {
    assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, 0, 0, S));
    assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, -1, 0, S));
    assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, Double.NaN, 0, S));
    assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, 10, 0, 0));
  }
}
