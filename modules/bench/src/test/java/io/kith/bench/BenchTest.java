package io.kith.bench;

import io.kith.bench.scenario.Scenarios;
import io.kith.platform.store.FreePorts;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line end to end against {@link FakeKith}: real clients, real bridges, a fake server. */
class BenchTest {

  private static FakeKith kith;
  /** Request timeout of every run: long enough that only a hang, never a busy machine, times a request out. */
  private static final String HANG = "60s";

  @BeforeAll
  static void startFake() throws Exception {
    kith = FakeKith.start();
  }

  @AfterAll
  static void stopFake() throws Exception {
    kith.close();
  }

  /** A finished command: exit status and what it printed. */
  private record Outcome(int status, String out, String err) {
  }

  private static Outcome bench(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Bench(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), false, Scenarios.builtIn()).run(List.of(args));
    return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static List<String> remote(String scenario, String token, Path json, String... extra) {
    List<String> args = new ArrayList<>(List.of(scenario, "--target", kith.url(), "--token", token,
        "--rate", "100", "--warmup", "200ms", "--duration", "500ms", "--connections", "4", "--json", json.toString(),
        // exact counts are asserted: on a loaded machine a request may wait long, so only a hang times out
        "--timeout", HANG));
    args.addAll(List.of(extra));
    return args;
  }

  @Test
  @DisplayName("auth-overhead measures ping and whoami at the same rate and reports their ratio")
  void authOverhead(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("report.json");
    Outcome outcome = bench(remote("auth-overhead", FakeKith.TOKEN, json).toArray(String[]::new));
    assertEquals(Bench.EXIT_OK, outcome.status(), outcome.err());
    assertTrue(outcome.out().contains("ratio whoami/ping p50"), outcome.out());
    assertTrue(outcome.out().contains("ratio whoami/ping p99"), outcome.out());

    JsonObject report = new JsonObject(Files.readString(json));
    assertEquals("auth-overhead", report.getString("scenario"));
    assertEquals(kith.url(), report.getString("target"));
    assertTrue(report.getBoolean("clean"));
    JsonArray ops = report.getJsonArray("operations");
    for (int i = 0; i < 2; i++) {
      JsonObject op = ops.getJsonObject(i);
      assertEquals(50L, op.getLong("sent"), op.encode());
      assertEquals(50L, op.getLong("ok"), op.encode());
      assertTrue(op.getJsonObject("latency_ms").getDouble("p50") > 0, op.encode());
    }
    assertEquals("ping", ops.getJsonObject(0).getString("name"));
    assertEquals("whoami", ops.getJsonObject(1).getString("name"));
    JsonObject p50 = report.getJsonArray("ratios").getJsonObject(0);
    assertEquals("whoami/ping p50", p50.getString("name"));
    assertTrue(p50.getDouble("value") > 0);
  }

  @Test
  @DisplayName("with --cpu naming Kith's process, every operation carries Kith's CPU per answer, and a chart is written beside the JSON")
  void cpuAndChart(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("cpu.json");
    // FakeKith serves from this JVM, so this process stands for the Kith process
    Outcome outcome = bench(remote("auth-overhead", FakeKith.TOKEN, json, "--cpu",
        Long.toString(ProcessHandle.current().pid())).toArray(String[]::new));
    assertEquals(Bench.EXIT_OK, outcome.status(), outcome.err());
    JsonObject report = new JsonObject(Files.readString(json));
    assertTrue(report.getJsonObject("cpu").getBoolean("measured"), report.encodePrettily());
    assertTrue(report.getJsonObject("cpu").getString("attribution").startsWith("process "));
    for (Object o : report.getJsonArray("operations")) {
      JsonObject cpu = ((JsonObject) o).getJsonObject("cpu");
      assertTrue(cpu.getDouble("ms_per_request") > 0, cpu.encode());
      assertEquals(100L, cpu.getLong("requests"), "both operations' answers: " + cpu.encode());
    }
    assertTrue(outcome.out().contains("cpu: Kith's CPU per correct answer"), outcome.out());
    String svg = Files.readString(dir.resolve("cpu.svg"));
    assertTrue(svg.contains("data-operation=\"ping\"") && svg.contains("data-operation=\"whoami\""), svg);

    Path none = dir.resolve("none.json");
    Outcome remote = bench(remote("auth-overhead", FakeKith.TOKEN, none).toArray(String[]::new));
    assertEquals(Bench.EXIT_OK, remote.status(), remote.err());
    JsonObject unmeasured = new JsonObject(Files.readString(none));
    assertFalse(unmeasured.getJsonObject("cpu").getBoolean("measured"));
    assertTrue(remote.out().contains("cpu: not measured (Kith runs elsewhere; give --cpu PID"), remote.out());
  }

