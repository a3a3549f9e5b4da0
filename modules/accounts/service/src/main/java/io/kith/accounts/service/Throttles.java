package io.kith.accounts.service;

import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;

/** The per-user, per-minute limits of the accounts calls, on the platform's rate limiter. */
final class Throttles {

  private static final long MINUTE = 60_000;

  private final RateLimiter limiter;

  Throttles(RateLimiter limiter) {
    this.limiter = limiter;
  }

  /** Counts one call of {@code what} by the user, refusing with 429 rate_limited past {@code max} a minute. */
  Future<Void> perMinute(String name, long user, int max, String what) {
    return limiter.enforce("rl:accounts:" + name + ":" + user, MINUTE, max,
        what + " (at most " + max + " a minute); retry later");
  }
}
