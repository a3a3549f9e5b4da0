package io.kith.platform.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;
import redis.embedded.core.RedisServerBuilder;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server child process for development and tests: the binary shipped in the embedded-redis artifact,
 * or the {@code redis-server} on PATH when asked to prefer it.
 *
 * <p>Its output goes to {@code redis.log} in its directory (a temporary file for a throw-away server). The child writes
 * a pidfile in its directory. A JVM killed with SIGKILL cannot stop its child, so the next start
 * reads that pidfile and stops a redis-server left behind before starting a new one.
 */
public final class EmbeddedRedis implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRedis.class);
  private static final String PIDFILE = "redis.pid";
  private static final String LOGFILE = "redis.log";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final int port;
  private final String binary;
  private final Path log;
  private final boolean temporaryLog;
  private final Thread shutdownHook;

  private EmbeddedRedis(Process process, int port, String binary, Path log, boolean temporaryLog, Thread shutdownHook) {
    this.process = process;
    this.port = port;
    this.binary = binary;
    this.log = log;
    this.temporaryLog = temporaryLog;
    this.shutdownHook = shutdownHook;
  }

  /**
   * Starts redis-server on 127.0.0.1, stopped by a JVM shutdown hook of its own if nobody closes it first.
   *
   * @param dir        working directory (created); null for a throw-away server without persistence
   * @param port       TCP port, 0 for any free port
   * @param preferPath use the {@code redis-server} found on PATH if there is one
   * @throws StoreStartException with an operator-facing message when it cannot start
   */
  public static EmbeddedRedis start(Path dir, int port, boolean preferPath) {
    return start(dir, port, preferPath, true);
  }

  /**
   * Starts redis-server on 127.0.0.1. Why one long method: the steps (port, binary, configuration, process, its log,
   * the wait for it to be ready) share the same port, files and process, and each failure is told to the operator in
   * one place with the port it was about.
   *
   * @param dir           working directory (created); null for a throw-away server without persistence
   * @param port          TCP port, 0 for any free port
   * @param preferPath    use the {@code redis-server} found on PATH if there is one
   * @param stopOnJvmExit stop the server from a JVM shutdown hook of its own; false when the owner stops it from its
   *                      own hook after what still uses it (shutdown hooks run concurrently: a hook of Redis's own
   *                      would stop it while event consumers still read from it)
   * @throws StoreStartException with an operator-facing message when it cannot start
   */
  public static EmbeddedRedis start(Path dir, int port, boolean preferPath, boolean stopOnJvmExit) {
    int actualPort = port == 0 ? FreePorts.pick() : port;
    if (!FreePorts.isFree(actualPort)) {
      throw new StoreStartException("embedded Redis port " + actualPort
          + " is in use: set redis.embedded-port (KITH_REDIS_EMBEDDED_PORT) to a free port or 0");
    }
    ExecutableProvider provider = ExecutableProvider.newJarResourceProvider();
    String binary = "embedded redis-server 6.2";
    if (preferPath) {
      Optional<ExecutableProvider> onPath = fromPath();
      if (onPath.isPresent()) {
        provider = onPath.get();
        binary = "redis-server from PATH";
      }
    }
    // The builder finds the binary and writes the configuration file; the process is run here rather than by
    // embedded-redis's RedisServer, whose JVM shutdown hook always stops Redis at once, concurrently with Kith's own
    // ordered shutdown (the event consumers then lose their connections mid-read).
    RedisServerBuilder builder = RedisServer.newRedisServer()
        .executableProvider(provider)
        .port(actualPort)
        .bind("127.0.0.1")
        .setting("protected-mode yes")
        .setting("maxclients 4064");
    if (dir != null) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new StoreStartException("cannot create Redis data directory " + dir + ": " + e.getMessage());
      }
      stopLeftover(dir);
      // appendfsync everysec: each write reaches the OS (write(2)) before Redis replies, so a killed Kith or Redis
      // loses nothing acknowledged; only a power loss can cost the last second.
      builder.setting("dir " + dir.toAbsolutePath())
          .setting("pidfile " + dir.toAbsolutePath().resolve(PIDFILE))
          .setting("appendonly yes")
          .setting("appendfsync everysec");
    } else {
      builder.setting("save \"\"").setting("appendonly no");
    }
    Path log = null;
    boolean temporaryLog = dir == null;
    try {
      List<String> command = builder.buildCommandArgs();
      log = temporaryLog ? Files.createTempFile("kith-redis-", ".log") : dir.toAbsolutePath().resolve(LOGFILE);
      Process process = new ProcessBuilder(command)
          .directory(new File(command.get(0)).getParentFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
          .start();
      awaitReady(process, log, actualPort);
      Thread hook = null;
      if (stopOnJvmExit) {
        hook = new Thread(() -> stop(process), "embedded-redis-stop");
        Runtime.getRuntime().addShutdownHook(hook);
      }
      LOG.info("Started {} on 127.0.0.1:{}{}", binary, actualPort, dir == null ? "" : " with data in " + dir);
      return new EmbeddedRedis(process, actualPort, binary, log, temporaryLog, hook);
    } catch (IOException | RuntimeException e) {
      if (temporaryLog && log != null) {
        deleteQuietly(log);
      }
      if (e instanceof StoreStartException) {
        throw (StoreStartException) e;
      }
      throw new StoreStartException("embedded Redis failed to start on port " + actualPort + ": " + e.getMessage());
    }
  }

  // Ready when the server says so (it listens before it has loaded its append-only file).
  private static void awaitReady(Process process, Path log, int port) throws IOException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      String output = Files.readString(log, StandardCharsets.UTF_8);
      if (output.contains("Ready to accept connections")) {
        return;
      }
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        String last = output.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("no output");
        throw new StoreStartException("embedded Redis failed to start on port " + port + ": " + last.trim());
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
        throw new StoreStartException("interrupted while embedded Redis was starting");
      }
    }
  }

  // SIGTERM lets Redis flush its append-only file and remove its pidfile; SIGKILL only when it does not stop in time.
  private static void stop(Process process) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(stopTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("Embedded Redis did not stop within {} s: killing it", stopTimeout().toSeconds());
        process.destroyForcibly().waitFor(stopTimeout().toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.debug("Cannot delete {}: {}", file, e.getMessage());
    }
  }

  private static Optional<ExecutableProvider> fromPath() {
    try {
      return Optional.of(ExecutableProvider.newExecutableInPath("redis-server"));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }

  /** Stops a redis-server whose pidfile a killed Kith left in {@code dir}. */
  static void stopLeftover(Path dir) {
    Path pidfile = dir.resolve(PIDFILE);
    if (!Files.isRegularFile(pidfile)) {
      return;
    }
    try {
      long pid = Long.parseLong(Files.readString(pidfile, StandardCharsets.US_ASCII).trim());
      ProcessHandle.of(pid)
          .filter(p -> p.info().command().map(c -> c.contains("redis-server")).orElse(false))
          .ifPresent(p -> {
            LOG.warn("Stopping redis-server (pid {}) left behind by an earlier run", pid);
            p.destroy();
            try {
              p.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception timeout) {
              p.destroyForcibly();
            }
          });
      Files.deleteIfExists(pidfile);
    } catch (IOException | NumberFormatException e) {
      LOG.warn("Ignoring unreadable Redis pidfile {}: {}", pidfile, e.getMessage());
    }
  }

  /** The URL clients connect to. */
  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /** The TCP port. */
  public int port() {
    return port;
  }

  /** Which binary runs. */
  public String binary() {
    return binary;
  }

  /** Stops the server (waits for it to exit). */
  @Override
  public void close() {
    if (shutdownHook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs or has run: stopping twice is harmless
      }
    }
    stop(process);
    if (temporaryLog) {
      deleteQuietly(log);
    }
  }

  /** Upper bound for a graceful stop. */
  public static Duration stopTimeout() {
    return Duration.ofSeconds(5);
  }
}
