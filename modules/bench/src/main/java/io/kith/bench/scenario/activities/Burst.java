package io.kith.bench.scenario.activities;

import io.kith.bench.jvm.KithCpu;
import io.kith.bench.report.OperationStats;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Requests sent all at once (a burst) rather than at a rate, for questions such as "200 users join at the same
 * moment": each request's latency runs from the moment the burst was sent to its answer, which is what each of those
 * users waits. Bursts of one kind accumulate into one {@link OperationStats}, whose throughput is the requests over
 * the summed burst durations and whose offered rate is that same throughput (a burst offers everything at once).
 *
 * <p>Each request's outcome is classified by the scenario: an outcome name (a correct answer, possibly a refusal the
 * scenario expects, such as {@code activity_full}), or null for an error, which is counted as failed.
 */
final class Burst {

  private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);
  private static final int MAX_ERROR_KINDS = 8;

  private final String name;
  private final String description;
  private final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
  private final Histogram sendLag = new Histogram(HIGHEST_MICROS, 3);
  private final Map<String, Long> errorKinds = new LinkedHashMap<>();
  private final Map<String, Long> outcomes = new LinkedHashMap<>();
  private long sent;
  private long errors;
  private long windowNanos;
  private long bursts;
  private final KithCpu cpu;
  /** Kith's CPU over the bursts' windows; negative when not measured. */
  private long cpuNanos;

  /** A burst kind reported as operation {@code name}, without Kith's CPU (the warm-up's). */
  Burst(String name, String description) {
    this(name, description, KithCpu.none("warm-up"));
  }

  /** A burst kind reported as operation {@code name}, with Kith's CPU over its bursts. */
  Burst(String name, String description, KithCpu cpu) {
    this.name = name;
    this.description = description;
    this.cpu = cpu;
  }

  /**
   * Sends {@code count} requests at once ({@code request} makes the i-th) and completes, on the caller's context,
   * when every one has been answered, with the outcome of each in order (null for errors). {@code classify} names
   * the outcome of a completed request from its result, or from its failure.
   */
  <T> Future<List<String>> fire(int count, IntFunction<Future<T>> request, Function<Future<T>, String> classify) {
    Promise<List<String>> done = Promise.promise();
    String[] results = new String[count];
    int[] pending = {count};
    long start = System.nanoTime();
    long cpuStart = cpu.sample();
    for (int i = 0; i < count; i++) {
      int index = i;
      Future<T> future;
      try {
        future = request.apply(i);
      } catch (RuntimeException e) {
        future = Future.failedFuture(e);
      }
      future.onComplete(ar -> {
        long took = System.nanoTime() - start;
        String outcome = classify.apply(future(ar));
        record(outcome, took, ar.failed() ? ar.cause() : null);
        results[index] = outcome;
        if (--pending[0] == 0) {
          windowNanos += System.nanoTime() - start;
          long cpuEnd = cpuStart < 0 || cpuNanos < 0 ? -1 : cpu.sample();
          cpuNanos = cpuEnd < 0 ? -1 : cpuNanos + cpuEnd - cpuStart;
          bursts++;
          done.complete(java.util.Arrays.asList(results));
        }
      });
    }
    return done.future();
  }

  private static <T> Future<T> future(io.vertx.core.AsyncResult<T> ar) {
    return ar.succeeded() ? Future.succeededFuture(ar.result()) : Future.failedFuture(ar.cause());
  }

  private void record(String outcome, long nanos, Throwable failure) {
    sent++;
    if (outcome == null) {
      errors++;
      String kind = failure == null ? "a wrong answer" : String.valueOf(failure.getMessage());
      if (errorKinds.containsKey(kind) || errorKinds.size() < MAX_ERROR_KINDS) {
        errorKinds.merge(kind, 1L, Long::sum);
      } else {
        errorKinds.merge("other errors", 1L, Long::sum);
      }
      return;
    }
    outcomes.merge(outcome, 1L, Long::sum);
    latency.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, nanos) / 1000));
    sendLag.recordValue(0);
  }

  /** Counts an error found after the burst (a wrong total, for example) against this operation. */
  void error(String kind) {
    errors++;
    errorKinds.merge(kind, 1L, Long::sum);
  }

  /** How many requests ended with each outcome, over every burst. */
  Map<String, Long> outcomes() {
    return Map.copyOf(outcomes);
  }

  /** The bursts fired. */
  long bursts() {
    return bursts;
  }

  /** The latencies of the correct answers, in microseconds. */
  Histogram latency() {
    return latency;
  }

  /** What was measured, for the report. */
  OperationStats stats() {
    double seconds = windowNanos / 1e9;
    double throughput = seconds > 0 ? (sent - errors) / seconds : Double.NaN;
    // a whole number at most the throughput, so that the report's saturation check (90 % of the offered rate) holds
    double offered = Double.isNaN(throughput) ? Double.NaN : Math.max(1, Math.floor(throughput));
    OperationStats stats = new OperationStats(name, description, sent, errors, 0, 0, errorKinds, latency, sendLag,
        windowNanos, offered);
    return cpuNanos < 0 || bursts == 0 ? stats
        : stats.withCpu(new OperationStats.Cpu(cpuNanos, stats.ok(), List.of(name)));
  }

  /** Names of each outcome in order, for notes: {@code joined 50, activity_full 150}. */
  static String describe(Map<String, Long> outcomes) {
    List<String> parts = new ArrayList<>();
    outcomes.forEach((k, v) -> parts.add(k + " " + v));
    return String.join(", ", parts);
  }
}
