package io.kith.bench;

import io.kith.bench.scenario.Scenarios;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The announcement-push scenario run tiny against a real in-process Kith and a local APNs, as the command runs it:
 * every recipient's device token must be pushed exactly once, so a clean report means the announcement reached
 * everyone through APNs and nobody twice.
 */
class PushScenarioTest {

  private static Map<String, JsonObject> byName(JsonArray array) {
    Map<String, JsonObject> out = new HashMap<>();
    array.forEach(o -> out.put(((JsonObject) o).getString("name"), (JsonObject) o));
    return out;
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
    JsonObject push = byName(report.getJsonArray("operations")).get("push");
    assertEquals(12, push.getLong("sent"), push.encode());
    assertEquals(12, push.getLong("ok"), push.encode());
    Map<String, JsonObject> figures = byName(report.getJsonArray("figures"));
    assertEquals(0.0, figures.get("lost").getDouble("value"));
    assertEquals(0.0, figures.get("duplicates").getDouble("value"));
    assertTrue(figures.get("last push").getDouble("value") >= figures.get("first push").getDouble("value"));
    assertTrue(figures.get("Kith CPU per push").getDouble("value") > 0);
  }
}
