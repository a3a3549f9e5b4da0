package io.kith.platform.store;

import io.kith.platform.metrics.KithMetrics;
import io.micrometer.core.instrument.Timer;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.circuitbreaker.CircuitBreakerState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis client every module gets: each pooled command ({@link #send}, {@link #batch}) has a deadline, and a Redis
 * that keeps failing trips a circuit breaker, so that while Redis is paused, restarting or swamped, requests fail at
 * once with 503 {@code unavailable} instead of queueing behind it. Outages (see
 * {@link StoreFailures#isRedisOutage}) become {@link StoreFailures#unavailable}; Redis error replies pass through
 * unchanged and do not count against the circuit.
 *
 * <p>{@link #connect()} (a dedicated connection, used for blocking reads such as XREADGROUP BLOCK) is refused while the
 * circuit is open but gets no deadline: its commands may legitimately block for long.
 *
 * <p>Each pooled command is timed on {@value KithMetrics#STORE} with {@code store=redis} and the command's name as
 * {@code operation} (a pipeline as {@code batch}); blocking reads on dedicated connections are not, their time is
 * mostly waiting for entries.
 */
public final class GuardedRedis implements Redis {

  private static final Logger LOG = LoggerFactory.getLogger(GuardedRedis.class);

  private final Redis delegate;
  private volatile Redis readers;
  private final CircuitBreaker breaker;
  private final KithMetrics metrics;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  /**
   * Wraps {@code delegate}.
   *
   * @param commandTimeoutMs deadline of each pooled command or batch (0 = none)
   * @param maxFailures      consecutive outages that open the circuit
   * @param resetTimeoutMs   how long the circuit stays open before one command may test Redis again
   */
  public GuardedRedis(Vertx vertx, Redis delegate, long commandTimeoutMs, int maxFailures, long resetTimeoutMs) {
    this(vertx, delegate, commandTimeoutMs, maxFailures, resetTimeoutMs, KithMetrics.unpublished());
  }

  /** As {@link #GuardedRedis(Vertx, Redis, long, int, long)}, timing each command on {@code metrics}. */
  public GuardedRedis(Vertx vertx, Redis delegate, long commandTimeoutMs, int maxFailures, long resetTimeoutMs,
                      KithMetrics metrics) {
    this.delegate = delegate;
    this.metrics = metrics;
    this.breaker = CircuitBreaker.create("kith-redis", vertx, new CircuitBreakerOptions()
            .setTimeout(commandTimeoutMs > 0 ? commandTimeoutMs : -1)
            .setMaxFailures(maxFailures)
            .setResetTimeout(resetTimeoutMs)
            .setNotificationAddress(null))
        .failurePolicy(outcome -> outcome.failed() && StoreFailures.isRedisOutage(outcome.cause()));
    // one line per state change: while the store stays down, two lines per reset period, whatever the traffic
    this.breaker.openHandler(v -> LOG.warn("Redis keeps failing: its circuit is open, calls fail at once for {} ms",
            resetTimeoutMs))
        .halfOpenHandler(v -> LOG.info("Redis circuit half open: the next call tests it"))
        .closeHandler(v -> LOG.info("Redis answers again: its circuit is closed"));
  }

  /** The circuit's state (for tests and metrics). */
  public CircuitBreakerState state() {
    return breaker.state();
  }

  private <T> Future<T> guarded(String operation, Supplier<Future<T>> command) {
    Timer timer = timers.computeIfAbsent(operation, o -> metrics.storeTimer("redis", o));
    long start = System.nanoTime();
    return breaker.execute(command)
        .onComplete(ar -> timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS))
        .recover(e -> Future.failedFuture(
        StoreFailures.isRedisOutage(e) ? StoreFailures.outage("Redis", e) : e));
  }

  @Override
  public Future<RedisConnection> connect() {
    if (breaker.state() == CircuitBreakerState.OPEN) {
      return Future.failedFuture(StoreFailures.unavailable("Redis"));
    }
    return delegate.connect().recover(e -> Future.failedFuture(
        StoreFailures.isRedisOutage(e) ? StoreFailures.outage("Redis", e) : e));
  }

  /**
   * The client to use for what must reach the server holding {@code key} itself (see
   * {@link SlotBatchedRedis#nodeOf}): on a single Redis this client, on a cluster a client of the key's master alone
   * (unguarded: it serves dedicated connections and commands about them).
   */
  public Future<Redis> nodeOf(String key) {
    if (delegate instanceof SlotBatchedRedis cluster) {
      return cluster.nodeOf(key);
    }
    Redis own = readers;
    return Future.succeededFuture(own != null ? own : this);
  }

  /**
   * Gives {@link #nodeOf} a client of its own on a single Redis (or a sentinel-watched master): the event-log readers
   * hold one connection each for as long as they run, blocked in XREADGROUP, and taken from the command pool they
   * would exhaust it (a node running every module has more readers than {@code redis.max-pool-size}), leaving no
   * connection for commands. Closed with this client.
   */
  public GuardedRedis withReaders(Redis readers) {
    this.readers = readers;
    return this;
  }

  @Override
  public Future<Response> send(Request command) {
    // the command's name from a closed set (Command constants); a made-up command is capped by MeterBounds
    return guarded(command.command().toString().toLowerCase(Locale.ROOT), () -> delegate.send(command));
  }

  @Override
  public Future<List<Response>> batch(List<Request> commands) {
    return guarded("batch", () -> delegate.batch(commands));
  }

  @Override
  public Future<Void> close() {
    breaker.close();
    Redis own = readers;
    if (own != null) {
      own.close();
    }
    return delegate.close();
  }
}
