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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The activities scenarios run tiny against a real in-process Kith, as the command runs them. The join bursts check
 * that exactly the capacity got in (told, counted and listed); the nearby searches check every page (full, within the
 * radius, in order) and the floor's answer; so a clean report means every answer was right.
 */
class ActivitiesScenariosTest {

  private static JsonObject bench(Path dir, String... args) throws Exception {
    Path json = dir.resolve("report.json");
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--warmup", "500ms", "--duration", "2s", "--connections", "4", "--timeout", "60s",
        "--no-progress", "--json", json.toString()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Bench(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), false, Scenarios.builtIn()).run(all);
    String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertEquals(Bench.EXIT_OK, status, text);
    JsonObject report = new JsonObject(Files.readString(json));
    assertTrue(report.getBoolean("clean"), report.encodePrettily());
    return report;
  }

  private static Map<String, JsonObject> byName(JsonArray array) {
    Map<String, JsonObject> out = new HashMap<>();
    array.forEach(o -> out.put(((JsonObject) o).getString("name"), (JsonObject) o));
    return out;
  }

  @Test
  @DisplayName("activities-join: every burst admits exactly the capacity, over HTTP and the service proxy")
  void join(@TempDir Path dir) throws Exception {
    JsonObject report = bench(dir, "activities-join", "--joiners", "12", "--capacity", "5", "--rounds", "2",
        "--warmup-rounds", "1");
    Map<String, JsonObject> ops = byName(report.getJsonArray("operations"));
    assertEquals(3, ops.size(), ops.keySet().toString());
    for (String name : List.of("join-http", "join-bus", "whoami-burst")) {
      assertEquals(24, ops.get(name).getLong("sent"), name);
      assertEquals(24, ops.get(name).getLong("ok"), name);
      // Kith's CPU over the bursts of that kind alone (in-process: this JVM minus the generator's threads)
      JsonObject cpu = ops.get(name).getJsonObject("cpu");
      assertEquals(24, cpu.getLong("requests"), name);
      assertEquals(List.of(name), cpu.getJsonArray("shared_by").getList(), name);
    }
    Map<String, JsonObject> figures = byName(report.getJsonArray("figures"));
    assertEquals(5.0, figures.get("most admitted").getDouble("value"));
    assertEquals(5.0, figures.get("fewest admitted").getDouble("value"));
    assertTrue(figures.get("most admitted").getBoolean("met"));
    assertTrue(figures.get("join-http p99").getDouble("value") > 0);
    String notes = report.getJsonArray("notes").encode();
    assertTrue(notes.contains("join-http outcomes: joined 10, activity_full 14")
        || notes.contains("join-http outcomes: activity_full 14, joined 10"), notes);
    assertTrue(byName(report.getJsonArray("ratios")).containsKey("join-http/whoami-burst p99"));
  }

  @Test
  @DisplayName("activities-nearby: seeded through the service, every page full and ordered, against GEOSEARCH")
  void nearby(@TempDir Path dir) throws Exception {
    JsonObject report = bench(dir, "activities-nearby", "--rate", "10", "--activities", "600", "--area-km", "10",
        "--radius-km", "2");
    Map<String, JsonObject> ops = byName(report.getJsonArray("operations"));
    assertEquals(4, ops.size(), ops.keySet().toString());
    for (String name : List.of("nearby-http", "nearby-dist-http", "nearby-bus", "geosearch")) {
      assertTrue(ops.get(name).getLong("ok") > 0, name);
      assertEquals(ops.get(name).getLong("sent"), ops.get(name).getLong("ok"), name);
    }
    Map<String, JsonObject> figures = byName(report.getJsonArray("figures"));
    assertTrue(figures.get("seeding").getDouble("value") > 0);
    assertTrue(byName(report.getJsonArray("ratios")).containsKey("nearby-http/geosearch p99"));
  }
}
