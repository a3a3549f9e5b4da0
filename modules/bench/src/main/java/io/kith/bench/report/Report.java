package io.kith.bench.report;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The outcome of one bench run: set-up, per-operation latency and throughput, and the ratios against the baseline,
 * rendered as a terminal table or as JSON.
 *
 * <p>A ratio is <em>valid</em> only when both operations answered every recorded request correctly, and, in open-loop
 * mode, kept up with the offered rate; otherwise queueing or failures, not the code path, dominate the comparison and
 * the report says why.
 */
public final class Report {

  /** The achieved share of the offered rate below which an operation counts as saturated. */
  static final double SUSTAINED_SHARE = 0.9;
  /** Send lag at p99 above which the report warns that the generator itself was too slow. */
  static final double LAG_WARNING_MILLIS = 5.0;

  private final RunInfo run;
  private final ScenarioResult result;
  private final List<RatioValue> ratios;
  private final List<String> notes;
  private final String cpuAttribution;

  /** Computes the ratios and notes, for a run that measured no CPU. */
  public Report(RunInfo run, ScenarioResult result) {
    this(run, result, null);
  }

  /**
   * Computes the ratios and notes.
   *
   * @param cpuAttribution what the operations' CPU figures count (whose processes and threads), or null when the
   *                       run measured none
   */
  public Report(RunInfo run, ScenarioResult result, String cpuAttribution) {
    this.run = run;
    this.cpuAttribution = cpuAttribution;
    this.result = result;
    this.ratios = result.ratios().stream().map(this::compute).collect(Collectors.toUnmodifiableList());
    List<String> all = new ArrayList<>(result.notes());
    for (OperationStats op : result.operations()) {
      double lag = op.sendLagMillis(99);
      if (!run.closedLoop() && lag > LAG_WARNING_MILLIS) {
        all.add(String.format(Locale.ROOT, "%s: the generator sent requests up to %.1f ms late (p99); the client "
            + "side was saturated and its delay is part of the latencies", op.name(), lag));
      }
    }
    if (run.closedLoop()) {
      all.add("closed loop: latencies are measured from the actual send and exclude queueing in the generator; "
          + "use open loop (--rate N) for latency ratios");
    }
    this.notes = List.copyOf(all);
  }

  /**
   * A computed ratio.
   *
   * @param spec   what was compared
   * @param value  numerator latency divided by denominator latency; NaN when either is missing or zero
   * @param valid  whether the comparison is trustworthy (see the class comment)
   * @param reason why it is not valid; empty when valid
   */
  public record RatioValue(RatioSpec spec, double value, boolean valid, String reason) {
  }

  /** The run set-up. */
  public RunInfo run() {
    return run;
  }

  /** The measured operations. */
  public List<OperationStats> operations() {
    return result.operations();
  }

  /** The computed ratios. */
  public List<RatioValue> ratios() {
    return ratios;
  }

  /** Figures measured apart from the operations. */
  public List<Figure> figures() {
    return result.figures();
  }

  /** Remarks for the reader. */
  public List<String> notes() {
    return notes;
  }

  /** Whether no recorded request failed, timed out or was dropped. */
  public boolean clean() {
    return result.operations().stream().allMatch(op -> op.failed() == 0 && op.ok() > 0);
  }

  /** The operation called {@code name}. */
  public Optional<OperationStats> operation(String name) {
    return result.operations().stream().filter(op -> op.name().equals(name)).findFirst();
  }

  private RatioValue compute(RatioSpec spec) {
    Optional<OperationStats> num = operation(spec.numerator());
    Optional<OperationStats> den = operation(spec.denominator());
    if (num.isEmpty() || den.isEmpty()) {
      return new RatioValue(spec, Double.NaN, false, "operation "
          + (num.isEmpty() ? spec.numerator() : spec.denominator()) + " was not measured");
    }
    double top = latency(num.get(), spec.percentile());
    double bottom = latency(den.get(), spec.percentile());
    double value = Double.isNaN(top) || Double.isNaN(bottom) || bottom <= 0 ? Double.NaN : top / bottom;
    List<String> reasons = new ArrayList<>();
    for (OperationStats op : List.of(den.get(), num.get())) {
      if (op.ok() == 0) {
        reasons.add(op.name() + " had no correct response");
      } else if (op.failed() > 0) {
        reasons.add(op.name() + " had " + op.failed() + " failed requests");
      }
      double offered = offered(op);
      if (!run.closedLoop() && op.ok() > 0 && op.throughput() < SUSTAINED_SHARE * offered) {
        reasons.add(String.format(Locale.ROOT, "%s did not sustain the rate (%.1f of %s req/s)", op.name(),
            op.throughput(), formatRate(offered)));
      }
    }
    if (reasons.isEmpty() && Double.isNaN(value)) {
      reasons.add("the baseline latency is zero");
    }
    return new RatioValue(spec, value, reasons.isEmpty(), String.join("; ", reasons));
  }

