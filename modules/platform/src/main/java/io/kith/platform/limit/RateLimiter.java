package io.kith.platform.limit;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.LuaScripts;
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

  private static final LuaScripts.Script HIT = LuaScripts.load(RateLimiter.class, "hit.lua");
  private static final LuaScripts.Script PEEK = LuaScripts.load(RateLimiter.class, "peek.lua");
  private static final LuaScripts.Script TAKE = LuaScripts.load(RateLimiter.class, "take.lua");
  private static final LuaScripts.Script GIVE_BACK = LuaScripts.load(RateLimiter.class, "give-back.lua");

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
    return HIT.run(redis, List.of("1", key, Long.toString(windowMillis)))
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
    return PEEK.run(redis, List.of("1", key))
        .map(r -> new Window(r.get(0).toLong(), Math.max(0, r.get(1).toLong())));
  }

  /**
   * The outcome of {@link #take}: whether the weight was counted, the hits in the window, and the milliseconds until
   * it resets as Redis reports them (negative when the weight was refused and no window is open).
   */
  public record Taken(boolean taken, long count, long resetMillis) {
  }

  /**
   * A weighted quota (budgets counted in units, such as address-book entries or invitees): counts {@code weight} hits
   * in {@code key}'s window unless that would pass {@code max}. A refused call counts nothing, so a smaller one may
   * still fit.
   */
  public Future<Taken> take(String key, long windowMillis, long max, long weight) {
    return TAKE.run(redis, List.of("1", key, Long.toString(weight), Long.toString(max), Long.toString(windowMillis)))
        .map(r -> new Taken(r.get(0).toInteger() == 1, r.get(1).toLong(), r.get(2).toLong()));
  }

  /**
   * Takes back one hit counted in {@code key}'s current window (a call that turned out not to count, such as a login
   * that succeeded); never below zero, and never opens a window.
   */
  public Future<Void> giveBack(String key) {
    return GIVE_BACK.run(redis, List.of("1", key)).mapEmpty();
  }

  /** Clears {@code key}'s window (for example after a successful login). */
  public Future<Void> reset(String key) {
    return redis.del(List.of(key)).mapEmpty();
  }
}
