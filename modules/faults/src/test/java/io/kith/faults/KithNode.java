package io.kith.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Kith process: {@code java -cp <this JVM's class path> io.kith.app.Main}, configured by environment variables
 * like an operator's node, with its output in {@code node-N.log}. Faults are signals to its pid: SIGKILL, SIGSTOP and
 * SIGCONT, SIGTERM.
 */
final class KithNode {

  private static final Api PROBE = new Api();

  private final String name;
  private final int httpPort;
  private final Path log;
  private final Map<String, String> env;
  private Process process;

  KithNode(String name, int httpPort, Path log, Map<String, String> env) {
    this.name = name;
    this.httpPort = httpPort;
    this.log = log;
    this.env = env;
  }

  String name() {
    return name;
  }

  /** The base URL of this node's HTTP API. */
  String base() {
    return "http://127.0.0.1:" + httpPort;
  }

  Path log() {
    return log;
  }

  /** Starts the process (again, after a kill or a stop: the log is appended to). */
  void start() throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path logback = Path.of("src", "test", "resources", "faults-node-logback.xml").toAbsolutePath();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-Dlogback.configurationFile=" + logback, "-cp", System.getProperty("java.class.path"),
        "io.kith.app.Main"));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().keySet().removeIf(k -> k.startsWith("KITH_"));
    pb.environment().putAll(env);
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    process = pb.start();
  }

  /** Waits until /health answers UP; fails with the log's tail if the process exits or the deadline passes. */
  void awaitHealthy(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!healthy()) {
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited early:\n" + tail());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " did not become healthy within " + timeout + ":\n" + tail());
      }
      Thread.sleep(200);
    }
  }

  private boolean healthy() {
    Api.Reply health = PROBE.health(this);
    return health.status() == 200 && health.body().contains("\"UP\"");
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** {@code kill -9}: the process dies at once, mid-write, with nothing flushed or handed over. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  /** SIGSTOP: the process freezes (no heartbeats, no replies) but keeps its sockets open. */
  void pause() throws Exception {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}. */
  void resume() throws Exception {
    signal("CONT");
  }

  /** SIGTERM; true when the process exited by itself within the deadline. */
  boolean terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whatever still runs: SIGCONT (a stopped JVM ignores SIGTERM), SIGTERM, then SIGKILL. */
  void stopQuietly() {
    if (!alive()) {
      return;
    }
    try {
      resume();
      if (!terminate(Duration.ofSeconds(60))) {
        kill();
      }
    } catch (Exception e) {
      process.destroyForcibly();
    }
  }

  private void signal(String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  /** The last lines of the node's log, for a failure message. */
  String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
