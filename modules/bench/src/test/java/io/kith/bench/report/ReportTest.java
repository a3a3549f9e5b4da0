package io.kith.bench.report;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportTest {

  private static final long TEN_SECONDS = 10_000_000_000L;

  /** Latencies of 1..1000 µs times {@code factor}, one each. */
  private static Histogram latencies(int factor) {
    Histogram h = new Histogram(600_000_000L, 3);
    for (int i = 1; i <= 1000; i++) {
      h.recordValue((long) i * factor);
    }
    return h;
  }

  private static OperationStats op(String name, Histogram latency, long errors, long timeouts, long dropped) {
    long sent = latency.getTotalCount() + errors + timeouts;
    return new OperationStats(name, name + " request", sent, errors, timeouts, dropped,
        errors > 0 ? Map.of("HTTP 401", errors) : Map.of(), latency, new Histogram(600_000_000L, 3), TEN_SECONDS);
  }

  private static RunInfo openLoop(double rate) {
    return new RunInfo("auth-overhead", "whoami vs ping", "http://127.0.0.1:8080", true, false, rate,
        Duration.ofSeconds(5), Duration.ofSeconds(10), 32, Duration.ofSeconds(5), Instant.parse("2026-01-02T03:04:05Z"),
        Map.of());
  }

  private static final List<RatioSpec> RATIOS = List.of(new RatioSpec("whoami", "ping", 50),
      new RatioSpec("whoami", "ping", 99));

  @Test
  @DisplayName("percentiles and throughput come from the histogram and the recorded window")
  void percentilesAndThroughput() {
    OperationStats ping = op("ping", latencies(1), 0, 0, 0);
    assertEquals(0.5, ping.percentileMillis(50), 1e-9);
    assertEquals(0.9, ping.percentileMillis(90), 1e-9);
    assertEquals(0.99, ping.percentileMillis(99), 1e-9);
    assertEquals(0.999, ping.percentileMillis(99.9), 1e-9);
    assertEquals(1.0, ping.maxMillis(), 1e-9);
    assertEquals(0.5005, ping.meanMillis(), 1e-9);
    assertEquals(100.0, ping.throughput(), 1e-9, "1000 responses in 10 s");
  }

  @Test
  @DisplayName("the ratio divides the measured operation's percentile by the baseline's")
  void ratioOfPercentiles() {
    Report report = new Report(openLoop(100), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), op("whoami", latencies(3), 0, 0, 0)), RATIOS, List.of()));
    assertEquals(2, report.ratios().size());
    Report.RatioValue p50 = report.ratios().get(0);
    assertEquals(3.0, p50.value(), 1e-9);
    assertTrue(p50.valid(), p50.reason());
    assertEquals("whoami/ping p50", p50.spec().label());
    Report.RatioValue p99 = report.ratios().get(1);
    assertEquals(3.0, p99.value(), 0.01, "2970 µs / 990 µs within the histogram's 3 significant digits");
    assertTrue(report.clean());
  }

  @Test
  @DisplayName("a ratio is not valid when either side had failed requests, and says which")
  void failuresInvalidateRatios() {
    Report report = new Report(openLoop(100), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), op("whoami", latencies(2), 7, 2, 1)), RATIOS, List.of()));
    Report.RatioValue r = report.ratios().get(0);
    assertEquals(2.0, r.value(), 1e-9, "the value is still computed");
    assertFalse(r.valid());
    assertEquals("whoami had 10 failed requests", r.reason());
    assertFalse(report.clean());
  }

  @Test
  @DisplayName("a ratio is not valid when an operation fell below the offered rate (the target was saturated)")
  void saturationInvalidatesRatios() {
    // 1000 responses in 10 s is 100 req/s, but 500 req/s were offered.
    Report report = new Report(openLoop(500), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), op("whoami", latencies(2), 0, 0, 0)), RATIOS, List.of()));
    Report.RatioValue r = report.ratios().get(0);
    assertFalse(r.valid());
    assertTrue(r.reason().contains("ping did not sustain the rate (100.0 of 500 req/s)"), r.reason());
  }

  @Test
  @DisplayName("without a correct response there is no latency and no ratio")
  void nothingMeasured() {
    Histogram empty = new Histogram(600_000_000L, 3);
    Report report = new Report(openLoop(100), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), op("whoami", empty, 1000, 0, 0)), RATIOS, List.of()));
    Report.RatioValue r = report.ratios().get(0);
    assertTrue(Double.isNaN(r.value()));
    assertFalse(r.valid());
    JsonObject json = report.toJson();
    assertNull(json.getJsonArray("ratios").getJsonObject(0).getValue("value"));
    JsonObject whoami = json.getJsonArray("operations").getJsonObject(1);
    assertNull(whoami.getJsonObject("latency_ms").getValue("p50"));
    assertEquals(1000L, whoami.getLong("errors"));
    assertEquals(1000L, whoami.getJsonObject("error_kinds").getLong("HTTP 401"));
  }

  @Test
  @DisplayName("a ratio naming an operation that was not measured is reported as such")
  void unknownOperation() {
    Report report = new Report(openLoop(100), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0)), RATIOS, List.of()));
    assertEquals("operation whoami was not measured", report.ratios().get(0).reason());
  }

  @Test
  @DisplayName("the JSON report carries set-up, per-operation percentiles in ms, and the ratios")
  void jsonShape() {
    Report report = new Report(openLoop(100), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), op("whoami", latencies(2), 0, 0, 0)), RATIOS,
        List.of("a note")));
    JsonObject json = new JsonObject(report.toJson().encode()); // survives encoding
    assertEquals("auth-overhead", json.getString("scenario"));
    assertEquals("2026-01-02T03:04:05Z", json.getString("started_at"));
    assertTrue(json.getBoolean("in_process"));
    assertTrue(json.getBoolean("clean"));
    JsonObject load = json.getJsonObject("load");
    assertEquals("open-loop", load.getString("mode"));
    assertEquals(100.0, load.getDouble("rate_per_operation"));
    assertEquals(10.0, load.getDouble("duration_seconds"));
    assertEquals(5.0, load.getDouble("warmup_seconds"));
    assertEquals(32, load.getInteger("connections"));

    JsonArray ops = json.getJsonArray("operations");
    assertEquals(2, ops.size());
    JsonObject ping = ops.getJsonObject(0);
    assertEquals("ping", ping.getString("name"));
    assertEquals(1000L, ping.getLong("sent"));
    assertEquals(1000L, ping.getLong("ok"));
    assertEquals(100.0, ping.getDouble("throughput_per_second"));
    JsonObject latency = ping.getJsonObject("latency_ms");
    assertEquals(0.5, latency.getDouble("p50"));
    assertEquals(0.9, latency.getDouble("p90"));
    assertEquals(0.99, latency.getDouble("p99"));
    assertEquals(0.999, latency.getDouble("p99_9"));
    assertEquals(1.0, latency.getDouble("max"));

    JsonObject ratio = json.getJsonArray("ratios").getJsonObject(0);
    assertEquals("whoami/ping p50", ratio.getString("name"));
    assertEquals("whoami", ratio.getString("numerator"));
    assertEquals("ping", ratio.getString("denominator"));
    assertEquals(50.0, ratio.getDouble("percentile"));
    assertEquals(2.0, ratio.getDouble("value"));
    assertTrue(ratio.getBoolean("valid"));
    assertTrue(json.getJsonArray("notes").contains("a note"));
    assertTrue(json.getJsonObject("environment").getInteger("cpus") > 0);
  }

  @Test
  @DisplayName("the table lists each operation and the ratio with its validity")
  void table() {
    Report report = new Report(openLoop(100), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), op("whoami", latencies(2), 3, 0, 0)), RATIOS, List.of()));
    String table = report.toTable();
    assertTrue(table.contains("open loop, 100 req/s per operation, warm-up 5s, measured 10s"), table);
    assertTrue(table.lines().anyMatch(l -> l.startsWith("ping ") && l.contains("0.500") && l.contains("1.000")),
        table);
    assertTrue(table.contains("whoami: 3 errors, 0 timeouts, 0 dropped (3x HTTP 401)"), table);
    assertTrue(table.contains("whoami/ping p50"), table);
    assertTrue(table.contains("2.000x  NOT VALID: whoami had 3 failed requests"), table);
  }

  /** 100 latencies of 1..100 ms over 10 s (10 req/s), offered {@code offered} req/s. */
  private static OperationStats ownRate(String name, double offered) {
    Histogram h = new Histogram(600_000_000L, 3);
    for (int i = 1; i <= 100; i++) {
      h.recordValue(i * 1000L);
    }
    return new OperationStats(name, name + " request", 100, 0, 0, 0, Map.of(), h, new Histogram(600_000_000L, 3),
        TEN_SECONDS, offered);
  }

  @Test
  @DisplayName("an operation with a rate of its own is held to that rate, and the header and JSON name it")
  void ownRatesAreCheckedAgainstThemselves() {
    RunInfo run = new RunInfo("accounts-login", "reads and logins", "http://127.0.0.1:8080", true, false, 100,
        Duration.ofSeconds(5), Duration.ofSeconds(10), 32, Duration.ofSeconds(5), Instant.parse("2026-01-02T03:04:05Z"),
        Map.of("login-rate", 10.0));
    List<RatioSpec> ratios = List.of(new RatioSpec("login", "ping", 50));
    Report kept = new Report(run, new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), ownRate("login", 10)), ratios, List.of()));
    assertTrue(kept.ratios().get(0).valid(), "10 req/s achieved of 10 offered: " + kept.ratios().get(0).reason());
    String table = kept.toTable();
    assertTrue(table.contains("open loop, 100 req/s per operation (login 10 req/s), warm-up 5s"), table);
    assertTrue(table.contains("options --login-rate 10"), table);
    JsonObject json = kept.toJson();
    assertEquals(10.0, json.getJsonArray("operations").getJsonObject(1).getDouble("offered_per_second"));
    assertNull(json.getJsonArray("operations").getJsonObject(0).getValue("offered_per_second"), "not known");
    assertEquals(10.0, json.getJsonObject("options").getDouble("login-rate"));

    Report saturated = new Report(run, new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), ownRate("login", 50)), ratios, List.of()));
    Report.RatioValue r = saturated.ratios().get(0);
    assertFalse(r.valid());
    assertEquals("login did not sustain the rate (10.0 of 50 req/s)", r.reason());
  }

  @Test
  @DisplayName("percentile keys are stable JSON names")
  void percentileKeys() {
    assertEquals("p50", OperationStats.percentileKey(50));
    assertEquals("p99_9", OperationStats.percentileKey(99.9));
    assertEquals("p100", OperationStats.percentileKey(100));
  }

  @Test
  @DisplayName("figures measured apart from the operations appear with their goals in the table and the JSON")
  void figures() {
    Report report = new Report(openLoop(100), new ScenarioResult(
        List.of(op("ping", latencies(1), 0, 0, 0), op("whoami", latencies(2), 0, 0, 0)), RATIOS, List.of(),
        List.of(Figure.of("inserts/s", 52_310.4, "inserts/s", "a burst"),
            Figure.of("inserts/lpush", 0.25, "x", "ratio").withGoal(Figure.Goal.atLeast(0.4)),
            Figure.of("p99 (ms)", 800, "ms", "latency").withGoal(Figure.Goal.atMost(1000)),
            Figure.of("missing", Double.NaN, "x", "not measured").withGoal(Figure.Goal.atLeast(1)))));
    String table = report.toTable();
    assertTrue(table.contains("figure inserts/s"), table);
    assertTrue(table.contains("52,310 inserts/s"), table);
    assertTrue(table.contains("0.250 x  goal >= 0.4: MISSED"), table);
    assertTrue(table.contains("800.0 ms  goal <= 1000: met"), table);
    JsonArray figures = report.toJson().getJsonArray("figures");
    assertEquals(4, figures.size());
    JsonObject ratio = figures.getJsonObject(1);
    assertEquals(">= 0.4", ratio.getString("goal"));
    assertFalse(ratio.getBoolean("met"));
    assertTrue(figures.getJsonObject(2).getBoolean("met"));
    assertNull(figures.getJsonObject(0).getValue("goal"));
    assertNull(figures.getJsonObject(3).getValue("value"), "NaN is null in the JSON");
    assertNull(figures.getJsonObject(3).getValue("met"));
    assertEquals(0, new Report(openLoop(100), new ScenarioResult(List.of(op("ping", latencies(1), 0, 0, 0)),
        List.of(), List.of())).toJson().getJsonArray("figures").size(), "a scenario without figures has none");
  }

  @Test
  @DisplayName("a report with figures only has no operations table and counts as clean")
  void figuresOnly() {
    Report report = new Report(openLoop(100), new ScenarioResult(List.of(), List.of(), List.of("heap only"),
        List.of(Figure.of("server heap per bridge connection", 19_221, "bytes", "growth over connections"))));
    String table = report.toTable();
    assertFalse(table.contains("operation "), table);
    assertTrue(table.contains("figure server heap per bridge connection"), table);
    assertTrue(table.contains("19,221 bytes"), table);
    assertTrue(report.clean());
    assertEquals(0, report.toJson().getJsonArray("operations").size());
  }
}
