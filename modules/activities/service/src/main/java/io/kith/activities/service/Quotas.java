package io.kith.activities.service;

import io.kith.platform.Platform;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.redis.client.RedisAPI;

import java.util.List;

/**
 * The per-user quotas of activities (creates, invitees per hour): fixed windows in Redis under
 * {@code rl:activities:<what>:<user>}. Past a quota the call fails with {@code rate_limited} and {@code retry_after}.
 */
final class Quotas {

  /** The window of every activities quota. */
  static final long HOUR = 3_600_000L;

  /**
   * {@code weighted-hit.lua} beside this class. KEYS window; ARGV weight, max, window ms: {count, ttl}, count -1 when
   * refused (nothing counted).
   */
  private static final LuaScripts.Script WEIGHTED_HIT =
      new LuaScripts.Script(LuaScripts.resource("io/kith/activities/service/weighted-hit.lua"));

  private final RedisAPI redis;
  private final RateLimiter limiter;

  Quotas(Platform platform) {
    this.redis = platform.redisApi();
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
    return WEIGHTED_HIT.run(redis, List.of("1", key(what, actor), Integer.toString(weight), Integer.toString(max),
        Long.toString(windowMillis))).compose(r -> {
          if (r.get(0).toLong() < 0) {
            long ttl = Math.max(0, r.get(1).toLong());
            return Future.failedFuture(RateLimiter.refusal("too many " + unit + "; at most " + max,
                Math.max(1, (ttl + 999) / 1000)));
          }
          return Future.succeededFuture();
        });
  }

  private static String key(String what, long actor) {
    return "rl:activities:" + what + ":" + actor;
  }
}
