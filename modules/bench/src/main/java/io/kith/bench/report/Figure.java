package io.kith.bench.report;

import java.util.Locale;
import java.util.Objects;

/**
 * A number a scenario measured outside the load runner's latency histograms, such as a throughput reached in a
 * burst, an external baseline ({@code redis-benchmark}), or a ratio between such numbers, optionally with the goal
 * it is held to ("at least 0.4", "at most 1,000 ms").
 *
 * @param name        short name for the report
 * @param value       the number; NaN when it could not be measured
 * @param unit        its unit ({@code inserts/s}, {@code ms}, {@code x} for ratios)
 * @param description how it was measured
 * @param goal        the bound it should meet, or null
 */
public record Figure(String name, double value, String unit, String description, Goal goal) {

  /** Checks the fields. */
  public Figure {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(description, "description");
  }

  /** A figure without a goal. */
  public static Figure of(String name, double value, String unit, String description) {
    return new Figure(name, value, unit, description, null);
  }

  /** The same figure held to {@code goal}. */
  public Figure withGoal(Goal goal) {
    return new Figure(name, value, unit, description, goal);
  }

  /** Whether the goal is met; null when there is no goal or no value. */
  public Boolean met() {
    return goal == null || Double.isNaN(value) ? null : goal.met(value);
  }

  /**
   * A bound on a figure.
   *
   * @param atLeast true for "at least {@code bound}", false for "at most"
   * @param bound   the bound
   */
  public record Goal(boolean atLeast, double bound) {

    /** At least {@code bound}. */
    public static Goal atLeast(double bound) {
      return new Goal(true, bound);
    }

    /** At most {@code bound}. */
    public static Goal atMost(double bound) {
      return new Goal(false, bound);
    }

    /** Whether {@code value} meets the bound. */
    public boolean met(double value) {
      return atLeast ? value >= bound : value <= bound;
    }

    /** {@code >= 0.4}, {@code <= 1000}. */
    public String describe() {
      return (atLeast ? ">= " : "<= ") + java.math.BigDecimal.valueOf(bound).stripTrailingZeros().toPlainString();
    }
  }

  /** A value with a few significant digits, grouped: {@code 52,310}, {@code 0.523}. */
  public static String format(double value) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    double abs = Math.abs(value);
    if (abs >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (abs >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%.3f", value);
  }
}
