package io.kith.platform.limit;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
class RateLimiterTest {

  @Test
  @DisplayName("a weighted take that would pass the most counts nothing, and a smaller one still fits")
  void weightedTake(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      RateLimiter limiter = new RateLimiter(platform.redis());
      String key = "test:rl:" + System.nanoTime();
      RateLimiter.Taken first = Await.result(limiter.take(key, 60_000, 10, 7));
      assertTrue(first.taken());
      assertEquals(7, first.count());
      assertTrue(first.resetMillis() > 0 && first.resetMillis() <= 60_000, "the window is open: " + first);

      RateLimiter.Taken refused = Await.result(limiter.take(key, 60_000, 10, 4));
      assertFalse(refused.taken());
      assertEquals(7, refused.count(), "nothing was counted");
      assertTrue(refused.resetMillis() > 0);

      assertTrue(Await.result(limiter.take(key, 60_000, 10, 3)).taken());
      assertEquals(10, Await.result(limiter.peek(key)).count());
    } finally {
      Await.result(platform.close());
    }
  }

  @Test
  @DisplayName("a weight over the most with no window open is refused without opening one")
  void overTheMostOnAnEmptyWindow(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      RateLimiter limiter = new RateLimiter(platform.redis());
      String key = "test:rl:" + System.nanoTime();
      RateLimiter.Taken refused = Await.result(limiter.take(key, 60_000, 5, 6));
      assertFalse(refused.taken());
      assertTrue(refused.resetMillis() < 0, "no window: " + refused);
      assertEquals(0, Await.result(limiter.peek(key)).count());
    } finally {
      Await.result(platform.close());
    }
  }

  @Test
  @DisplayName("giving back a hit never goes below zero and never opens a window")
  void giveBack(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      RateLimiter limiter = new RateLimiter(platform.redis());
      String key = "test:rl:" + System.nanoTime();
      Await.result(limiter.giveBack(key));
      assertEquals(0, Await.result(platform.redisApi().exists(java.util.List.of(key))).toInteger());
      Await.result(limiter.hit(key, 60_000));
      Await.result(limiter.giveBack(key));
      Await.result(limiter.giveBack(key));
      assertEquals("0", Await.result(platform.redisApi().get(key)).toString());
    } finally {
      Await.result(platform.close());
    }
  }
}
