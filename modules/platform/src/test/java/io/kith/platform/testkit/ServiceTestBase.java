package io.kith.platform.testkit;

import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The helpers every service test class uses when it calls a module through its event-bus proxy: wait for a call,
 * and assert that a call is refused with a stable code (and field). Each module's {@code *TestBase} extends it and
 * adds the deployment and set-up steps of its domain.
 */
public abstract class ServiceTestBase {

  /**
   * How long one call may take before the test fails. Generous: the suite runs with every core busy, and a call may
   * wait behind password hashing or fan-out.
   */
  protected static final long AWAIT_SECONDS = 90;

  /**
   * The result of {@code future}; a failed future throws {@link ExecutionException} with the failure as its cause
   * (tests that expect a failure catch it).
   */
  protected static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** Asserts that {@code future} fails with {@code code} and returns the failure. */
  protected static ServiceException failsWith(String code, Future<?> future) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(future));
    assertEquals(code, Failures.codeOf(e.getCause()), "failure: " + e.getCause());
    return assertInstanceOf(ServiceException.class, e.getCause());
  }

  /** Asserts that {@code future} fails with {@code code} naming {@code field} (unless null) and returns the failure. */
  protected static ServiceException failsWith(String code, String field, Future<?> future) {
    ServiceException e = failsWith(code, future);
    if (field != null) {
      assertEquals(field, debugInfo(e).getString(Failures.FIELD), "field of " + e.getMessage());
    }
    return e;
  }

  /** Asserts that {@code future} fails with one of {@code codes} and returns the failure. */
  protected static ServiceException failsWithOneOf(Set<String> codes, Future<?> future) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(future));
    assertTrue(codes.contains(Failures.codeOf(e.getCause())), "expected one of " + codes + ", got " + e.getCause());
    return assertInstanceOf(ServiceException.class, e.getCause());
  }

  /** The debug info of a service failure ({@code code}, {@code field}, {@code extra}); empty when it has none. */
  protected static JsonObject debugInfo(Throwable failure) {
    ServiceException e = assertInstanceOf(ServiceException.class, failure);
    return e.getDebugInfo() == null ? new JsonObject() : e.getDebugInfo();
  }
}
