package io.kith.gateway.http;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.StoreFailures;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Shareable;
import io.vertx.ext.web.RoutingContext;
import io.vertx.core.Handler;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Sheds load before it reaches the stores: at most {@code http.max-in-flight} API requests are in progress on a node
 * at once, counted across all gateway verticle instances; beyond that a request is answered 503 {@code unavailable}
 * with {@code Retry-After} at once, without reading its body. Twice a node's capacity then costs the excess requests a
 * quick 503 instead of every request a growing queue, pool wait-queue overflows (500s) and memory.
 */
final class InFlightLimit implements Handler<RoutingContext> {

  private static final String MAP = "kith.gateway.in-flight";

  /** The node's count, shared by the verticle instances through a local map. */
  static final class Count implements Shareable {
    final AtomicInteger value = new AtomicInteger();
  }

  private final int max;
  private final Count count;
  private final Predicate<RoutingContext> counted;

  /** A limit of {@code max} (0 = none) over the requests {@code counted} selects. */
  InFlightLimit(Vertx vertx, int max, Predicate<RoutingContext> counted) {
    this.max = max;
    this.counted = counted;
    vertx.sharedData().<String, Count>getLocalMap(MAP).putIfAbsent("http", new Count());
    this.count = vertx.sharedData().<String, Count>getLocalMap(MAP).get("http");
  }

  /** Requests in progress on this node (for tests). */
  static int inFlight(Vertx vertx) {
    Count c = vertx.sharedData().<String, Count>getLocalMap(MAP).get("http");
    return c == null ? 0 : c.value.get();
  }

  @Override
  public void handle(RoutingContext rc) {
    if (max <= 0 || !counted.test(rc)) {
      rc.next();
      return;
    }
    if (count.value.incrementAndGet() > max) {
      count.value.decrementAndGet();
      discardUnreadBody(rc);
      rc.fail(Failures.withExtra(KithErrors.UNAVAILABLE, "the server is busy; retry later",
          new JsonObject().put("retry_after", StoreFailures.RETRY_AFTER_SECONDS)));
      return;
    }
    rc.addEndHandler(v -> count.value.decrementAndGet());
    rc.next();
  }

  // the body of a refused request is not read by anyone: drop it so that the connection can serve the next request
  private static void discardUnreadBody(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    rc.addEndHandler(v -> {
      if (!request.isEnded()) {
        request.handler(ignored -> { });
        request.exceptionHandler(ignored -> { });
        request.resume();
      }
    });
  }
}