  @Test
  @DisplayName("bridge-roundtrip measures the WebSocket and TCP bridges against HTTP whoami")
  void bridgeRoundtrip(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("bridge.json");
    Outcome outcome = bench(remote("bridge-roundtrip", FakeKith.TOKEN, json, "--tcp-bridge-port",
        Integer.toString(kith.tcpPort())).toArray(String[]::new));
    assertEquals(Bench.EXIT_OK, outcome.status(), outcome.err() + outcome.out());
    JsonObject report = new JsonObject(Files.readString(json));
    JsonArray ops = report.getJsonArray("operations");
    assertEquals(3, ops.size());
    for (int i = 0; i < 3; i++) {
      assertEquals(50L, ops.getJsonObject(i).getLong("ok"), ops.getJsonObject(i).encode());
    }
    assertEquals(List.of("ws-whoami/http-whoami p50", "ws-whoami/http-whoami p99", "tcp-whoami/http-whoami p50",
            "tcp-whoami/http-whoami p99"),
        report.getJsonArray("ratios").stream().map(r -> ((JsonObject) r).getString("name")).toList());
  }

  @Test
  @DisplayName("without a TCP port, bridge-roundtrip measures the WebSocket bridge and says TCP was skipped")
  void bridgeWithoutTcp(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("bridge.json");
    Outcome outcome = bench(remote("bridge-roundtrip", FakeKith.TOKEN, json).toArray(String[]::new));
    assertEquals(Bench.EXIT_OK, outcome.status(), outcome.err());
    JsonObject report = new JsonObject(Files.readString(json));
    assertEquals(2, report.getJsonArray("operations").size());
    assertTrue(outcome.out().contains("TCP bridge not measured"), outcome.out());
  }

  private static List<String> accounts(String scenario, String url, Path json, String... extra) {
    List<String> args = new ArrayList<>(List.of(scenario, "--target", url, "--rate", "100", "--warmup", "200ms",
        "--duration", "500ms", "--connections", "4", "--json", json.toString(), "--timeout", HANG));
    args.addAll(List.of(extra));
    return args;
  }

  private static List<String> names(JsonArray array) {
    return array.stream().map(o -> ((JsonObject) o).getString("name")).toList();
  }

  @Test
  @DisplayName("accounts-profile registers a reader and a target, then reads the profile beside whoami at one rate")
  void accountsProfile(@TempDir Path dir) throws Exception {
    try (FakeKith fake = FakeKith.start()) {
      Path json = dir.resolve("profile.json");
      Outcome outcome = bench(accounts("accounts-profile", fake.url(), json).toArray(String[]::new));
      assertEquals(Bench.EXIT_OK, outcome.status(), outcome.err() + outcome.out());
      assertEquals(2, fake.usernames().size(), fake.usernames().toString());
      assertTrue(fake.usernames().stream().allMatch(u -> u.matches("bench_[a-z0-9]{8}_(reader|target)")),
          fake.usernames().toString());
      JsonObject report = new JsonObject(Files.readString(json));
      JsonArray ops = report.getJsonArray("operations");
      assertEquals(List.of("whoami", "profile"), names(ops));
      for (int i = 0; i < 2; i++) {
        assertEquals(50L, ops.getJsonObject(i).getLong("ok"), ops.getJsonObject(i).encode());
      }
      assertEquals(List.of("profile/whoami p50", "profile/whoami p99"), names(report.getJsonArray("ratios")));
      assertTrue(outcome.out().contains("ratio profile/whoami p50"), outcome.out());
    }
  }

