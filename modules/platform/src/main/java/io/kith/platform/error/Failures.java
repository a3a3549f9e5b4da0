package io.kith.platform.error;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

/**
 * Builds the {@link ServiceException}s that services fail with. The failure code of the exception is the HTTP status,
 * and its debug info carries the stable {@code code}, and optionally the {@code field} at fault and extra members
 * that the problem+json body repeats (for example {@code retry_after}). A ServiceException crosses the (clustered)
 * event bus intact, so the gateway on any node renders the same problem.
 */
public final class Failures {

  /** Debug-info key of the stable code. */
  public static final String CODE = "code";
  /** Debug-info key of the title. */
  public static final String TITLE = "title";
  /** Debug-info key of the offending field. */
  public static final String FIELD = "field";
  /** Debug-info key of extra members for the problem body. */
  public static final String EXTRA = "extra";

  private Failures() {
  }

  /** A failure of {@code code} with a detail the user can act on. */
  public static ServiceException of(ErrorCode code, String detail) {
    return new ServiceException(code.status(), detail,
        new JsonObject().put(CODE, code.code()).put(TITLE, code.title()));
  }

  /** A failure that names the offending request field. */
  public static ServiceException field(ErrorCode code, String field, String detail) {
    ServiceException e = of(code, detail);
    e.getDebugInfo().put(FIELD, field);
    return e;
  }

  /** A failure with extra problem members (for example {@code retry_after} seconds). */
  public static ServiceException withExtra(ErrorCode code, String detail, JsonObject extra) {
    ServiceException e = of(code, detail);
    e.getDebugInfo().put(EXTRA, extra.copy());
    return e;
  }

  /** A failed future of {@code code}. */
  public static <T> Future<T> fail(ErrorCode code, String detail) {
    return Future.failedFuture(of(code, detail));
  }

  /** A failed future naming the offending field. */
  public static <T> Future<T> failField(ErrorCode code, String field, String detail) {
    return Future.failedFuture(field(code, field, detail));
  }

  /**
   * Runs {@code body}; a {@link ServiceException} it throws while building its future (a validation failure thrown
   * from plain code) becomes a failed future instead of escaping to the caller.
   */
  public static <T> Future<T> guard(java.util.function.Supplier<Future<T>> body) {
    try {
      return body.get();
    } catch (ServiceException e) {
      return Future.failedFuture(e);
    }
  }

  /** Whether {@code t} is a failure of {@code code}. */
  public static boolean is(Throwable t, ErrorCode code) {
    return t instanceof ServiceException
        && ((ServiceException) t).getDebugInfo() != null
        && code.code().equals(((ServiceException) t).getDebugInfo().getString(CODE));
  }

  /** The stable code of a failure, or null when it is not a coded {@link ServiceException}. */
  public static String codeOf(Throwable t) {
    if (t instanceof ServiceException && ((ServiceException) t).getDebugInfo() != null) {
      return ((ServiceException) t).getDebugInfo().getString(CODE);
    }
    return null;
  }
}
