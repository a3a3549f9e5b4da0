package io.kith.bench.report;

import java.util.Objects;

/**
 * A ratio a scenario wants in its report: the latency of {@code numerator} at {@code percentile} divided by that of
 * {@code denominator}, its baseline measured in the same run. A ratio of 1.25 means "25 % slower than the baseline".
 *
 * @param numerator   name of the measured operation
 * @param denominator name of the baseline operation
 * @param percentile  which latency percentile to compare, 0 to 100 (100 compares the maxima)
 */
public record RatioSpec(String numerator, String denominator, double percentile) {

  /** Checks the fields. */
  public RatioSpec {
    Objects.requireNonNull(numerator, "numerator");
    Objects.requireNonNull(denominator, "denominator");
    if (percentile < 0 || percentile > 100) {
      throw new IllegalArgumentException("percentile must be between 0 and 100");
    }
  }

  /** A label such as {@code whoami/ping p99}. */
  public String label() {
    return numerator + "/" + denominator + " " + OperationStats.percentileKey(percentile).replace('_', '.');
  }
}
