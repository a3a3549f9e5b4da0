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
 */
public record Operation(String name, String description, Supplier<Future<?>> call) {

  /** Checks the fields. */
  public Operation {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(call, "call");
  }
}
