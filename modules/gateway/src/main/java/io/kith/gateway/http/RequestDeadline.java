package io.kith.gateway.http;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.StoreFailures;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.function.Predicate;

/**
 * Gives every request a deadline ({@code http.request-timeout-seconds}) counted from the moment its headers arrived,
 * so a request waiting for a slow store or service, or a body that trickles in, holds its connection no longer than
 * that. At the deadline a request whose body has not fully arrived is answered 408 {@code request_timeout} and its
 * connection closed (the rest of the body would otherwise be read as the next request); a request waiting for an
 * answer is answered 503 {@code unavailable} with {@code Retry-After}. A response already under way is left alone.
 *
 * <p>Vert.x Web's {@code TimeoutHandler} answers one status for both cases; telling a slow client from a slow server
 * is the reason for this handler.
 */
final class RequestDeadline implements PlatformHandler {

  private final long timeoutMs;
  private final Predicate<RoutingContext> exempt;

  /** A deadline of {@code timeoutMs} for every request that {@code exempt} does not exempt. */
  RequestDeadline(long timeoutMs, Predicate<RoutingContext> exempt) {
    this.timeoutMs = timeoutMs;
    this.exempt = exempt;
  }

  @Override
  public void handle(RoutingContext rc) {
    if (timeoutMs <= 0 || exempt.test(rc)) {
      rc.next();
      return;
    }
    int[] ended = new int[1];
    long timer = rc.vertx().setTimer(timeoutMs, id -> {
      // removing the end handler fails when the context was already done (or restarted by a re-route)
      if (rc.removeEndHandler(ended[0])) {
        expire(rc);
      }
    });
    ended[0] = rc.addEndHandler(v -> rc.vertx().cancelTimer(timer));
    rc.next();
  }

  private static void expire(RoutingContext rc) {
    if (rc.response().headWritten()) {
      return;
    }
    if (!rc.request().isEnded()) {
      rc.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
      rc.addEndHandler(v -> rc.request().connection().close());
      rc.fail(new HttpException(408));
    } else {
      rc.fail(Failures.withExtra(KithErrors.UNAVAILABLE, "the request could not be answered in time; retry later",
          new JsonObject().put("retry_after", StoreFailures.RETRY_AFTER_SECONDS)));
    }
  }
}
