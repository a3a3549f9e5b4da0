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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The notifications scenario run tiny against a real in-process Kith, as the command runs it. Every measured request
 * checks its answer against the seeded mix (the product's unread counts and the scan's both equal the expected
 * counts; the product's filtered list and the scan's both give the expected ids in order), so a clean report means
 * every answer was right.
 */
class NotificationsScenarioTest {

  private static Map<String, JsonObject> byName(JsonArray array) {
    Map<String, JsonObject> out = new HashMap<>();
    array.forEach(o -> out.put(((JsonObject) o).getString("name"), (JsonObject) o));
    return out;
  }

  @Test
  @DisplayName("notifications measures counts and the filtered list at three sizes against the scans, and the newest page's CPU alone, all answers right")
  void tiny(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("report.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Bench(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), false, Scenarios.builtIn()).run(List.of("notifications",
        "--rate", "10", "--warmup", "500ms", "--duration", "2s", "--connections", "4", "--timeout", "60s",
        "--no-progress", "--json", json.toString(), "--small", "30", "--medium", "60", "--large", "120",
        "--page-seconds", "1", "--page-concurrency", "2"));
    String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertEquals(Bench.EXIT_OK, status, text);
    JsonObject report = new JsonObject(Files.readString(json));
    assertEquals("notifications", report.getString("scenario"));
    assertTrue(report.getBoolean("clean"), report.encodePrettily());
    assertEquals(120.0, report.getJsonObject("options").getDouble("large"));

    Map<String, JsonObject> ops = byName(report.getJsonArray("operations"));
    assertEquals(21, ops.size(), ops.keySet().toString());
    for (int n : new int[] {30, 60, 120}) {
      for (String kind : List.of("count-http", "count-lua", "count-scan", "list-http", "list-lua", "list-scan")) {
        JsonObject op = ops.get(kind + "-" + n);
        assertNotNull(op, kind + "-" + n);
        assertTrue(op.getLong("ok") > 0, op.encode());
        assertEquals(op.getLong("sent"), op.getLong("ok"), op.encode());
      }
    }
    // in-process, Kith's CPU is measured for every operation (the runner's phases)
    assertTrue(report.getJsonObject("cpu").getBoolean("measured"), report.encodePrettily());
    ops.values().forEach(op -> assertTrue(op.getJsonObject("cpu").getDouble("ms_per_request") >= 0, op.encode()));
    assertNotNull(ops.get("whoami"));
    // the newest page and the counts, each alone in a closed-loop phase: their CPU is their own
    for (String alone : List.of("newest-http-60", "counts-alone-60")) {
      JsonObject op = ops.get(alone);
      assertTrue(op.getLong("ok") > 0 && op.getLong("errors") == 0, op.encode());
      assertEquals(List.of(alone), op.getJsonObject("cpu").getJsonArray("shared_by").getList());
    }

    Map<String, JsonObject> figures = byName(report.getJsonArray("figures"));
    assertEquals(">= 10", figures.get("count scan/lua p50 @60").getString("goal"));
    assertEquals(">= 10", figures.get("redis count scan/lua @60").getString("goal"));
    assertEquals("<= 1.5", figures.get("count-lua p50 max/min").getString("goal"));
    for (int n : new int[] {30, 60, 120}) {
      double bytes = figures.get("memory/notification @" + n).getDouble("value");
      assertTrue(bytes > 50 && bytes < 5_000, "memory per notification " + bytes);
      assertTrue(figures.get("redis us count-scan-" + n).getDouble("value") > 0);
      assertFalse(Double.isNaN(figures.get("redis list scan/lua @" + n).getDouble("value")));
    }
    assertTrue(figures.get("redis us counts.lua EVAL").getDouble("value") > 0);
    assertEquals("<= 0.45", figures.get("Kith CPU per newest page @60").getString("goal"));
    assertTrue(figures.get("Kith CPU per newest page @60").getDouble("value") > 0);
    assertTrue(figures.get("Kith CPU per unread counts @60").getDouble("value") > 0);
    assertTrue(Files.readString(dir.resolve("report.svg")).contains("data-operation=\"newest-http-60\""));

    String notes = report.getJsonArray("notes").encode();
    // 30 notifications: every third read, so 20 unread; 4 in 10 match the filter: 12 listed
    assertTrue(notes.contains("30 notifications: 20 unread"), notes);
    assertTrue(notes.contains("the filtered list returns 12 ids"), notes);
    assertTrue(notes.contains("120 notifications: 80 unread"), notes);
    assertTrue(notes.contains("the filtered list returns 20 ids"), notes);
    Map<String, JsonObject> ratios = byName(report.getJsonArray("ratios"));
    assertTrue(ratios.containsKey("count-scan-60/count-lua-60 p50"), ratios.keySet().toString());
    assertTrue(text.contains("figure memory/notification @120"), text);
  }
}
