package io.kith.feeds.service;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bounded fan-out and timeline settings refuse values that would break a bound, naming the key. */
class FeedsSettingsTest {

  @Test
  @DisplayName("defaults and values in range are taken; out-of-range ones refuse to start, naming the key")
  void bounds() {
    FeedsSettings defaults = FeedsSettings.from(new JsonObject());
    assertEquals(800, defaults.timelineCap());
    assertEquals(16, defaults.fanoutPrefetch());
    assertEquals(10_000, defaults.fanoutPage());
    assertEquals(60, defaults.recountSettleSeconds());
    assertEquals(10, defaults.recountEverySeconds());
    assertEquals(5, FeedsSettings.from(new JsonObject().put("timeline-cap", 5)).timelineCap());

    for (String[] bad : new String[][] {{"timeline-cap", "0"}, {"timeline-cap", "1"}, {"fanout-prefetch", "0"},
        {"fanout-prefetch", "5000"}, {"fanout-page", "10001"}, {"fanout-workers", "0"},
        {"fanout-timelines-per-call", "0"}, {"backfill-posts", "-1"}, {"recount-settle-seconds", "0"},
        {"recount-settle-seconds", "3601"}, {"recount-every-seconds", "0"}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> FeedsSettings.from(new JsonObject().put(bad[0], Integer.parseInt(bad[1]))), bad[0] + " " + bad[1]);
      assertTrue(e.getMessage().startsWith("feeds." + bad[0] + " must be between"), e.getMessage());
    }
  }
}
