package io.kith.bench.load;

/**
 * When each request of a fixed-rate, open-loop run is meant to be sent.
 *
 * <p>Request {@code i} (counting from 0) is due at {@code start + round(i * 1e9 / rate)} nanoseconds, whatever happened
 * to the requests before it. The load runner measures every latency from this intended time rather than from the
 * moment the request actually left, so a stalled server or a stalled generator shows up in the percentiles instead of
 * silently lowering the offered load (the "coordinated omission" correction of wrk2 and HdrHistogram).
 *
 * <p>The first {@code warmup} of the schedule is warm-up: those requests are sent but not recorded. The schedule ends
 * after {@code warmup + measure}; the last request is the last one whose intended time falls before that end.
 */
public final class OpenLoopSchedule {

  private static final double NANOS_PER_SECOND = 1e9;

  private final long startNanos;
  private final double ratePerSecond;
  private final long warmupNanos;
  private final long totalNanos;
  private final long total;

  /**
   * @param startNanos    the {@link System#nanoTime()} at which request 0 is due
   * @param ratePerSecond requests per second, all operations together; positive
   * @param warmupNanos   length of the unrecorded warm-up, zero or more
   * @param measureNanos  length of the recorded part, positive
   */
  public OpenLoopSchedule(long startNanos, double ratePerSecond, long warmupNanos, long measureNanos) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate must be a positive number, got " + ratePerSecond);
    }
    if (warmupNanos < 0 || measureNanos <= 0) {
      throw new IllegalArgumentException("warm-up must be >= 0 and measurement > 0");
    }
    this.startNanos = startNanos;
    this.ratePerSecond = ratePerSecond;
    this.warmupNanos = warmupNanos;
    this.totalNanos = warmupNanos + measureNanos;
    this.total = countBefore(totalNanos);
  }

  /** How many requests the schedule holds (all with an intended time before the end). */
  public long total() {
    return total;
  }

  /** The {@link System#nanoTime()} at which request {@code index} is due. */
  public long intendedNanos(long index) {
    return startNanos + offsetNanos(index);
  }

  /** Whether request {@code index} belongs to the warm-up (sent, not recorded). */
  public boolean isWarmup(long index) {
    return offsetNanos(index) < warmupNanos;
  }

  /** How many requests are due at {@code nowNanos}: the count of indexes whose intended time is not after it. */
  public long dueCount(long nowNanos) {
    long elapsed = nowNanos - startNanos;
    if (elapsed < 0) {
      return 0;
    }
    // An estimate from the rate, then corrected against intendedNanos so the two can never disagree by rounding.
    long n = Math.min(total, (long) Math.floor(elapsed * ratePerSecond / NANOS_PER_SECOND) + 1);
    while (n > 0 && offsetNanos(n - 1) > elapsed) {
      n--;
    }
    while (n < total && offsetNanos(n) <= elapsed) {
      n++;
    }
    return n;
  }

  /** The {@link System#nanoTime()} at which request 0 is due. */
  public long startNanos() {
    return startNanos;
  }

  /** The {@link System#nanoTime()} at which recording starts (the end of the warm-up). */
  public long measureStartNanos() {
    return startNanos + warmupNanos;
  }

  /** The {@link System#nanoTime()} at which the schedule ends. */
  public long endNanos() {
    return startNanos + totalNanos;
  }

  private long offsetNanos(long index) {
    return Math.round(index * NANOS_PER_SECOND / ratePerSecond);
  }

  private long countBefore(long nanos) {
    // Indexes i with offset(i) < nanos. Start from the arithmetic answer and correct for rounding.
    long n = Math.max(0, (long) Math.ceil(nanos * ratePerSecond / NANOS_PER_SECOND));
    while (n > 0 && offsetNanos(n - 1) >= nanos) {
      n--;
    }
    while (offsetNanos(n) < nanos) {
      n++;
    }
    return n;
  }
}
