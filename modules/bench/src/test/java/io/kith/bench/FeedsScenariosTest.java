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
 * The feeds scenarios run tiny against a real in-process Kith (embedded stores in a temporary directory), as the
 * command runs them. Every measured request checks its answer (the post in the followers' timelines, the expected
 * page of hydrated posts, the pull query's ids), so a clean report means the operations returned the right content.
 */
class FeedsScenariosTest {

  private record Outcome(int status, String out, String err, JsonObject json) {
  }

  private static Outcome bench(Path dir, String scenario, String... extra) throws Exception {
    Path json = dir.resolve("report.json");
    List<String> args = new ArrayList<>(List.of(scenario, "--warmup", "500ms", "--duration", "2s", "--connections",
        "4", "--timeout", "60s", "--no-progress", "--json", json.toString()));
    args.addAll(List.of(extra));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Bench(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), false, Scenarios.builtIn()).run(args);
    String o = out.toString(StandardCharsets.UTF_8);
    String e = err.toString(StandardCharsets.UTF_8);
    assertEquals(Bench.EXIT_OK, status, o + e);
    return new Outcome(status, o, e, new JsonObject(Files.readString(json)));
  }

  private static Map<String, JsonObject> byName(JsonArray array) {
    Map<String, JsonObject> out = new HashMap<>();
    array.forEach(o -> out.put(((JsonObject) o).getString("name"), (JsonObject) o));
    return out;
  }

  private static void assertOperations(JsonObject report, String... names) {
    assertTrue(report.getBoolean("clean"), report.encodePrettily());
    Map<String, JsonObject> ops = byName(report.getJsonArray("operations"));
    assertEquals(names.length, ops.size(), ops.keySet().toString());
    for (String name : names) {
      JsonObject op = ops.get(name);
      assertNotNull(op, name);
      assertTrue(op.getLong("ok") > 0, op.encode());
      assertEquals(op.getLong("sent"), op.getLong("ok"), op.encode());
      assertTrue(op.getJsonObject("latency_ms").getDouble("p50") > 0, op.encode());
    }
  }

  private static JsonObject figure(JsonObject report, String name) {
    JsonObject f = byName(report.getJsonArray("figures")).get(name);
    assertNotNull(f, "figure " + name + " in " + report.getJsonArray("figures").encode());
    return f;
  }

  @Test
  @DisplayName("feeds-fanout delivers every post to every active follower and reports inserts/s against LPUSH")
  void fanout(@TempDir Path dir) throws Exception {
    Outcome o = bench(dir, "feeds-fanout", "--followers", "40", "--small-followers", "5", "--publish-rate", "4",
        "--burst", "3", "--small-burst", "4");
    JsonObject report = o.json();
    assertEquals("feeds-fanout", report.getString("scenario"));
    assertOperations(report, "fanout-large", "fanout-small");
    assertEquals(40.0, report.getJsonObject("options").getDouble("followers"));
    JsonObject large = figure(report, "fanout-large inserts/s");
    assertTrue(large.getDouble("value") > 0, large.encode());
    assertTrue(large.getString("description").contains("the first post reached 40 and the last 40 of the 40"),
        large.encode());
    assertTrue(figure(report, "fanout-small inserts/s").getString("description")
        .contains("reached 5 and the last 5 of the 5"));
    assertTrue(figure(report, "lpush/s in-JVM").getDouble("value") > 0);
    JsonObject ratio = figure(report, "fanout-large/lpush");
    assertEquals(">= 0.4", ratio.getString("goal"));
    assertNotNull(ratio.getBoolean("met"));
    assertEquals("<= 1000", figure(report, "fanout-large p99 (ms)").getString("goal"));
    assertTrue(figure(report, "eligible page (ms)").getDouble("value") > 0);
    assertTrue(figure(report, "insert batch (ms)").getDouble("value") > 0);
    assertTrue(o.out().contains("figure fanout-large/lpush"), o.out());
    assertEquals(2, report.getJsonArray("ratios").size());
  }

  @Test
  @DisplayName("feeds-home reads the expected 20 hydrated posts beside whoami, then each alone at full speed")
  void home(@TempDir Path dir) throws Exception {
    Outcome o = bench(dir, "feeds-home", "--rate", "20", "--authors", "6", "--posts-per-author", "5");
    JsonObject report = o.json();
    assertEquals("feeds-home", report.getString("scenario"));
    assertOperations(report, "home", "whoami", "static-page");
    assertTrue(figure(report, "static-page max req/s").getDouble("value") > 0);
    assertTrue(figure(report, "static-page/whoami throughput").getDouble("value") > 0);
    assertTrue(figure(report, "home/static-page throughput").getDouble("value") > 0);
    double lowest = figure(report, "home/whoami per round, lowest").getDouble("value");
    double median = figure(report, "home/whoami per round, median").getDouble("value");
    double highest = figure(report, "home/whoami per round, highest").getDouble("value");
    // a slice of a cold or loaded run may finish no home read at all (lowest 0); the rounds still order
    assertTrue(lowest >= 0 && lowest <= median && median <= highest && highest > 0,
        report.getJsonArray("figures").encode());
    assertTrue(figure(report, "home max req/s").getDouble("value") > 0);
    assertTrue(figure(report, "whoami max req/s").getDouble("value") > 0);
    assertEquals(">= 0.35", figure(report, "home/whoami throughput").getString("goal"));
    assertTrue(figure(report, "cold home read (ms)").getDouble("value") > 0);
    assertTrue(figure(report, "home CPU per request (ms)").getDouble("value") > 0);
    // counts, not speed: a warm page is one script, two MGETs and two ZMSCOREs sent (20 with the scripts' own calls)
    double commands = figure(report, "home Redis commands per request").getDouble("value");
    assertTrue(commands >= 6 && commands < 25, "Redis commands per home read: " + commands);
    assertEquals(0.0, figure(report, "home post copies missed (%)").getDouble("value"), "a warm read misses no copy");
    assertTrue(report.getJsonArray("notes").encode().contains("23 visible to the reader, 7 friends-only"),
        report.getJsonArray("notes").encode());
  }

  @Test
  @DisplayName("feeds-moments reads the same 20 posts from the moments timeline and with the pull query")
  void moments(@TempDir Path dir) throws Exception {
    Outcome o = bench(dir, "feeds-moments", "--rate", "20", "--friends", "60", "--real-friends", "12",
        "--posts-per-friend", "3");
    JsonObject report = o.json();
    assertEquals("feeds-moments", report.getString("scenario"));
    assertOperations(report, "moments", "pull-query");
    assertEquals(">= 10", figure(report, "pull/moments p50").getString("goal"));
    assertTrue(figure(report, "cold moments read (ms)").getDouble("value") > 0);
    Map<String, JsonObject> ratios = byName(report.getJsonArray("ratios"));
    assertTrue(ratios.containsKey("pull-query/moments p50"), ratios.keySet().toString());
    assertFalse(Double.isNaN(ratios.get("pull-query/moments p50").getDouble("value")));
  }
}
