package io.kith.bench;

import io.kith.bench.scenario.Scenarios;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchArgsTest {

  private static final Scenarios SCENARIOS = Scenarios.builtIn();

  private static BenchArgs parse(String... args) throws UsageException {
    return BenchArgs.parse(Arrays.asList(args), SCENARIOS);
  }

  private static String refusal(String... args) {
    return assertThrows(UsageException.class, () -> parse(args)).getMessage();
  }

  @Test
  @DisplayName("a bare scenario name runs it in-process with the defaults")
  void defaults() throws Exception {
    BenchArgs args = parse("auth-overhead");
    assertEquals(BenchArgs.Command.RUN, args.command());
    assertEquals("auth-overhead", args.scenario().name());
    assertFalse(args.settings().closedLoop());
    assertEquals(200.0, args.settings().rate());
    assertEquals(Duration.ofSeconds(20), args.settings().duration());
    assertEquals(Duration.ofSeconds(5), args.settings().warmup());
    assertEquals(32, args.settings().connections());
    assertEquals(Duration.ofSeconds(5), args.settings().timeout());
    assertTrue(args.target().isEmpty());
    assertNull(args.token());
    assertNull(args.jsonReport());
    assertTrue(args.progress());
  }

  @Test
  @DisplayName("every option is read, in either --name value or --name=value form")
  void allOptions(@TempDir Path dir) throws Exception {
    BenchArgs args = parse("--rate=1500.5", "bridge-roundtrip", "--duration", "1m30s", "--warmup", "500ms",
        "--connections", "8", "--timeout=2s", "--max-in-flight", "99", "--target", "https://kith.example:8443/",
        "--token", "abc.def", "--tcp-bridge-port", "7000", "--json", dir.resolve("r.json").toString(),
        "--no-progress");
    assertEquals("bridge-roundtrip", args.scenario().name());
    assertEquals(1500.5, args.settings().rate());
    assertEquals(Duration.ofSeconds(90), args.settings().duration());
    assertEquals(Duration.ofMillis(500), args.settings().warmup());
    assertEquals(8, args.settings().connections());
    assertEquals(Duration.ofSeconds(2), args.settings().timeout());
    assertEquals(99, args.settings().maxInFlight());
    assertEquals("kith.example", args.target().orElseThrow().host());
    assertEquals(8443, args.target().orElseThrow().port());
    assertTrue(args.target().orElseThrow().ssl());
    assertEquals(7000, args.target().orElseThrow().tcpBridgePort());
    assertEquals("abc.def", args.token());
    assertEquals(dir.resolve("r.json").toAbsolutePath(), args.jsonReport());
    assertFalse(args.progress());
  }

  @Test
  @DisplayName("--rate max selects the closed-loop mode")
  void rateMax() throws Exception {
    BenchArgs args = parse("auth-overhead", "--rate", "max", "--warmup", "0");
    assertTrue(args.settings().closedLoop());
    assertEquals(Duration.ZERO, args.settings().warmup());
  }

  @Test
  @DisplayName("durations take ms, s, m and h, combined, and a bare number is seconds")
  void durations() throws Exception {
    assertEquals(Duration.ofMillis(250), Durations.parse("--d", "250ms"));
    assertEquals(Duration.ofSeconds(20), Durations.parse("--d", "20"));
    assertEquals(Duration.ofMillis(1500), Durations.parse("--d", "1.5s"));
    assertEquals(Duration.ofMinutes(2), Durations.parse("--d", "2m"));
    assertEquals(Duration.ofSeconds(3690), Durations.parse("--d", "1h1m30s"));
  }

  @Test
  @DisplayName("list and help are commands, and --help wins over everything else")
  void commands() throws Exception {
    assertEquals(BenchArgs.Command.LIST, parse("list").command());
    assertEquals(BenchArgs.Command.HELP, parse("help").command());
    assertEquals(BenchArgs.Command.HELP, parse("--help").command());
    assertEquals(BenchArgs.Command.HELP, parse("nonsense", "--rate", "-3", "-h").command());
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-5", "abc", "2000000", "NaN", "Infinity", ""})
  @DisplayName("a rate that is not a positive number of requests per second is refused")
  void badRate(String rate) {
    String message = refusal("auth-overhead", "--rate", rate);
    assertTrue(message.startsWith("--rate must be a number of requests per second above 0"), message);
    assertTrue(message.contains("'" + rate + "'"), message);
  }

  @ParameterizedTest
  @ValueSource(strings = {"20x", "s", "1m30", "-1s", "1 s", "", "ms20"})
  @DisplayName("a duration that cannot be read is refused with an example")
  void badDuration(String duration) {
    String message = refusal("auth-overhead", "--duration", duration);
    assertEquals("--duration must be a duration such as 20s, 500ms, 2m or 1m30s, got '" + duration + "'", message);
  }

  @Test
  @DisplayName("a zero duration and an over-long one are refused")
  void durationLimits() {
    assertEquals("--duration must be longer than zero", refusal("auth-overhead", "--duration", "0s"));
    assertEquals("--duration and --warmup must be at most 24h", refusal("auth-overhead", "--warmup", "25h"));
    assertEquals("--timeout must be between 1ms and 1h", refusal("auth-overhead", "--timeout", "0"));
  }

  @Test
  @DisplayName("an unknown scenario is refused and the known ones are named")
  void unknownScenario() {
    assertEquals("unknown scenario 'feeds-latest'; the scenarios are: auth-overhead, bridge-roundtrip, "
        + "accounts-profile, accounts-login, relations-batch, relations-followers, feeds-fanout, feeds-home, "
        + "feeds-moments, notifications, activities-join, activities-nearby, messaging-direct, bridge-idle-heap, "
        + "announcement-push, scale-out",
        refusal("feeds-latest"));
    assertEquals("name a scenario to run (auth-overhead, bridge-roundtrip, accounts-profile, accounts-login, "
        + "relations-batch, relations-followers, feeds-fanout, feeds-home, feeds-moments, "
        + "notifications, activities-join, activities-nearby, messaging-direct, bridge-idle-heap, "
        + "announcement-push, scale-out), or 'list'", refusal("--rate", "10"));
  }

  @Test
  @DisplayName("malformed option lists are refused")
  void malformedOptions() {
    assertEquals("unknown option '--rat'; see --help", refusal("auth-overhead", "--rat", "10"));
    assertEquals("--rate needs a value", refusal("auth-overhead", "--rate"));
    assertEquals("--rate is given twice", refusal("auth-overhead", "--rate", "1", "--rate", "2"));
    assertEquals("unexpected argument 'extra': give one scenario name", refusal("auth-overhead", "extra"));
    assertEquals("--connections must be a whole number from 1 to 10000, got '0'",
        refusal("auth-overhead", "--connections", "0"));
    assertEquals("--no-progress takes no value", refusal("auth-overhead", "--no-progress=yes"));
  }

  @Test
  @DisplayName("a remote target needs a token, and a token or bridge port needs a remote target")
  void targetAndToken() {
    assertEquals("scenario auth-overhead authenticates: with --target, pass --token with an access token of an "
        + "existing user", refusal("auth-overhead", "--target", "http://localhost:8080"));
    assertEquals("--token is for a remote --target; without --target the bench mints its own token",
        refusal("auth-overhead", "--token", "t"));
    assertEquals("--tcp-bridge-port is for a remote --target; in-process runs know the port",
        refusal("bridge-roundtrip", "--tcp-bridge-port", "7000"));
  }

  @Test
  @DisplayName("scale-out starts its own nodes: it refuses a --target, and its options have their defaults")
  void scaleOut() throws Exception {
    assertEquals("scenario scale-out starts its own Kith nodes; it takes no --target",
        refusal("scale-out", "--target", "http://localhost:8080"));
    BenchArgs args = parse("scale-out", "--slice", "2");
    assertTrue(args.scenario().startsItsOwnKith());
    assertEquals(Map.of("nodes", 3.0, "users", 60.0, "slice", 2.0), args.options());
    assertTrue(refusal("scale-out", "--nodes", "1").contains("--nodes must be a whole number from 2 to 8"));
  }

  @Test
  @DisplayName("a scenario's own options are read with it, and the ones not given take their defaults")
  void scenarioOptions() throws Exception {
    BenchArgs given = parse("--login-rate", "2.5", "accounts-login", "--users=7");
    assertEquals(Map.of("login-rate", 2.5, "users", 7.0), given.options());
    assertEquals(List.of("login-rate", "users"), List.copyOf(given.options().keySet()), "declaration order");
    BenchArgs defaults = parse("accounts-login");
    assertEquals(Map.of("login-rate", 5.0, "users", 20.0), defaults.options());
    assertEquals(Map.of(), parse("auth-overhead").options());
  }

  @Test
  @DisplayName("a scenario option out of range, or given to another scenario, is refused naming its owner")
  void badScenarioOptions() {
    assertEquals("--users must be a whole number from 1 to 10000, got '2.5'",
        refusal("accounts-login", "--users", "2.5"));
    assertEquals("--login-rate must be a number from 0.1 to 10000, got '0'",
        refusal("accounts-login", "--login-rate", "0"));
    assertEquals("--login-rate is an option of accounts-login, not of accounts-profile",
        refusal("accounts-profile", "--login-rate", "5"));
    assertEquals("--users is given twice", refusal("accounts-login", "--users", "5", "--users", "6"));
    assertEquals("unknown option '--login-rat'; see --help", refusal("accounts-login", "--login-rat", "5"));
  }

  @Test
  @DisplayName("the accounts scenarios register their own users, so a remote target needs no token for them")
  void accountsScenariosNeedNoToken() throws Exception {
    assertNull(parse("accounts-profile", "--target", "http://localhost:8080").token());
    assertNull(parse("accounts-login", "--target", "http://localhost:8080").token());
  }

  @Test
  @DisplayName("a target must be an http(s) URL with a host and no path")
  void badTargets() {
    assertEquals("--target 'ftp://host' must start with http:// or https://",
        refusal("auth-overhead", "--target", "ftp://host", "--token", "t"));
    assertEquals("--target 'http://host:8080/api' must not have a path; give only http://host:port",
        refusal("auth-overhead", "--target", "http://host:8080/api", "--token", "t"));
    assertEquals("--target 'localhost:8080' must start with http:// or https://",
        refusal("auth-overhead", "--target", "localhost:8080", "--token", "t"));
  }

  @Test
  @DisplayName("a JSON report in a directory that does not exist is refused before the run")
  void jsonDirectoryMustExist(@TempDir Path dir) {
    Path missing = dir.resolve("nope").resolve("r.json");
    assertEquals("--json: directory " + missing.getParent() + " does not exist",
        refusal("auth-overhead", "--json", missing.toString()));
  }

  @Test
  @DisplayName("the chart goes beside the JSON report unless --chart names it, and --cpu needs a remote target")
  void chartAndCpu(@TempDir Path dir) throws Exception {
    BenchArgs beside = parse("auth-overhead", "--json", dir.resolve("r.json").toString());
    assertEquals(dir.resolve("r.svg").toAbsolutePath(), beside.chart());
    assertEquals(0, beside.cpuPid());
    BenchArgs named = parse("auth-overhead", "--chart", dir.resolve("c.svg").toString());
    assertEquals(dir.resolve("c.svg").toAbsolutePath(), named.chart());
    assertNull(named.jsonReport());
    assertNull(parse("auth-overhead").chart());
    assertEquals(4242, parse("auth-overhead", "--target", "http://localhost:8080", "--token", "t", "--cpu", "4242")
        .cpuPid());
    assertEquals("--cpu is for a --target on this machine; in-process runs measure Kith's CPU",
        refusal("auth-overhead", "--cpu", "4242"));
    assertEquals("--cpu must be a whole number from 1 to 2147483647, got 'x'",
        refusal("auth-overhead", "--target", "http://localhost:8080", "--token", "t", "--cpu", "x"));
  }

  @Test
  @DisplayName("the usage text lists every scenario and option")
  void usage() {
    String usage = BenchArgs.usage(SCENARIOS);
    for (String word : List.of("auth-overhead", "bridge-roundtrip", "accounts-profile", "accounts-login", "--rate",
        "--duration", "--warmup", "--connections", "--timeout", "--max-in-flight", "--target", "--token",
        "--tcp-bridge-port", "--json", "--no-progress", "--login-rate N", "--users N")) {
      assertTrue(usage.contains(word), word);
    }
  }
}
