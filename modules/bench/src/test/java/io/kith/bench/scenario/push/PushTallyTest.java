package io.kith.bench.scenario.push;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PushTallyTest {

  @Test
  @DisplayName("the tally is complete once every expected token was pushed, and keeps the latest arrival")
  void completeWhenEveryTokenArrived() {
    PushTally tally = new PushTally(Set.of("aa", "bb"));
    assertFalse(tally.complete());
    assertEquals(2, tally.lost());
    tally.arrived("bb", 300);
    tally.arrived("aa", 200);
    assertTrue(tally.complete());
    assertEquals(0, tally.lost());
    assertEquals(2, tally.delivered());
    assertEquals(300, tally.lastNanos(), "a push recorded late with an earlier time does not move the latest back");
    assertEquals(2 * 1e9 / 200, tally.perSecond(100), 1e-6);
    assertEquals(java.util.List.of(200L, 300L), tally.arrivals().stream().sorted().toList());
  }

  @Test
  @DisplayName("a second push to a token is a duplicate and a push to an unknown token a stranger, neither delivers")
  void repeatsAndStrangersAreCountedApart() {
    PushTally tally = new PushTally(Set.of("aa", "bb"));
    tally.arrived("aa", 1);
    tally.arrived("aa", 2);
    tally.arrived("cc", 3);
    assertEquals(3, tally.received());
    assertEquals(1, tally.delivered());
    assertEquals(1, tally.duplicates());
    assertEquals(1, tally.strangers());
    assertEquals(1, tally.lost());
    assertEquals(java.util.List.of(1L), java.util.List.copyOf(tally.arrivals()), "a repeat keeps the first arrival");
    assertFalse(tally.complete());
  }

  @Test
  @DisplayName("before any push the rate is not a number, not zero or infinite")
  void noRateBeforeAnyPush() {
    PushTally tally = new PushTally(Set.of("aa"));
    assertTrue(Double.isNaN(tally.perSecond(System.nanoTime())));
    assertEquals(0, tally.lastNanos());
  }
}