  /** The rate offered to {@code op}: its own when it had one, else the run's. */
  private double offered(OperationStats op) {
    return Double.isNaN(op.offeredRate()) ? run.rate() : op.offeredRate();
  }

  /** Whether {@code op} had a rate of its own, different from the run's. */
  private boolean ownRate(OperationStats op) {
    return !run.closedLoop() && !Double.isNaN(op.offeredRate()) && op.offeredRate() != run.rate();
  }

  private static double latency(OperationStats op, double percentile) {
    return percentile >= 100 ? op.maxMillis() : op.percentileMillis(percentile);
  }

  /** The report as JSON (latencies in milliseconds, ratios as plain numbers, null where nothing was measured). */
  public JsonObject toJson() {
    JsonArray ops = new JsonArray();
    result.operations().forEach(op -> ops.add(op.toJson()));
    JsonArray ratioArray = new JsonArray();
    for (RatioValue r : ratios) {
      ratioArray.add(new JsonObject()
          .put("name", r.spec().label())
          .put("numerator", r.spec().numerator())
          .put("denominator", r.spec().denominator())
          .put("percentile", r.spec().percentile())
          .put("value", OperationStats.number(r.value()))
          .put("valid", r.valid())
          .put("reason", r.valid() ? null : r.reason()));
    }
    JsonArray figureArray = new JsonArray();
    for (Figure f : result.figures()) {
      figureArray.add(new JsonObject()
          .put("name", f.name())
          .put("value", OperationStats.number(f.value()))
          .put("unit", f.unit())
          .put("description", f.description())
          .put("goal", f.goal() == null ? null : f.goal().describe())
          .put("met", f.met()));
    }
    JsonObject load = new JsonObject()
        .put("mode", run.closedLoop() ? "closed-loop" : "open-loop")
        .put("rate_per_operation", run.closedLoop() ? null : run.rate())
        .put("warmup_seconds", seconds(run.warmup()))
        .put("duration_seconds", seconds(run.duration()))
        .put("connections", run.connections())
        .put("timeout_seconds", seconds(run.timeout()));
    JsonObject options = new JsonObject();
    run.options().forEach(options::put);
    return new JsonObject()
        .put("scenario", run.scenario())
        .put("description", run.description())
        .put("started_at", run.startedAt().toString())
        .put("target", run.target())
        .put("in_process", run.inProcess())
        .put("load", load)
        .put("options", options)
        .put("operations", ops)
        .put("ratios", ratioArray)
        .put("figures", figureArray)
        .put("cpu", new JsonObject().put("measured", cpuMeasured()).put("attribution", cpuAttribution))
        .put("clean", clean())
        .put("notes", new JsonArray(new ArrayList<>(notes)))
        .put("environment", new JsonObject()
            .put("java", System.getProperty("java.version"))
            .put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"))
            .put("cpus", Runtime.getRuntime().availableProcessors()));
  }

