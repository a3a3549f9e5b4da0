package io.kith.bench;

import io.kith.bench.scenario.Scenarios;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The announcement-push scenario run tiny against a real in-process Kith and a local APNs, as the command runs it:
 * every recipient's device token must be pushed exactly once, so a clean report means the announcement reached
 * everyone through APNs and nobody twice.
 */
class PushScenarioTest {

  /** The value of the report's figure {@code name}. */
  private static double figure(JsonObject report, String name) {
    return report.getJsonArray("figures").stream().map(JsonObject.class::cast)
        .filter(f -> name.equals(f.getString("name"))).findFirst().orElseThrow().getDouble("value");
  }

  @Test
  @DisplayName("announcement-push pushes every offline recipient's APNs token exactly once, none lost or repeated")
  void tiny(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("report.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Bench(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), false, Scenarios.builtIn()).run(List.of(
        "announcement-push", "--users", "12", "--settle", "1", "--timeout", "60s", "--no-progress",
        "--json", json.toString()));
    String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertEquals(Bench.EXIT_OK, status, text);
    JsonObject report = new JsonObject(Files.readString(json));
    assertTrue(report.getBoolean("clean"), report.encodePrettily());
    JsonObject push = report.getJsonArray("operations").getJsonObject(0);
    assertEquals("push", push.getString("name"));
    assertEquals(12, push.getLong("sent"), push.encode());
    assertEquals(12, push.getLong("ok"), push.encode());
    assertEquals(0.0, figure(report, "lost"));
    assertEquals(0.0, figure(report, "duplicates"));
    assertTrue(figure(report, "last push") >= figure(report, "first push"));
    assertTrue(figure(report, "Kith CPU per push") > 0);
  }
}
