package io.kith.gateway.http;

import io.kith.platform.Platform;
import io.kith.platform.bus.ServicePing;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Operational endpoints outside the API contract: {@code /health} (liveness: the process serves HTTP),
 * {@code /ready} (readiness: Redis, MongoDB, cluster membership, the services the gateway calls and any module's checks
 * answer within their deadline; 503 otherwise, also when a check times out; a failed check shows its {@code reason}, the
 * cluster check the member count) and
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

  /**
   * Adds to {@code platform}'s readiness one check per service address the gateway calls: ready while some node's
   * consumer of it answers a ping ({@link ServicePing}), so that a gateway whose services run on no node (or on nodes
   * that do not answer) is taken out of the load balancer instead of answering every request with 503.
   */
  public static void addServiceChecks(Platform platform, List<String> addresses) {
    for (String address : addresses) {
      platform.addReadinessCheck("service " + address,
          () -> ServicePing.ping(platform.vertx(), address, CHECK_TIMEOUT_MS));
    }
  }

  /** Mounts the three endpoints on {@code router}. */
  public static void mount(Router router, Platform platform) {
    HealthCheckHandler live = HealthCheckHandler.create(platform.vertx());
    live.register("process", promise -> promise.complete(Status.OK()));
    router.get("/health").handler(live);

    HealthCheckHandler ready = HealthCheckHandler.create(platform.vertx());
    for (Map.Entry<String, Supplier<Future<?>>> check : platform.readinessChecks().entrySet()) {
      // the check's own deadline is shorter than the handler's: a check that times out is a store that is down (503),
      // not a check that broke (which the handler answers with 500)
      ready.register(check.getKey(), 2 * CHECK_TIMEOUT_MS, promise -> {
        Future<?> outcome;
        try {
          outcome = check.getValue().get();
        } catch (RuntimeException e) {
          outcome = Future.failedFuture(e);
        }
        outcome.timeout(CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .onComplete(ar -> promise.tryComplete(status(ar)));
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
    if (platform.metrics().registry() instanceof PrometheusMeterRegistry) {
      // the node's own registry: Vert.x's meters and Kith's (see KithMetrics)
      router.get("/metrics").handler(
          PrometheusScrapingHandler.create((PrometheusMeterRegistry) platform.metrics().registry()));
    } else if (platform.vertx().isMetricsEnabled()) {
      router.get("/metrics").handler(PrometheusScrapingHandler.create());
    } else {
      router.get("/metrics").handler(rc -> rc.fail(503));
    }
  }

  /**
   * A check's status: a check answering a JSON object (the cluster's member count) shows it as the check's
   * {@code data}; a failed one shows its reason, so an operator reading {@code /ready} sees why the node is out.
   */
  private static Status status(AsyncResult<?> ar) {
    if (ar.succeeded()) {
      return ar.result() instanceof JsonObject data ? Status.OK(data) : Status.OK();
    }
    String reason = ar.cause().getMessage();
    return Status.KO(new JsonObject().put("reason", reason == null ? ar.cause().getClass().getSimpleName() : reason));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
