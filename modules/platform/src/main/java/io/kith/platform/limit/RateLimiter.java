package io.kith.platform.limit;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.serviceproxy.ServiceException;

import java.util.List;

/**
 * Fixed-window counters in Redis for rate limits and throttles. A window starts with its first hit and lasts
 * {@code windowMillis}; {@link #hit} counts, {@link #peek} reads without counting. Keys are the caller's (each module
 * uses its own prefix); they expire with their window. {@link #enforce} is the per-user limit every module applies:
 * past it the call fails with {@code rate_limited} and {@code retry_after}, which the gateway answers as 429 with a
 * {@code Retry-After} header.
 */
public final class RateLimiter {

  private static final String HIT =
      "local n = redis.call('incr', KEYS[1]) "
          + "if n == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end "
          + "local ttl = redis.call('pttl', KEYS[1]) "
          + "if ttl < 0 then redis.call('pexpire', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end "
          + "return {n, ttl}";
  private static final String PEEK =
      "local n = tonumber(redis.call('get', KEYS[1]) or '0') "
          + "local ttl = redis.call('pttl', KEYS[1]) "
          + "return {n, ttl}";

  private final RedisAPI redis;

  /** A limiter over a Redis client. */
  public RateLimiter(Redis redis) {
    this.redis = RedisAPI.api(redis);
  }

  /** The state of a window: hits so far and milliseconds until it resets (0 when no window is open). */
  public record Window(long count, long resetMillis) {

    /** Whole seconds until the window resets, at least 1, for Retry-After. */
    public long retryAfterSeconds() {
      return Math.max(1, (resetMillis + 999) / 1000);
    }
  }

  /** Counts one hit in {@code key}'s window and returns the window after it. */
  public Future<Window> hit(String key, long windowMillis) {
    return redis.eval(List.of(HIT, "1", key, Long.toString(windowMillis)))
        .map(r -> new Window(r.get(0).toLong(), Math.max(0, r.get(1).toLong())));
  }

  /**
   * Counts one hit in {@code key}'s window and fails with {@link #refusal} once it holds more than {@code max} hits
   * (refused calls count too, so hammering does not open the window early).
   *
   * @param detail what the user is told, such as "too many follows (at most 60 a minute); retry later"
   */
  public Future<Void> enforce(String key, long windowMillis, int max, String detail) {
    return hit(key, windowMillis).compose(window -> window.count() > max
        ? Future.failedFuture(refusal(detail, window.retryAfterSeconds()))
        : Future.succeededFuture());
  }

  /** The {@code rate_limited} failure (429) saying when to come back ({@code retry_after}, whole seconds). */
  public static ServiceException refusal(String detail, long retryAfterSeconds) {
    return Failures.withExtra(KithErrors.RATE_LIMITED, detail, new JsonObject().put("retry_after", retryAfterSeconds));
  }

  /** Reads {@code key}'s window without counting. */
  public Future<Window> peek(String key) {
    return redis.eval(List.of(PEEK, "1", key))
        .map(r -> new Window(r.get(0).toLong(), Math.max(0, r.get(1).toLong())));
  }

  /** Clears {@code key}'s window (for example after a successful login). */
  public Future<Void> reset(String key) {
    return redis.del(List.of(key)).mapEmpty();
  }
}
