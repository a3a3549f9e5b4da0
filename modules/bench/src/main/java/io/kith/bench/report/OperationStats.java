package io.kith.bench.report;

import io.vertx.core.json.JsonObject;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Objects;

/**
 * What the load runner measured for one operation during the recorded part of a phase.
 *
 * <p>Latencies are in microseconds in the histogram and reported in milliseconds. The histogram holds every request
 * that got a correct response, however late; requests that failed, timed out or were dropped are counted apart and
 * are not in it, which is why a report with failures marks its ratios as not valid.
 */
public final class OperationStats {

  /** Percentiles every report shows, in this order. */
  public static final double[] PERCENTILES = {50.0, 90.0, 99.0, 99.9};

  private final String name;
  private final String description;
  private final long sent;
  private final long errors;
  private final long timeouts;
  private final long dropped;
  private final Map<String, Long> errorKinds;
  private final Histogram latencyMicros;
  private final Histogram sendLagMicros;
  private final long windowNanos;
  private final double offeredRate;
  private final Cpu cpu;

  /**
   * @param name          operation name
   * @param description   what it sends
   * @param sent          requests sent during the recorded part
   * @param errors        failed responses (wrong status, bad body, connection errors)
   * @param timeouts      requests without a response within the timeout
   * @param dropped       due requests not sent because too many were in flight
   * @param errorKinds    a few error messages with their counts
   * @param latencyMicros latency of the correct responses (copied)
   * @param sendLagMicros how late the generator sent each request compared to its schedule (copied)
   * @param windowNanos   length of the recorded window, used for the throughput
   * @param offeredRate   requests per second the runner offered this operation (open loop), NaN when none was
   *                      (closed loop) or when unknown
   */
  public OperationStats(String name, String description, long sent, long errors, long timeouts, long dropped,
                        Map<String, Long> errorKinds, Histogram latencyMicros, Histogram sendLagMicros,
                        long windowNanos, double offeredRate) {
    this(name, description, sent, errors, timeouts, dropped, errorKinds, latencyMicros, sendLagMicros, windowNanos,
        offeredRate, null);
  }

  private OperationStats(String name, String description, long sent, long errors, long timeouts, long dropped,
                         Map<String, Long> errorKinds, Histogram latencyMicros, Histogram sendLagMicros,
                         long windowNanos, double offeredRate, Cpu cpu) {
    this.name = Objects.requireNonNull(name);
    this.description = Objects.requireNonNull(description);
    this.sent = sent;
    this.errors = errors;
    this.timeouts = timeouts;
    this.dropped = dropped;
    this.errorKinds = Map.copyOf(errorKinds);
    this.latencyMicros = latencyMicros.copy();
    this.sendLagMicros = sendLagMicros.copy();
    this.windowNanos = windowNanos;
    this.offeredRate = offeredRate;
    this.cpu = cpu;
  }

  /**
   * Kith's CPU time over a measured window and the correct answers in it. Every operation of one phase carries the
   * same instance: the operations of a phase are interleaved, so their CPU cannot be told apart and the figure is
   * the cost of a request of the phase's mix; an operation measured alone in its phase has a cost of its own.
   *
   * @param nanos      Kith's CPU nanoseconds over the window(s)
   * @param requests   correct answers of every operation of the phase(s) in the window(s)
   * @param operations the operations the CPU is shared by (this one alone, or the phase's mix)
   */
  public record Cpu(long nanos, long requests, List<String> operations) {

    /** Copies the names. */
    public Cpu {
      operations = List.copyOf(operations);
    }

    /** Milliseconds of CPU per correct answer; NaN without answers. */
    public double millisPerRequest() {
      return requests <= 0 ? Double.NaN : nanos / 1e6 / requests;
    }

    /** Whether the CPU belongs to this operation alone. */
    public boolean alone() {
      return operations.size() == 1;
    }

