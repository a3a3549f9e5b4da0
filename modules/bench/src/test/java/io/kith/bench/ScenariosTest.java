package io.kith.bench;

import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.Scenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.bench.scenario.Scenarios;
import io.vertx.core.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScenariosTest {

  private static Scenario named(String name, ScenarioOption... options) {
    return new Scenario() {
      @Override
      public List<ScenarioOption> options() {
        return List.of(options);
      }

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
    assertEquals("auth-overhead, bridge-roundtrip, accounts-profile, accounts-login, relations-batch, "
        + "relations-followers, feeds-fanout, feeds-home, feeds-moments, notifications, activities-join, "
        + "activities-nearby, messaging-direct, bridge-idle-heap, announcement-push, scale-out", scenarios.names());
    assertEquals("feeds-fanout", scenarios.declaring("publish-rate"));
    assertEquals("relations-followers, feeds-fanout", scenarios.declaring("followers"));
    assertTrue(scenarios.declaresOption("login-rate"));
    assertEquals("accounts-login, announcement-push, scale-out", scenarios.declaring("users"));
    assertFalse(scenarios.declaresOption("rate"));
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
  @DisplayName("a scenario option may not shadow a general option nor be declared twice, and its default is in range")
  void refusesBadOptions() {
    ScenarioOption rate = ScenarioOption.count("rate", "shadows --rate", 1, 1, 10);
    ScenarioOption users = ScenarioOption.count("users", "users", 1, 1, 10);
    assertThrows(IllegalArgumentException.class, () -> new Scenarios(List.of(named("a", rate))));
    assertThrows(IllegalArgumentException.class, () -> new Scenarios(List.of(named("a", users, users))));
    assertThrows(IllegalArgumentException.class, () -> ScenarioOption.count("n", "out of range", 0, 1, 10));
    assertThrows(IllegalArgumentException.class, () -> ScenarioOption.count("N", "upper case", 1, 1, 10));
    assertEquals(2.5, ScenarioOption.number("r", "r", 1, 0.1, 10).parse(" 2.5 "));
    assertEquals("7", ScenarioOption.format(7.0));
    assertEquals("0.5", ScenarioOption.format(0.5));
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
