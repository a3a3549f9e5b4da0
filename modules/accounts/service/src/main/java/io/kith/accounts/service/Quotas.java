package io.kith.accounts.service;

import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.redis.client.Redis;

/**
 * What the platform's {@code RateLimiter} does for accounts beyond one hit per call, on the same fixed-window
 * counters: budgets counted in units (address-book entries) and giving back a hit that turned out not to count (a
 * login that succeeded, or one that could not be checked).
 */
final class Quotas {

  private final RateLimiter limiter;

  Quotas(Redis redis) {
    this.limiter = new RateLimiter(redis);
  }

  /**
   * Takes {@code units} from {@code key}'s budget of {@code max} per window. Returns 0 when they were taken, else
   * the whole seconds until the window resets (nothing is taken: a smaller request may still fit).
   */
  Future<Long> take(String key, long windowMillis, long max, long units) {
    return limiter.take(key, windowMillis, max, units).map(t -> t.taken() ? 0L
        : Math.max(1, ((t.resetMillis() < 0 ? windowMillis : t.resetMillis()) + 999) / 1000));
  }

  /** Takes back one hit counted in {@code key}'s current window. */
  Future<Void> giveBack(String key) {
    return limiter.giveBack(key);
  }
}
