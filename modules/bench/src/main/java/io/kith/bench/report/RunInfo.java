package io.kith.bench.report;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a run was set up, for the report header.
 *
 * @param scenario    scenario name
 * @param description what the scenario measures
 * @param target      the base URL that was measured
 * @param inProcess   whether Kith was started inside the bench process on embedded stores
 * @param closedLoop  max-throughput mode instead of fixed rate
 * @param rate        requests per second per operation (open loop)
 * @param warmup      unrecorded run-in per phase
 * @param duration    recorded length per phase
 * @param connections connections per client
 * @param timeout     request timeout
 * @param startedAt   wall-clock start of the run
 * @param options     the scenario's own options with their values (defaults filled in), in declaration order
 */
public record RunInfo(String scenario, String description, String target, boolean inProcess, boolean closedLoop,
                      double rate, Duration warmup, Duration duration, int connections, Duration timeout,
                      Instant startedAt, Map<String, Double> options) {

  /** Copies the options, keeping their order. */
  public RunInfo {
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }
}