  /**
   * The report as a plain-text table for the terminal. Why one long method: it writes the sections in the order they
   * are printed (heading, load, options, operations, CPU, ratios, figures, notes), each a few lines.
   */
  public String toTable() {
    StringBuilder out = new StringBuilder();
    out.append("kith-bench ").append(run.scenario()).append(": ").append(run.description()).append('\n');
    out.append("target  ").append(run.target()).append(run.inProcess() ? " (in-process Kith, embedded stores)" : "")
        .append('\n');
    String ownRates = result.operations().stream().filter(this::ownRate)
        .map(op -> op.name() + " " + formatRate(op.offeredRate()) + " req/s").collect(Collectors.joining(", "));
    out.append("load    ").append(run.closedLoop() ? "closed loop (max throughput)"
            : "open loop, " + formatRate(run.rate()) + " req/s per operation"
                + (ownRates.isEmpty() ? "" : " (" + ownRates + ")"))
        .append(", warm-up ").append(formatDuration(run.warmup()))
        .append(", measured ").append(formatDuration(run.duration()))
        .append(", ").append(run.connections()).append(" connections")
        .append(", timeout ").append(formatDuration(run.timeout())).append('\n');
    if (!run.options().isEmpty()) {
      out.append("options ").append(run.options().entrySet().stream()
          .map(e -> "--" + e.getKey() + " " + formatRate(e.getValue())).collect(Collectors.joining(" "))).append('\n');
    }
    if (!result.operations().isEmpty()) {
      out.append('\n');
      out.append(String.format(Locale.ROOT, "%-18s %9s %9s %7s %9s %9s %9s %9s %9s %9s%n", "operation", "sent", "ok",
          "failed", "req/s", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms"));
    }
    for (OperationStats op : result.operations()) {
      out.append(String.format(Locale.ROOT, "%-18s %9d %9d %7d %9.1f %9s %9s %9s %9s %9s%n", op.name(), op.sent(),
          op.ok(), op.failed(), op.throughput(), millis(op.percentileMillis(50)), millis(op.percentileMillis(90)),
          millis(op.percentileMillis(99)), millis(op.percentileMillis(99.9)), millis(op.maxMillis())));
    }
    for (OperationStats op : result.operations()) {
      if (op.failed() > 0) {
        out.append(String.format(Locale.ROOT, "  %s: %d errors, %d timeouts, %d dropped%s%n", op.name(),
            op.errors(), op.timeouts(), op.dropped(), kinds(op.errorKinds())));
      }
    }
    appendCpu(out);
    if (!ratios.isEmpty()) {
      out.append('\n');
      for (RatioValue r : ratios) {
        out.append(String.format(Locale.ROOT, "ratio %-30s %8s%s%n", r.spec().label(),
            Double.isNaN(r.value()) ? "n/a" : String.format(Locale.ROOT, "%.3fx", r.value()),
            r.valid() ? "" : "  NOT VALID: " + r.reason()));
      }
    }
    if (!result.figures().isEmpty()) {
      out.append('\n');
      for (Figure f : result.figures()) {
        String goal = f.goal() == null ? "" : "  goal " + f.goal().describe()
            + (f.met() == null ? "" : f.met() ? ": met" : ": MISSED");
        out.append(String.format(Locale.ROOT, "figure %-36s %12s %s%s%n", f.name(), Figure.format(f.value()),
            f.unit(), goal));
      }
    }
    if (!notes.isEmpty()) {
      out.append('\n');
      notes.forEach(n -> out.append("note: ").append(n).append('\n'));
    }
    return out.toString();
  }

  /** Whether any operation carries a CPU figure. */
  public boolean cpuMeasured() {
    return result.operations().stream().anyMatch(op -> op.cpu() != null);
  }

  /** What the CPU figures count, or null when the run measured none. */
  public String cpuAttribution() {
    return cpuAttribution;
  }

  /** Kith's CPU per correct answer of each operation, and whether the operation shared it with its phase's mix. */
  private void appendCpu(StringBuilder out) {
    if (result.operations().isEmpty()) {
      return;
    }
    out.append('\n');
    if (!cpuMeasured()) {
      out.append("cpu: not measured").append(cpuAttribution == null ? "" : " (" + cpuAttribution + ")").append('\n');
      return;
    }
    out.append("cpu: Kith's CPU per correct answer; ").append(cpuAttribution).append('\n');
    out.append(String.format(Locale.ROOT, "%-18s %12s %9s  %s%n", "operation", "cpu ms/req", "answers", "shared by"));
    for (OperationStats op : result.operations()) {
      OperationStats.Cpu cpu = op.cpu();
      if (cpu == null) {
        out.append(String.format(Locale.ROOT, "%-18s %12s %9s  %s%n", op.name(), "-", "-",
            "not measured (timed outside the load runner)"));
      } else {
        out.append(String.format(Locale.ROOT, "%-18s %12s %9d  %s%n", op.name(), millis(cpu.millisPerRequest()),
            cpu.requests(), cpu.alone() ? "alone" : mix(cpu.operations())));
      }
    }
  }

  /** The operations sharing a phase's CPU, named when they are few. */
  private static String mix(List<String> operations) {
    return "the phase's mix" + (operations.size() <= 4 ? ": " + String.join(", ", operations)
        : " of " + operations.size() + " operations");
  }

  private static String kinds(Map<String, Long> kinds) {
    if (kinds.isEmpty()) {
      return "";
    }
    return kinds.entrySet().stream().map(e -> e.getValue() + "x " + e.getKey())
        .collect(Collectors.joining("; ", " (", ")"));
  }

  private static String millis(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.3f", value);
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  static String formatRate(double rate) {
    return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
  }

  /** A duration the way the command line takes it: {@code 20s}, {@code 500ms}, {@code 2m}. */
  public static String formatDuration(Duration d) {
    long millis = d.toMillis();
    if (millis % 60_000 == 0 && millis > 0) {
      return millis / 60_000 + "m";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }
}
