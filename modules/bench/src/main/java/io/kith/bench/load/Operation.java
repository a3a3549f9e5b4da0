package io.kith.bench.load;

import io.vertx.core.Future;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * One kind of request a scenario measures, such as "GET /api/v1/ping".
 *
 * <p>{@code call} sends one request and returns a future that succeeds when a correct response arrived and fails
 * otherwise (wrong status, malformed body, connection error). The load runner calls it on its own event-loop context
 * and never blocks on it.
 *
 * @param name        short name used in the report (a table column is about 16 characters wide)
 * @param description what the request is, for the report
 * @param call        sends one request
 * @param rate        open loop: requests per second for this operation, or 0 for the run's rate ({@code --rate}).
 *                    Closed-loop runs ignore it
 */
public record Operation(String name, String description, Supplier<Future<?>> call, double rate) {

  /** Checks the fields. */
  public Operation {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(call, "call");
    if (!(rate >= 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("rate must be 0 (the run's rate) or a positive number, got " + rate);
    }
  }

  /** An operation at the run's rate. */
  public Operation(String name, String description, Supplier<Future<?>> call) {
    this(name, description, call, 0);
  }

  /** The same operation at its own rate, {@code perSecond} requests per second in open loop. */
  public Operation atRate(double perSecond) {
    if (!(perSecond > 0)) {
      throw new IllegalArgumentException("rate must be positive, got " + perSecond);
    }
    return new Operation(name, description, call, perSecond);
  }
}
