package io.kith.bench;

import io.kith.bench.client.ClientContext;
import io.kith.bench.jvm.KithCpu;
import io.kith.bench.load.LoadRunner;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.load.ProgressListener;
import io.kith.bench.report.Report;
import io.kith.bench.report.ReportChart;
import io.kith.bench.report.RunInfo;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.Scenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.Scenarios;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@code kith-bench} command: parses the command line, starts Kith in-process unless a target is given, runs the
 * scenario on the client's own Vert.x instance, and prints the report (table on stdout, progress on stderr, JSON to a
 * file on request). Printing is this tool's user interface, hence {@code System.out} here.
 */
public final class Bench {

  /** Exit status of a run where every recorded request succeeded. */
  public static final int EXIT_OK = 0;
  /** Exit status when the run could not be carried out. */
  public static final int EXIT_FAILED = 1;
  /** Exit status of a refused command line. */
  public static final int EXIT_USAGE = 2;
  /** Exit status of a completed run in which some requests failed, timed out or were dropped. */
  public static final int EXIT_REQUEST_FAILURES = 3;

  static {
    // Before the first logger exists: the bench logs warnings only, on stderr, unless told otherwise.
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "kith-bench-logback.xml");
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(Bench.class);
  private static final long STOP_SECONDS = 30;

  private final PrintStream out;
  private final PrintStream err;
  private final boolean console;
  private final Scenarios scenarios;

  /**
   * @param out       where the report goes
   * @param err       where messages and the progress bar go
   * @param console   whether a terminal is attached (enables the progress bar)
   * @param scenarios the scenarios the command line knows
   */
  public Bench(PrintStream out, PrintStream err, boolean console, Scenarios scenarios) {
    this.out = out;
    this.err = err;
    this.console = console;
    this.scenarios = scenarios;
  }

  /** Entry point; exits the JVM with the run's status (lingering non-daemon threads must not keep it alive). */
  public static void main(String[] args) {
    int status = new Bench(System.out, System.err, System.console() != null, Scenarios.builtIn())
        .run(List.of(args));
    System.out.flush();
    System.exit(status);
  }

  /** Runs a command line and returns the exit status. */
  public int run(List<String> args) {
    BenchArgs parsed;
    try {
      parsed = BenchArgs.parse(args, scenarios);
    } catch (UsageException e) {
      err.println("kith-bench: " + e.getMessage());
      err.println("Try 'java -jar kith-bench.jar --help'.");
      return EXIT_USAGE;
    }
    switch (parsed.command()) {
      case HELP -> {
        out.print(BenchArgs.usage(scenarios));
        return EXIT_OK;
      }
      case LIST -> {
        scenarios.all().forEach(s -> out.printf("%-18s %s%n", s.name(), s.description()));
        return EXIT_OK;
      }
      default -> {
        return runScenario(parsed);
      }
    }
  }

  private int runScenario(BenchArgs args) {
    Scenario scenario = args.scenario();
    Instant startedAt = Instant.now();
    Vertx vertx = Vertx.vertx();
    AtomicReference<BenchEnvironment> environment = new AtomicReference<>();
    Thread hook = new Thread(() -> {
      BenchEnvironment env = environment.getAndSet(null);
      if (env != null && env.inProcess()) {
        err.println();
        err.println("kith-bench: interrupted; stopping the in-process Kith");
      }
      stop(env);
    }, "kith-bench-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      BenchEnvironment env = scenario.startsItsOwnKith() ? BenchEnvironment.none()
          : args.target().isPresent() ? BenchEnvironment.remote(args.target().get(), args.token())
          : InProcessKith.start(scenario.inProcessConfig()).await();
      environment.set(env);
      LOG.info("running {} against {}", scenario.name(), env.describe());
      Context context = vertx.getOrCreateContext();
      ProgressListener progress = args.progress() && console ? new TerminalProgress(err) : ProgressListener.NONE;
      KithCpu cpu = kithCpu(args, env, vertx);
      LoadRunner runner = new LoadRunner(vertx, context, args.settings(), progress, cpu);
      ScenarioContext scenarioContext = new ScenarioContext(vertx, env.target(), env.token(), env.userId(), runner,
          args.options(), env.kithVertx());
      ScenarioResult result = ClientContext.run(context,
          () -> scenario.run(scenarioContext).eventually(scenarioContext::close)).await();
      Report report = new Report(runInfo(args, env, startedAt), result, cpu.attribution());
      out.print(report.toTable());
      out.flush();
      if (args.jsonReport() != null && !write(args.jsonReport(), "JSON report", report.toJson().encodePrettily()
          + "\n")) {
        return EXIT_FAILED;
      }
      if (args.chart() != null && !write(args.chart(), "chart", ReportChart.svg(report))) {
        return EXIT_FAILED;
      }
      return report.clean() ? EXIT_OK : EXIT_REQUEST_FAILURES;
    } catch (Exception e) {
      LOG.debug("run failed", e);
      err.println("kith-bench: " + scenario.name() + " failed: " + message(e));
      return EXIT_FAILED;
    } finally {
      stop(environment.getAndSet(null));
      closeQuietly(vertx);
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException alreadyShuttingDown) {
        // the hook is running or has run
      }
    }
  }

  private boolean write(java.nio.file.Path file, String what, String content) {
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
      err.println("kith-bench: " + what + " written to " + file);
      return true;
    } catch (IOException e) {
      err.println("kith-bench: cannot write the " + what + " to " + file + ": " + e.getMessage());
      return false;
    }
  }

  /**
   * How Kith's CPU is counted: a --cpu pid's process tree; this JVM and its children minus the generator's threads
   * when Kith runs here (in-process, or nodes the scenario starts); nothing for a remote Kith.
   */
  private static KithCpu kithCpu(BenchArgs args, BenchEnvironment env, Vertx generator) {
    if (args.cpuPid() > 0) {
      return KithCpu.processTree(args.cpuPid());
    }
    if (env.inProcess() || args.scenario().startsItsOwnKith()) {
      return KithCpu.inProcess(generator);
    }
    return KithCpu.none("Kith runs elsewhere; give --cpu PID when it runs on this machine");
  }

  private static RunInfo runInfo(BenchArgs args, BenchEnvironment env, Instant startedAt) {
    LoadSettings s = args.settings();
    return new RunInfo(args.scenario().name(), args.scenario().description(), env.describe(),
        env.inProcess(), s.closedLoop(), s.rate(), s.warmup(), s.duration(), s.connections(), s.timeout(), startedAt,
        args.options());
  }

  private void stop(BenchEnvironment env) {
    if (env == null) {
      return;
    }
    try {
      env.close().await(STOP_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      err.println("kith-bench: stopping the in-process Kith failed: " + message(e));
    }
  }

  private static void closeQuietly(Vertx vertx) {
    try {
      vertx.close().await(STOP_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.debug("closing the client Vert.x failed", e);
    }
  }

  private static String message(Throwable e) {
    Throwable t = e;
    // Future.await wraps failures; the innermost message with text is what the user needs.
    while (t.getCause() != null && t.getCause() != t
        && (t.getMessage() == null || t instanceof CompletionException)) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
