package io.kith.bench.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One Kith process: {@code java -cp <this JVM's class path> io.kith.app.Main}, configured by environment variables
 * like an operator's node, with its output in {@code node-N.log} (the app's format plus Hazelcast's membership changes,
 * {@value #LOGBACK}). The fault suite hurts it with signals to its pid (SIGKILL, SIGSTOP and SIGCONT, SIGTERM); the
 * bench's {@code scale-out} reads its CPU time.
 */
public final class KithNode {

  /** The nodes' logging configuration, a resource of this module. */
  public static final String LOGBACK = "kith-node-logback.xml";

  private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final int httpPort;
  private final Path log;
  private final Map<String, String> env;
  private final List<String> jvmOptions;
  private Process process;

  /**
   * @param name       for logs and messages ({@code node-1})
   * @param httpPort   the port of its HTTP API ({@code KITH_HTTP_PORT} in {@code env})
   * @param log        where its output is appended
   * @param env        its {@code KITH_} variables (any others of this JVM's environment are not passed on)
   * @param jvmOptions options of its JVM (heap, GC)
   */
  public KithNode(String name, int httpPort, Path log, Map<String, String> env, List<String> jvmOptions) {
    this.name = name;
    this.httpPort = httpPort;
    this.log = log;
    this.env = Map.copyOf(env);
    this.jvmOptions = List.copyOf(jvmOptions);
  }

  /** Its name, {@code node-N}. */
  public String name() {
    return name;
  }

  /** The base URL of this node's HTTP API. */
  public String base() {
    return "http://127.0.0.1:" + httpPort;
  }

  /** The port of its HTTP API. */
  public int httpPort() {
    return httpPort;
  }

  /** Its log file. */
  public Path log() {
    return log;
  }

  /** The running process, empty before {@link #start()}. */
  public Optional<ProcessHandle> process() {
    return Optional.ofNullable(process).map(Process::toHandle);
  }

  /** Starts the process (again, after a kill or a stop: the log is appended to). */
  public void start() throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(jvmOptions);
    command.addAll(List.of("-Dlogback.configurationFile=" + LOGBACK, "-cp", System.getProperty("java.class.path"),
        "io.kith.app.Main"));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().keySet().removeIf(k -> k.startsWith("KITH_"));
    pb.environment().putAll(env);
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    process = pb.start();
  }

  /** Waits until /health answers UP; fails with the log's tail if the process exits or the deadline passes. */
  public void awaitHealthy(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!healthy()) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited early:\n" + tail());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " did not become healthy within " + timeout + ":\n" + tail());
      }
      Thread.sleep(200);
    }
  }

  private boolean healthy() throws InterruptedException {
    try {
      HttpResponse<String> health = PROBE.send(HttpRequest.newBuilder(URI.create(base() + "/health"))
          .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      return health.statusCode() == 200 && health.body().contains("\"UP\"");
    } catch (IOException notYet) {
      return false;
    }
  }

  /** Whether the process runs. */
  public boolean alive() {
    return process != null && process.isAlive();
  }

  /** {@code kill -9}: the process dies at once, mid-write, with nothing flushed or handed over. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  /** SIGSTOP: the process freezes (no heartbeats, no replies) but keeps its sockets open. */
  public void pause() throws Exception {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}. */
  public void resume() throws Exception {
    signal("CONT");
  }

  /** SIGTERM; true when the process exited by itself within the deadline. */
  public boolean terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whatever still runs: SIGCONT (a stopped JVM ignores SIGTERM), SIGTERM, then SIGKILL. */
  public void stopQuietly() {
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
  public String tail() {
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
