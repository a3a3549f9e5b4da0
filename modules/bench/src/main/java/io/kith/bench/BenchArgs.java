package io.kith.bench;

import io.kith.bench.client.Target;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.scenario.Scenario;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.bench.scenario.Scenarios;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parsed command line of {@code kith-bench}.
 *
 * @param command     what to do
 * @param scenario    the scenario to run (RUN only)
 * @param settings    load settings (RUN only)
 * @param target      the remote Kith to measure; empty to start one in-process
 * @param token       access token for a remote target, else null
 * @param jsonReport  where to write the JSON report, else null
 * @param progress    whether a progress bar may be drawn (it also needs a console)
 * @param options     the scenario's own options, every one with its value or default, in declaration order (RUN
 *                    only; empty otherwise)
 * @param cpuPid      the pid of a --target Kith on this machine whose CPU to measure, else 0
 * @param chart       where to write the SVG chart: the given file, else the JSON report's name with {@code .svg},
 *                    else null
 */
public record BenchArgs(Command command, Scenario scenario, LoadSettings settings, Optional<Target> target,
                        String token, Path jsonReport, boolean progress, Map<String, Double> options, long cpuPid,
                        Path chart) {

  /** Copies the options, keeping their order. */
  public BenchArgs {
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }

  /** What the command line asks for. */
  public enum Command {
    /** Print the usage. */
    HELP,
    /** Print the scenarios. */
    LIST,
    /** Run a scenario. */
    RUN
  }

  static final double DEFAULT_RATE = 200;
  static final Duration DEFAULT_DURATION = Duration.ofSeconds(20);
  static final Duration DEFAULT_WARMUP = Duration.ofSeconds(5);
  static final int DEFAULT_CONNECTIONS = 32;
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
  static final int DEFAULT_MAX_IN_FLIGHT = 10_000;
  static final double MAX_RATE = 1_000_000;
  static final int MAX_CONNECTIONS = 10_000;
  static final Duration MAX_DURATION = Duration.ofHours(24);

  private static final Set<String> WITH_VALUE = Set.of("--rate", "--duration", "--warmup", "--connections",
      "--timeout", "--max-in-flight", "--target", "--token", "--tcp-bridge-port", "--json", "--cpu", "--chart");

  /** The usage text. */
  public static String usage(Scenarios scenarios) {
    StringBuilder s = new StringBuilder();
    s.append("""
        Usage: java -jar kith-bench.jar <scenario> [options]
               java -jar kith-bench.jar list | --help

        Runs a load scenario against Kith and reports latency percentiles, throughput, errors and the ratio of
        each measured operation to its baseline from the same run. Without --target, Kith is started in this
        process on embedded stores in a temporary data directory and stopped at the end.

        Options:
          --rate N            requests per second for each operation, fixed rate (open loop); default %s.
                              'max' runs closed loop instead: --connections requests always in flight
          --duration D        measured time per run, e.g. 20s, 500ms, 2m, 1m30s; default %s
          --warmup D          unrecorded run-in at the same rate before measuring; default %s
          --connections N     connections per client (HTTP pool, bridge sockets); default %d
          --timeout D         a request unanswered this long after its intended send time is a timeout; default %s
          --max-in-flight N   open loop: drop (and count) due requests while N are outstanding; default %d
          --target URL        measure a running Kith at http(s)://host:port instead of starting one
          --token T           access token of an existing user on --target (needed by the scenarios that authenticate)
          --tcp-bridge-port P TCP event-bus bridge port on the --target host (bridge scenarios)
          --json FILE         also write the report as JSON to FILE, and its chart (SVG) beside it as FILE.svg
          --chart FILE        write the report's chart (SVG: latency percentiles, throughput, CPU) to FILE
          --cpu PID           with --target: measure the CPU of Kith's process PID (on this machine) and its
                              children; in-process runs always measure Kith's CPU
          --no-progress       no progress bar (it is drawn on stderr only when a console is attached)
          -h, --help          this text

        Exit status: 0 when every recorded request succeeded, 3 when the run completed with failed requests,
        1 when the run could not be carried out, 2 for a command line that is refused.

        Scenarios (with their own options):
        """.formatted(formatRate(DEFAULT_RATE), "20s", "5s", DEFAULT_CONNECTIONS, "5s", DEFAULT_MAX_IN_FLIGHT));
    for (Scenario sc : scenarios.all()) {
      s.append(String.format(Locale.ROOT, "  %-18s %s%n", sc.name(), sc.description()));
      for (ScenarioOption o : sc.options()) {
        s.append(String.format(Locale.ROOT, "      %-16s %s; default %s%n", "--" + o.name() + " N", o.description(),
            ScenarioOption.format(o.defaultValue())));
      }
    }
    return s.toString();
  }

  /**
   * Parses {@code args}. Why one long method: one branch per option over the option's local, so that the whole
   * command line and its defaults read in one place, as the usage text lists them.
   *
   * @throws UsageException when the command line is refused; the message says what to change
   */
  public static BenchArgs parse(List<String> args, Scenarios scenarios) throws UsageException {
    String positional = null;
    double rate = DEFAULT_RATE;
    boolean closedLoop = false;
    Duration duration = DEFAULT_DURATION;
    Duration warmup = DEFAULT_WARMUP;
    int connections = DEFAULT_CONNECTIONS;
    Duration timeout = DEFAULT_TIMEOUT;
    int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    Target target = null;
    String token = null;
    int tcpBridgePort = 0;
    Path json = null;
    Path chart = null;
    long cpuPid = 0;
    boolean progress = true;
    Set<String> seen = new HashSet<>();
    Map<String, String> scenarioOptions = new LinkedHashMap<>();

    if (args.contains("-h") || args.contains("--help")) {
      return new BenchArgs(Command.HELP, null, null, Optional.empty(), null, null, false, Map.of(), 0, null);
    }
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("-")) {
        if (positional != null) {
          throw new UsageException("unexpected argument '" + arg + "': give one scenario name");
        }
        positional = arg;
        continue;
      }
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (name.equals("--no-progress")) {
        if (value != null) {
          throw new UsageException("--no-progress takes no value");
        }
        progress = false;
        continue;
      }
      boolean scenarioOption = !WITH_VALUE.contains(name) && name.startsWith("--")
          && scenarios.declaresOption(name.substring(2));
      if (!WITH_VALUE.contains(name) && !scenarioOption) {
        throw new UsageException("unknown option '" + name + "'; see --help");
      }
      if (!seen.add(name)) {
        throw new UsageException(name + " is given twice");
      }
      if (value == null) {
        if (i + 1 >= args.size()) {
          throw new UsageException(name + " needs a value");
        }
        value = args.get(++i);
      }
      if (scenarioOption) {
        scenarioOptions.put(name.substring(2), value);
        continue;
      }
      switch (name) {
        case "--rate" -> {
          if (value.strip().equalsIgnoreCase("max")) {
            closedLoop = true;
            rate = 0;
          } else {
            rate = parseRate(value);
          }
        }
        case "--duration" -> duration = Durations.parse(name, value);
        case "--warmup" -> warmup = Durations.parse(name, value);
        case "--connections" -> connections = parseInt(name, value, 1, MAX_CONNECTIONS);
        case "--timeout" -> timeout = Durations.parse(name, value);
        case "--max-in-flight" -> maxInFlight = parseInt(name, value, 1, 10_000_000);
        case "--target" -> target = parseTarget(value);
        case "--token" -> {
          if (value.isBlank()) {
            throw new UsageException("--token must not be empty");
          }
          token = value.strip();
        }
        case "--tcp-bridge-port" -> tcpBridgePort = parseInt(name, value, 1, 65_535);
        case "--json" -> json = parsePath(name, value);
        case "--chart" -> chart = parsePath(name, value);
        case "--cpu" -> cpuPid = parseInt(name, value, 1, Integer.MAX_VALUE);
        default -> throw new IllegalStateException(name);
      }
    }

    if (positional == null) {
      throw new UsageException("name a scenario to run (" + scenarios.names() + "), or 'list'");
    }
    if (positional.equals("help")) {
      return new BenchArgs(Command.HELP, null, null, Optional.empty(), null, null, false, Map.of(), 0, null);
    }
    if (positional.equals("list")) {
      return new BenchArgs(Command.LIST, null, null, Optional.empty(), null, null, false, Map.of(), 0, null);
    }
    String scenarioName = positional;
    Scenario scenario = scenarios.find(scenarioName).orElseThrow(() -> new UsageException(
        "unknown scenario '" + scenarioName + "'; the scenarios are: " + scenarios.names()));

    Map<String, Double> options = scenarioOptions(scenario, scenarioOptions, scenarios);
    if (duration.isZero() || duration.isNegative()) {
      throw new UsageException("--duration must be longer than zero");
    }
    if (duration.compareTo(MAX_DURATION) > 0 || warmup.compareTo(MAX_DURATION) > 0) {
      throw new UsageException("--duration and --warmup must be at most 24h");
    }
    if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofHours(1)) > 0) {
      throw new UsageException("--timeout must be between 1ms and 1h");
    }
    if (target == null) {
      if (token != null) {
        throw new UsageException("--token is for a remote --target; without --target the bench mints its own token");
      }
      if (tcpBridgePort != 0) {
        throw new UsageException("--tcp-bridge-port is for a remote --target; in-process runs know the port");
      }
      if (cpuPid != 0) {
        throw new UsageException("--cpu is for a --target on this machine; in-process runs measure Kith's CPU");
      }
    } else {
      if (scenario.startsItsOwnKith()) {
        throw new UsageException("scenario " + scenario.name() + " starts its own Kith nodes; it takes no --target");
      }
      if (token == null && scenario.needsToken()) {
        throw new UsageException("scenario " + scenario.name() + " authenticates: with --target, pass --token "
            + "with an access token of an existing user");
      }
      target = target.withTcpBridgePort(tcpBridgePort);
    }
    LoadSettings settings = new LoadSettings(rate, closedLoop, warmup, duration, connections,
        timeout, maxInFlight);
    if (chart == null && json != null) {
      String file = json.getFileName().toString();
      chart = json.resolveSibling((file.endsWith(".json") ? file.substring(0, file.length() - 5) : file) + ".svg");
    }
    return new BenchArgs(Command.RUN, scenario, settings, Optional.ofNullable(target), token, json, progress,
        options, cpuPid, chart);
  }

  /** The scenario's options: the given values, checked, and the defaults of the others. */
  private static Map<String, Double> scenarioOptions(Scenario scenario, Map<String, String> given,
                                                     Scenarios scenarios) throws UsageException {
    Map<String, Double> values = new LinkedHashMap<>();
    for (ScenarioOption option : scenario.options()) {
      String value = given.get(option.name());
      try {
        values.put(option.name(), value == null ? option.defaultValue() : option.parse(value));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    for (String name : given.keySet()) {
      if (!values.containsKey(name)) {
        throw new UsageException("--" + name + " is an option of " + scenarios.declaring(name) + ", not of "
            + scenario.name());
      }
    }
    return values;
  }

  private static double parseRate(String value) throws UsageException {
    double rate;
    try {
      rate = Double.parseDouble(value.strip());
    } catch (NumberFormatException e) {
      rate = Double.NaN;
    }
    if (!(rate > 0) || rate > MAX_RATE || Double.isInfinite(rate)) {
      throw new UsageException("--rate must be a number of requests per second above 0 and at most "
          + formatRate(MAX_RATE) + ", or 'max', got '" + value + "'");
    }
    return rate;
  }

  private static int parseInt(String option, String value, int min, int max) throws UsageException {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // falls through to the message
    }
    throw new UsageException(option + " must be a whole number from " + min + " to " + max + ", got '" + value + "'");
  }

  private static Target parseTarget(String value) throws UsageException {
    try {
      return Target.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + e.getMessage());
    }
  }

  private static Path parsePath(String option, String value) throws UsageException {
    if (value.isBlank()) {
      throw new UsageException(option + " needs a file name");
    }
    Path path = Path.of(value).toAbsolutePath();
    Path dir = path.getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new UsageException(option + ": directory " + dir + " does not exist");
    }
    if (Files.isDirectory(path)) {
      throw new UsageException(option + ": " + path + " is a directory; give a file name");
    }
    return path;
  }

  private static String formatRate(double rate) {
    return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
  }
}