    JsonObject toJson() {
      return new JsonObject().put("ms_per_request", number(millisPerRequest())).put("cpu_ms", round3(nanos / 1e6))
          .put("requests", requests).put("shared_by", new io.vertx.core.json.JsonArray(new ArrayList<>(operations)));
    }
  }

  /** The same stats with Kith's CPU over their window. */
  public OperationStats withCpu(Cpu measured) {
    return new OperationStats(name, description, sent, errors, timeouts, dropped, errorKinds, latencyMicros,
        sendLagMicros, windowNanos, offeredRate, measured);
  }

  /** Kith's CPU over the window, shared with the phase's other operations; null when it was not measured. */
  public Cpu cpu() {
    return cpu;
  }

  /** Stats whose offered rate is not known (the run's rate applies). */
  public OperationStats(String name, String description, long sent, long errors, long timeouts, long dropped,
                        Map<String, Long> errorKinds, Histogram latencyMicros, Histogram sendLagMicros,
                        long windowNanos) {
    this(name, description, sent, errors, timeouts, dropped, errorKinds, latencyMicros, sendLagMicros, windowNanos,
        Double.NaN);
  }

  /** The operation's name. */
  public String name() {
    return name;
  }

  /** What the operation sends. */
  public String description() {
    return description;
  }

  /** Requests sent in the recorded window. */
  public long sent() {
    return sent;
  }

  /** Correct responses (the histogram's count). */
  public long ok() {
    return latencyMicros.getTotalCount();
  }

  /** Failed responses. */
  public long errors() {
    return errors;
  }

  /** Requests that got no response in time. */
  public long timeouts() {
    return timeouts;
  }

  /** Due requests that were not sent because too many were in flight. */
  public long dropped() {
    return dropped;
  }

  /** Errors, timeouts and drops together. */
  public long failed() {
    return errors + timeouts + dropped;
  }

  /** A few error messages and how often each occurred. */
  public Map<String, Long> errorKinds() {
    return errorKinds;
  }

  /** Correct responses per second over the recorded window. */
  public double throughput() {
    return windowNanos <= 0 ? 0.0 : ok() * 1e9 / windowNanos;
  }

  /** Requests per second offered to this operation (open loop); NaN in closed loop or when unknown. */
  public double offeredRate() {
    return offeredRate;
  }

  /** Length of the recorded window in seconds. */
  public double windowSeconds() {
    return windowNanos / 1e9;
  }

  /** The latency at {@code percentile} (0 to 100) in milliseconds, or NaN when nothing succeeded. */
  public double percentileMillis(double percentile) {
    return ok() == 0 ? Double.NaN : latencyMicros.getValueAtPercentile(percentile) / 1000.0;
  }

  /** The largest latency in milliseconds, or NaN when nothing succeeded. */
  public double maxMillis() {
    return ok() == 0 ? Double.NaN : latencyMicros.getMaxValue() / 1000.0;
  }

  /** The mean latency in milliseconds, or NaN when nothing succeeded. */
  public double meanMillis() {
    return ok() == 0 ? Double.NaN : latencyMicros.getMean() / 1000.0;
  }

  /** How late the generator sent requests at {@code percentile}, in milliseconds (NaN when none were sent). */
  public double sendLagMillis(double percentile) {
    return sendLagMicros.getTotalCount() == 0 ? Double.NaN : sendLagMicros.getValueAtPercentile(percentile) / 1000.0;
  }

  /** The latency histogram in microseconds (a copy). */
  public Histogram latencyMicros() {
    return latencyMicros.copy();
  }

