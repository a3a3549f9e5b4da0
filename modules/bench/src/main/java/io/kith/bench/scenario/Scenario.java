package io.kith.bench.scenario;

import io.kith.bench.report.ScenarioResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A benchmark the {@code kith-bench} command can run. A new scenario is a class implementing this interface (most
 * extend {@link DescribedScenario}) plus one line in {@link Scenarios#builtIn()}.
 *
 * <p>A scenario measures one or more operations with the context's load runner and names the ratios to report, each
 * against a baseline measured in the same run: speed targets in Kith are ratios, never absolute timings.
 */
public interface Scenario {

  /** The command-line name: lower case, digits and dashes. */
  String name();

  /** One line on what is measured against what. */
  String description();

  /** Whether the scenario needs an access token (with {@code --target}, the user must pass {@code --token}). */
  default boolean needsToken() {
    return true;
  }

  /**
   * Whether the scenario starts the Kith it measures itself (node processes of its own): the bench then starts none
   * in-process, and refuses {@code --target}.
   */
  default boolean startsItsOwnKith() {
    return false;
  }

  /** The scenario's own command-line options ({@code --name value}); none by default. */
  default List<ScenarioOption> options() {
    return List.of();
  }

  /**
   * Configuration merged over the defaults when the bench starts Kith in-process for this scenario (for example
   * per-address limits that a load generator on one address would hit). Remote targets are configured by their
   * operator; the scenario's documentation says what it needs.
   */
  default JsonObject inProcessConfig() {
    return new JsonObject();
  }

  /**
   * Runs the scenario. Called on the load runner's event-loop context; clients come from {@code context}, which
   * closes them afterwards.
   */
  Future<ScenarioResult> run(ScenarioContext context);
}
