package io.kith.platform.store;

import io.kith.platform.metrics.KithMetrics;
import io.micrometer.core.instrument.Timer;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.mongo.MongoClient;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MongoDB client every module gets: the driver's own deadlines (server selection, socket read, pool wait; see
 * {@link Stores#mongo}) bound each operation, and a MongoDB that keeps failing that way trips a circuit breaker so that
 * later operations fail at once. Such failures (see {@link StoreFailures#isUnavailable}) become
 * {@link StoreFailures#unavailable}; any other failure (a duplicate key, a bad query) passes through unchanged and
 * does not count against the circuit.
 *
 * <p>{@link MongoClient} has some eighty methods; a dynamic proxy applies the guard to every one that returns a
 * {@link Future} rather than a hand-written copy of each that would fall behind the interface. Methods returning
 * streams pass through unguarded.
 *
 * <p>Each guarded operation is timed on {@value KithMetrics#STORE} with {@code store=mongo} and the client method's
 * name as {@code operation} (a closed set: the methods of {@link MongoClient}).
 */
public final class GuardedMongo {

  private static final Logger LOG = LoggerFactory.getLogger(GuardedMongo.class);

  private GuardedMongo() {
  }

  /**
   * Wraps {@code delegate}.
   *
   * @param maxFailures    consecutive outages that open the circuit
   * @param resetTimeoutMs how long the circuit stays open before one operation may test MongoDB again
   */
  public static MongoClient wrap(Vertx vertx, MongoClient delegate, int maxFailures, long resetTimeoutMs) {
    return wrap(vertx, delegate, maxFailures, resetTimeoutMs, KithMetrics.unpublished());
  }

  /** As {@link #wrap(Vertx, MongoClient, int, long)}, timing each operation on {@code metrics}. */
  public static MongoClient wrap(Vertx vertx, MongoClient delegate, int maxFailures, long resetTimeoutMs,
                                 KithMetrics metrics) {
    // no breaker deadline: a write that outlived it could still land after the caller was told it failed
    CircuitBreaker breaker = CircuitBreaker.create("kith-mongo", vertx, new CircuitBreakerOptions()
            .setTimeout(-1)
            .setMaxFailures(maxFailures)
            .setResetTimeout(resetTimeoutMs)
            .setNotificationAddress(null))
        .failurePolicy(outcome -> outcome.failed() && StoreFailures.isUnavailable(outcome.cause()));
    // one line per state change: while the store stays down, two lines per reset period, whatever the traffic
    breaker.openHandler(v -> LOG.warn("MongoDB keeps failing: its circuit is open, calls fail at once for {} ms",
            resetTimeoutMs))
        .halfOpenHandler(v -> LOG.info("MongoDB circuit half open: the next call tests it"))
        .closeHandler(v -> LOG.info("MongoDB answers again: its circuit is closed"));
    Map<String, Timer> timers = new ConcurrentHashMap<>();
    return (MongoClient) Proxy.newProxyInstance(MongoClient.class.getClassLoader(), new Class<?>[] {MongoClient.class},
        (proxy, method, args) -> invoke(breaker, delegate, method, args, timers, metrics));
  }

  private static Object invoke(CircuitBreaker breaker, MongoClient delegate, Method method, Object[] args,
                               Map<String, Timer> timers, KithMetrics metrics) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return method.invoke(delegate, args);
    }
    if (!Future.class.isAssignableFrom(method.getReturnType()) || method.getName().equals("close")) {
      return call(delegate, method, args);
    }
    Timer timer = timers.computeIfAbsent(method.getName(), name -> metrics.storeTimer("mongo", name));
    long start = System.nanoTime();
    return breaker.<Object>execute(() -> {
      try {
        @SuppressWarnings("unchecked")
        Future<Object> outcome = (Future<Object>) call(delegate, method, args);
        return outcome;
      } catch (Throwable e) {
        return Future.failedFuture(e);
      }
    })
        .onComplete(ar -> timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS))
        .recover(e -> Future.failedFuture(StoreFailures.isUnavailable(e) ? StoreFailures.outage("MongoDB", e) : e));
  }

  private static Object call(MongoClient delegate, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
