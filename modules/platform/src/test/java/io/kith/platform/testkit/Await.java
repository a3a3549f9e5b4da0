package io.kith.platform.testkit;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocking access to futures for tests that run on the JUnit thread (never on an event loop): the outcome of a
 * future, with a deadline so that a future that never completes fails the test instead of hanging it.
 */
public final class Await {

  /**
   * How long a single future may take before the test fails: only a hang must reach it, also while other work keeps
   * both cores busy (starting a node with every module then took over 30 s).
   */
  public static final long DEADLINE_SECONDS = 90;

  private Await() {
  }

  /** The result of {@code future}; fails the test with the cause when the future fails. */
  public static <T> T result(Future<T> future) {
    AsyncResult<T> outcome = outcome(future);
    if (outcome.failed()) {
      throw new AssertionError("expected success but failed with " + outcome.cause(), outcome.cause());
    }
    return outcome.result();
  }

  /** The failure of {@code future}; fails the test when the future succeeds. */
  public static Throwable failure(Future<?> future) {
    AsyncResult<?> outcome = outcome(future);
    if (outcome.succeeded()) {
      throw new AssertionError("expected a failure but succeeded with " + outcome.result());
    }
    return outcome.cause();
  }

  private static <T> AsyncResult<T> outcome(Future<T> future) {
    try {
      return future.<AsyncResult<T>>transform(Future::succeededFuture).await(DEADLINE_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("future did not complete within " + DEADLINE_SECONDS + " s");
    }
  }
}
