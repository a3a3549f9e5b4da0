package io.kith.platform.testkit;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.function.Supplier;

/** Waits for a condition by polling with a deadline; tests never sleep for a fixed time. */
public final class Poll {

  private Poll() {
  }

  /**
   * Completes when {@code condition} yields true, polling every 25 ms; fails with {@code what} once {@code timeout}
   * has passed.
   */
  public static Future<Void> until(Vertx vertx, Duration timeout, String what, Supplier<Future<Boolean>> condition) {
    return until(vertx, timeout, Duration.ofMillis(25), what, condition);
  }

  /**
   * As {@link #until(Vertx, Duration, String, Supplier)}, polling every {@code interval} (gently, for conditions
   * read through rate-limited operations).
   */
  public static Future<Void> until(Vertx vertx, Duration timeout, Duration interval, String what,
                                   Supplier<Future<Boolean>> condition) {
    Promise<Void> promise = Promise.promise();
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    attempt(vertx, deadline, interval.toMillis(), what, condition, promise);
    return promise.future();
  }

  private static void attempt(Vertx vertx, long deadline, long interval, String what,
                              Supplier<Future<Boolean>> condition, Promise<Void> promise) {
    condition.get().onComplete(ar -> {
      if (ar.succeeded() && Boolean.TRUE.equals(ar.result())) {
        promise.complete();
      } else if (System.currentTimeMillis() > deadline) {
        promise.fail(new AssertionError("timed out waiting for " + what
            + (ar.failed() ? " (last attempt failed: " + ar.cause() + ")" : "")));
      } else {
        vertx.setTimer(interval, t -> attempt(vertx, deadline, interval, what, condition, promise));
      }
    });
  }
}
