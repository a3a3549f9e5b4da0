package io.kith.activities.service;

import io.kith.platform.Platform;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;

/**
 * The per-user quotas of activities (creates, invitees per hour): fixed windows in Redis under
 * {@code rl:activities:<what>:<user>}. Past a quota the call fails with {@code rate_limited} and {@code retry_after}.
 */
final class Quotas {

  /** The window of every activities quota. */
  static final long HOUR = 3_600_000L;

  private final RateLimiter limiter;

  Quotas(Platform platform) {
    this.limiter = new RateLimiter(platform.redis());
  }

  /** Counts one hit in the actor's window of {@code what}; past {@code max} {@code rate_limited}. */
  Future<Void> throttle(String what, long actor, int max, long windowMillis, String unit) {
    return limiter.enforce(key(what, actor), windowMillis, max, "too many " + unit + "; at most " + max);
  }

  /**
   * Counts {@code weight} hits in the actor's window of {@code what} unless that would pass {@code max} (then
   * {@code rate_limited} with {@code retry_after}, and nothing is counted).
   */
  Future<Void> throttleBy(String what, long actor, int weight, int max, long windowMillis, String unit) {
    return limiter.take(key(what, actor), windowMillis, max, weight).compose(t -> t.taken() ? Future.succeededFuture()
        : Future.failedFuture(RateLimiter.refusal("too many " + unit + "; at most " + max,
            Math.max(1, (Math.max(0, t.resetMillis()) + 999) / 1000))));
  }

  /** The window key of {@code what} for a user (also reset by the account erasure). */
  static String key(String what, long actor) {
    return "rl:activities:" + what + ":" + actor;
  }
}
