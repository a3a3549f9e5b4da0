package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;

import java.util.List;

/**
 * What the platform's {@code RateLimiter} (one hit per call) does not do, on the same fixed-window counters:
 * budgets counted in units (address-book entries) and giving back a hit that turned out not to count (a login that
 * succeeded, or one that could not be checked).
 */
final class Quotas {

  // takes the units only when they fit in the window's budget; returns {taken 0/1, ms until the window resets}
  private static final String TAKE =
      "local n = tonumber(redis.call('get', KEYS[1]) or '0') "
          + "local ttl = redis.call('pttl', KEYS[1]) "
          + "if n + tonumber(ARGV[2]) > tonumber(ARGV[3]) then "
          + "  if ttl < 0 then ttl = tonumber(ARGV[1]) end "
          + "  return {0, ttl} "
          + "end "
          + "redis.call('incrby', KEYS[1], ARGV[2]) "
          + "if ttl < 0 then redis.call('pexpire', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end "
          + "return {1, ttl}";
  // never below zero, and never creates a key (which would have no expiry)
  private static final String GIVE_BACK =
      "local n = tonumber(redis.call('get', KEYS[1]) or '0') "
          + "if n > 0 then return redis.call('decr', KEYS[1]) end "
          + "return 0";

  private final RedisAPI redis;

  Quotas(Redis redis) {
    this.redis = RedisAPI.api(redis);
  }

  /**
   * Takes {@code units} from {@code key}'s budget of {@code max} per window. Returns 0 when they were taken, else
   * the whole seconds until the window resets (nothing is taken: a smaller request may still fit).
   */
  Future<Long> take(String key, long windowMillis, long max, long units) {
    return redis.eval(List.of(TAKE, "1", key, Long.toString(windowMillis), Long.toString(units), Long.toString(max)))
        .map(r -> r.get(0).toInteger() == 1 ? 0L : Math.max(1, (r.get(1).toLong() + 999) / 1000));
  }

  /** Takes back one hit counted in {@code key}'s current window. */
  Future<Void> giveBack(String key) {
    return redis.eval(List.of(GIVE_BACK, "1", key)).mapEmpty();
  }
}
