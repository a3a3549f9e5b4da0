package io.kith.bench.load;

import java.time.Duration;
import java.util.Objects;

/**
 * How hard and how long the load runner drives each operation.
 *
 * @param rate        requests per second for each operation (open loop); ignored in closed-loop mode
 * @param closedLoop  true for max-throughput mode: {@code connections} requests in flight, each followed at once by
 *                    the next, latency measured from the actual send
 * @param warmup      unrecorded run-in before the measurement, at the same rate
 * @param duration    recorded part of the run
 * @param connections connections per client, and concurrency in closed-loop mode
 * @param timeout     a request without a response this long after its intended send time counts as a timeout
 * @param maxInFlight open loop only: when this many requests are outstanding, a due request is dropped (counted, not
 *                    sent) so that an overwhelmed target cannot exhaust the generator's memory
 */
public record LoadSettings(double rate, boolean closedLoop, Duration warmup, Duration duration, int connections,
                           Duration timeout, int maxInFlight) {

  /** Checks the fields. */
  public LoadSettings {
    Objects.requireNonNull(warmup, "warmup");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(timeout, "timeout");
    if (!closedLoop && !(rate > 0)) {
      throw new IllegalArgumentException("rate must be positive in open-loop mode");
    }
    if (duration.isZero() || duration.isNegative() || warmup.isNegative()) {
      throw new IllegalArgumentException("duration must be positive and warm-up not negative");
    }
    if (connections < 1 || maxInFlight < 1 || timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("connections, max in-flight and timeout must be positive");
    }
  }
}