  /** The JSON form used in the report file. Milliseconds; NaN (nothing measured) becomes null. */
  public JsonObject toJson() {
    JsonObject latency = new JsonObject();
    for (double p : PERCENTILES) {
      latency.put(percentileKey(p), number(percentileMillis(p)));
    }
    latency.put("max", number(maxMillis())).put("mean", number(meanMillis()));
    Map<String, Object> kinds = new LinkedHashMap<>(errorKinds);
    return new JsonObject()
        .put("name", name)
        .put("description", description)
        .put("sent", sent)
        .put("ok", ok())
        .put("errors", errors)
        .put("timeouts", timeouts)
        .put("dropped", dropped)
        .put("error_kinds", new JsonObject(kinds))
        .put("offered_per_second", number(offeredRate))
        .put("throughput_per_second", round3(throughput()))
        .put("window_seconds", round3(windowSeconds()))
        .put("latency_ms", latency)
        .put("send_lag_ms", new JsonObject()
            .put("p50", number(sendLagMillis(50)))
            .put("p99", number(sendLagMillis(99)))
            .put("max", number(sendLagMicros.getTotalCount() == 0 ? Double.NaN : sendLagMicros.getMaxValue() / 1000.0)))
        .put("cpu", cpu == null ? null : cpu.toJson());
  }

  /**
   * One operation's stats out of {@code parts} measured side by side in the same window (several operations of one
   * phase, as a mix): counts and histograms add up, the window is the longest of theirs, so the throughput is the
   * mix's requests per second.
   */
  public static OperationStats concurrent(String name, String description, List<OperationStats> parts) {
    return combine(name, description, parts, parts.stream().mapToLong(p -> p.windowNanos).max().orElse(0));
  }

  /**
   * One operation's stats out of {@code parts} measured one after another (slices of a run): counts and histograms
   * add up, and so do the windows, so the throughput is the requests over the measured time of all parts.
   */
  public static OperationStats sequential(String name, String description, List<OperationStats> parts) {
    return combine(name, description, parts, parts.stream().mapToLong(p -> p.windowNanos).sum());
  }

  private static OperationStats combine(String name, String description, List<OperationStats> parts,
                                        long windowNanos) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("nothing to combine");
    }
    Histogram latency = parts.get(0).latencyMicros.copy();
    Histogram lag = parts.get(0).sendLagMicros.copy();
    latency.reset();
    lag.reset();
    Map<String, Long> kinds = new LinkedHashMap<>();
    long sent = 0;
    long errors = 0;
    long timeouts = 0;
    long dropped = 0;
    for (OperationStats p : parts) {
      latency.add(p.latencyMicros);
      lag.add(p.sendLagMicros);
      p.errorKinds.forEach((kind, count) -> kinds.merge(kind, count, Long::sum));
      sent += p.sent;
      errors += p.errors;
      timeouts += p.timeouts;
      dropped += p.dropped;
    }
    return new OperationStats(name, description, sent, errors, timeouts, dropped, kinds, latency, lag, windowNanos,
        Double.NaN, combinedCpu(parts));
  }

  /**
   * The CPU of {@code parts}: each phase counted once (parts of one phase share one instance), null unless every
   * part was measured.
   */
  private static Cpu combinedCpu(List<OperationStats> parts) {
    Set<Cpu> phases = Collections.newSetFromMap(new IdentityHashMap<>());
    for (OperationStats p : parts) {
      if (p.cpu == null) {
        return null;
      }
      phases.add(p.cpu);
    }
    long nanos = 0;
    long requests = 0;
    Set<String> operations = new LinkedHashSet<>();
    for (Cpu c : phases) {
      nanos += c.nanos;
      requests += c.requests;
      operations.addAll(c.operations);
    }
    return new Cpu(nanos, requests, new ArrayList<>(operations));
  }

  /** The JSON key of a percentile: 50 becomes "p50", 99.9 becomes "p99_9". */
  public static String percentileKey(double percentile) {
    String text = percentile == Math.rint(percentile)
        ? Long.toString((long) percentile)
        : Double.toString(percentile).replace('.', '_');
    return "p" + text;
  }

  static Double number(double value) {
    return Double.isNaN(value) || Double.isInfinite(value) ? null : round3(value);
  }

  static double round3(double value) {
    return Math.round(value * 1000.0) / 1000.0;
  }
}
