package io.kith.gateway.http;

import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Operational endpoints outside the API contract: {@code /health} (liveness: the process serves HTTP),
 * {@code /ready} (readiness: Redis, MongoDB, cluster membership and any module's checks answer; 503 otherwise) and
 * {@code /metrics} (Prometheus text format, when metrics are enabled on the Vert.x instance). When
 * {@code http.metrics-token} is set, {@code /metrics} answers only requests with {@code Authorization: Bearer
 * <metrics-token>}; empty (the default, for development) leaves it open.
 */
public final class HealthRoutes {

  private static final long CHECK_TIMEOUT_MS = 2_000;
  /** Config key ({@code http} section) of the bearer token that {@code /metrics} requires; empty = open. */
  public static final String METRICS_TOKEN = "metrics-token";
  private static final String BEARER = "Bearer ";

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

    String metricsToken = platform.config().section("http").getString(METRICS_TOKEN, "");
    if (!metricsToken.isEmpty()) {
      byte[] expected = sha256(metricsToken);
      router.get("/metrics").handler(rc -> {
        String header = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
        boolean bearer = header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length());
        // compared as digests in constant time: neither the content nor the length of the token leaks by timing
        if (bearer && MessageDigest.isEqual(expected, sha256(header.substring(BEARER.length()).trim()))) {
          rc.next();
        } else {
          rc.response().putHeader("WWW-Authenticate", "Bearer");
          rc.fail(401);
        }
      });
    }
    if (platform.vertx().isMetricsEnabled()) {
      router.get("/metrics").handler(PrometheusScrapingHandler.create());
    } else {
      router.get("/metrics").handler(rc -> rc.fail(503));
    }
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