  @Test
  @DisplayName("accounts-login reads profiles alone, then beside logins at their own rate, users in turn")
  void accountsLogin(@TempDir Path dir) throws Exception {
    try (FakeKith fake = FakeKith.start()) {
      Path json = dir.resolve("login.json");
      Outcome outcome = bench(accounts("accounts-login", fake.url(), json, "--login-rate", "20", "--users", "3")
          .toArray(String[]::new));
      assertEquals(Bench.EXIT_OK, outcome.status(), outcome.err() + outcome.out());
      JsonObject report = new JsonObject(Files.readString(json));
      JsonArray ops = report.getJsonArray("operations");
      assertEquals(List.of("profile-alone", "profile+login", "login"), names(ops));
      assertEquals(50L, ops.getJsonObject(0).getLong("ok"), "phase A: 100 req/s for 0.5 s");
      assertEquals(50L, ops.getJsonObject(1).getLong("ok"), "phase B: the same reads");
      JsonObject login = ops.getJsonObject(2);
      assertEquals(10L, login.getLong("ok"), "20 logins/s for 0.5 s");
      assertEquals(20.0, login.getDouble("offered_per_second"));
      assertEquals(100.0, ops.getJsonObject(1).getDouble("offered_per_second"));
      assertEquals(List.of("profile+login/profile-alone p50", "profile+login/profile-alone p99"),
          names(report.getJsonArray("ratios")));
      assertEquals(20.0, report.getJsonObject("options").getDouble("login-rate"));
      assertEquals(3.0, report.getJsonObject("options").getDouble("users"));
      // 1 pre-flight login, then 0.7 s at 20/s (4 in the warm-up, 10 measured): 15 logins, 5 for each user in turn.
      Map<String, Integer> logins = fake.logins();
      assertEquals(5, logins.size(), "a reader, a target and 3 users: " + logins);
      assertEquals(List.of(5, 5, 5), logins.entrySet().stream().filter(e -> e.getKey().matches(".*_login\\d"))
          .map(Map.Entry::getValue).toList(), logins.toString());
      assertTrue(outcome.out().contains("open loop, 100 req/s per operation (login 20 req/s)"), outcome.out());
      // the note may go on to say the target did not keep up: on a loaded machine even the fake's logins lag
      assertTrue(outcome.out().lines().anyMatch(l -> l.startsWith("note: logins: ") && l.contains(" of 20/s offered, "
          + "0 failed")), outcome.out());
    }
  }

  @Test
  @DisplayName("a target that refuses the registrations stops the run and says which limit to raise")
  void registrationThrottled(@TempDir Path dir) throws Exception {
    try (FakeKith fake = FakeKith.start(1)) {
      Outcome outcome = bench(accounts("accounts-profile", fake.url(), dir.resolve("r.json")).toArray(String[]::new));
      assertEquals(Bench.EXIT_FAILED, outcome.status());
      assertTrue(outcome.err().contains("_target failed: HTTP 429 registration_throttled (the target limits "
          + "registrations per client address: raise accounts.register-max-per-address"), outcome.err());
    }
  }

  @Test
  @DisplayName("accounts-login offers fixed rates only and refuses the closed loop")
  void accountsLoginRefusesClosedLoop(@TempDir Path dir) throws Exception {
    Outcome outcome = bench("accounts-login", "--target", kith.url(), "--rate", "max", "--duration", "500ms");
    assertEquals(Bench.EXIT_FAILED, outcome.status());
    assertTrue(outcome.err().contains("accounts-login offers fixed rates; run it with --rate N"), outcome.err());
  }

  @Test
  @DisplayName("a token the target rejects stops the run before the load, naming the failing request")
  void rejectedToken(@TempDir Path dir) {
    Outcome outcome = bench(remote("auth-overhead", "wrong", dir.resolve("r.json")).toArray(String[]::new));
    assertEquals(Bench.EXIT_FAILED, outcome.status());
    assertTrue(outcome.err().contains("pre-flight request whoami (GET /api/v1/whoami with Authorization: Bearer) "
        + "failed: HTTP 401"), outcome.err());
    assertTrue(Files.notExists(dir.resolve("r.json")));
  }

  @Test
  @DisplayName("an unreachable target fails the run with exit status 1")
  void unreachable() {
    String nobody = "http://127.0.0.1:" + FreePorts.pick();
    Outcome outcome = bench("auth-overhead", "--target", nobody, "--token", "t", "--duration", "1s");
    assertEquals(Bench.EXIT_FAILED, outcome.status());
    assertTrue(outcome.err().contains("auth-overhead failed: pre-flight request ping"), outcome.err());
  }

  @Test
  @DisplayName("list prints the scenarios, and a refused command line exits with status 2")
  void listAndRefusal() {
    Outcome list = bench("list");
    assertEquals(Bench.EXIT_OK, list.status());
    assertTrue(list.out().startsWith("auth-overhead "), list.out());
    assertTrue(list.out().contains("bridge-roundtrip "), list.out());

    Outcome refused = bench("auth-overhead", "--rate", "fast");
    assertEquals(Bench.EXIT_USAGE, refused.status());
    assertTrue(refused.err().startsWith("kith-bench: --rate must be"), refused.err());
    assertEquals("", refused.out());
  }
}
