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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The messaging scenarios run tiny against a real in-process Kith, as the command runs them. A direct message
 * succeeds only when the recipient's connection received the push of that very message from that sender (and the
 * send's reply was that new message); an echo only when its frame came back. A clean report means every measured
 * message was delivered. Nothing here judges speed.
 */
class MessagingScenariosTest {

  private static JsonObject bench(Path dir, String... args) throws Exception {
    Path json = dir.resolve("report.json");
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--no-progress", "--json", json.toString()));
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
  @DisplayName("messaging-direct delivers every message to its recipient over the bridge, and reports the goals")
  void messagingDirect(@TempDir Path dir) throws Exception {
    JsonObject report = bench(dir, "messaging-direct", "--rate", "20", "--warmup", "500ms", "--duration", "2s",
        "--connections", "4", "--timeout", "60s", "--pairs", "2", "--text-length", "30");
    Map<String, JsonObject> ops = byName(report.getJsonArray("operations"));
    assertEquals(List.of("direct", "ws-whoami", "ws-echo", "ws-echo-max", "direct-max", "direct-half-max"),
        report.getJsonArray("operations").stream().map(o -> ((JsonObject) o).getString("name")).toList());
    for (JsonObject op : ops.values()) {
      assertTrue(op.getLong("ok") > 0, op.encode());
      assertEquals(op.getLong("sent"), op.getLong("ok"), op.encode());
    }
    assertEquals(20.0, ops.get("direct").getDouble("offered_per_second"));
    Map<String, JsonObject> figures = byName(report.getJsonArray("figures"));
    assertEquals(">= 0.5", figures.get("direct/ws-echo max throughput").getString("goal"));
    assertNotNull(figures.get("direct/ws-echo max throughput").getBoolean("met"));
    assertEquals("<= 50", figures.get("direct p99 at half max").getString("goal"));
    assertTrue(figures.get("CPU per direct message").getDouble("value") > 0);
    assertNotNull(figures.get("idle again after direct-max"), "in-process, the phase after direct-max waits for idle");
    assertTrue(figures.get("CPU per ws-echo round trip").getDouble("value") > 0);
    double half = figures.get("half-max rate").getDouble("value");
    assertEquals(ops.get("direct-max").getDouble("throughput_per_second") / 2, half, 0.01);
    assertEquals(half, ops.get("direct-half-max").getDouble("offered_per_second"), 0.01);
    assertEquals(6, report.getJsonArray("ratios").size());
    String notes = report.getJsonArray("notes").encode();
    assertTrue(notes.contains("throughput: direct max / ws-echo max = "), notes);
    assertFalse(notes.contains("sends never saw their push"), notes);
  }

  @Test
  @DisplayName("bridge-idle-heap opens bridge connections that each receive a message on their user address")
  void bridgeIdleHeap(@TempDir Path dir) throws Exception {
    JsonObject report = bench(dir, "bridge-idle-heap", "--idle", "20");
    assertEquals(0, report.getJsonArray("operations").size());
    Map<String, JsonObject> figures = byName(report.getJsonArray("figures"));
    for (String name : List.of("server heap per bridge connection", "server heap per raw WebSocket",
        "client heap per bridge connection", "left after closing, per connection")) {
      assertNotNull(figures.get(name), name);
      // a reading, not a judgement: with 20 connections the noise of a JVM is larger than what is measured
      assertNotNull(figures.get(name).getValue("value"), name);
    }
    String notes = report.getJsonArray("notes").encode();
    assertTrue(notes.contains("with 20 bridge connections open"), notes);
  }
}
