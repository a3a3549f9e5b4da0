package io.kith.gateway.http;

import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Operational endpoints outside the API contract: {@code /health} (liveness: the process serves HTTP),
 * {@code /ready} (readiness: Redis, MongoDB, cluster membership and any module's checks answer; 503 otherwise) and
 * {@code /metrics} (Prometheus text format, when metrics are enabled on the Vert.x instance).
 */
public final class HealthRoutes {

  private static final long CHECK_TIMEOUT_MS = 2_000;

  private HealthRoutes() {
  }

  /** Mounts the three endpoints on {@code router}. */
  public static void mount(Router router, Platform platform) {
    HealthCheckHandler live = HealthCheckHandler.create(platform.vertx());
    live.register("process", promise -> promise.complete(Status.OK()));
    router.get("/health").handler(live);

    HealthCheckHandler ready = HealthCheckHandler.create(platform.vertx());
    for (Map.Entry<String, Supplier<Future<?>>> check : platform.readinessChecks().entrySet()) {
      ready.register(check.getKey(), CHECK_TIMEOUT_MS, promise -> {
        Future<?> outcome;
        try {
          outcome = check.getValue().get();
        } catch (RuntimeException e) {
          outcome = Future.failedFuture(e);
        }
        outcome.onComplete(ar -> promise.tryComplete(ar.succeeded() ? Status.OK() : Status.KO()));
      });
    }
    router.get("/ready").handler(ready);

    if (platform.vertx().isMetricsEnabled()) {
      router.get("/metrics").handler(PrometheusScrapingHandler.create());
    } else {
      router.get("/metrics").handler(rc -> rc.fail(503));
    }
  }
}
