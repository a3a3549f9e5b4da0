package io.kith.gateway.http;

import io.kith.platform.error.ErrorCode;
import io.kith.platform.error.Failures;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * Refuses a query parameter that the operation does not declare in the contract, with 400
 * {@code unknown_query_parameter} naming it. The contract validator checks the declared parameters and ignores the
 * rest, so a misspelt or unsupported filter ({@code ?activity=} where the list has no such filter) would otherwise
 * answer an unfiltered list that looks like a filtered one. One handler per operation, built from the contract.
 */
final class QueryParameters implements Handler<RoutingContext> {

  /** A query parameter the operation does not declare. */
  static final ErrorCode UNKNOWN_QUERY_PARAMETER =
      ErrorCode.of(400, "unknown_query_parameter", "Unknown query parameter");

  private final Set<String> declared;

  private QueryParameters(Set<String> declared) {
    this.declared = declared;
  }

  /** The check for one operation: the names of its query parameters (path-level ones included by the contract). */
  static QueryParameters of(Operation operation) {
    return new QueryParameters(operation.getParameters().stream()
        .filter(p -> p.getIn() == Location.QUERY)
        .map(Parameter::getName)
        .collect(Collectors.toUnmodifiableSet()));
  }

  @Override
  public void handle(RoutingContext rc) {
    for (String name : rc.queryParams().names()) {
      if (!declared.contains(name)) {
        rc.fail(Failures.field(UNKNOWN_QUERY_PARAMETER, name, declared.isEmpty()
            ? "this operation takes no query parameters; " + name + " is not one"
            : "unknown query parameter " + name + "; this operation takes " + String.join(", ",
                declared.stream().sorted().toList())));
        return;
      }
    }
    rc.next();
  }
}
