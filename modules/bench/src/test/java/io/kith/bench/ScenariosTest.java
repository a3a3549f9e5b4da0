package io.kith.bench;

import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.Scenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.Scenarios;
import io.vertx.core.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScenariosTest {

  private static Scenario named(String name) {
    return new Scenario() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return "test";
      }

      @Override
      public Future<ScenarioResult> run(ScenarioContext context) {
        return Future.failedFuture("not run");
      }
    };
  }

  @Test
  @DisplayName("the built-in scenarios are listed in order and found by name")
  void builtIn() {
    Scenarios scenarios = Scenarios.builtIn();
    assertEquals("auth-overhead, bridge-roundtrip", scenarios.names());
    assertTrue(scenarios.find("auth-overhead").isPresent());
    assertTrue(scenarios.find("nope").isEmpty());
  }

  @Test
  @DisplayName("duplicate, malformed and reserved scenario names are refused")
  void refusesBadNames() {
    assertThrows(IllegalArgumentException.class, () -> new Scenarios(List.of(named("a"), named("a"))));
    assertThrows(IllegalArgumentException.class, () -> new Scenarios(List.of(named("Auth Overhead"))));
    assertThrows(IllegalArgumentException.class, () -> new Scenarios(List.of(named("list"))));
  }

  @Test
  @DisplayName("the progress line shows phase, state, share done and counters")
  void progressLine() {
    String line = TerminalProgress.line(new io.kith.bench.load.ProgressListener.Snapshot("auth-overhead",
        12_500_000_000L, 25_000_000_000L, false, 5000, 4990, 2, 10));
    assertEquals("auth-overhead  measuring [############------------]  50%  12.5s/25.0s  sent 5000  done 4990  "
        + "failed 2  in flight 10", line);
  }
}
