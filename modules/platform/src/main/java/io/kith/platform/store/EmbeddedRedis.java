package io.kith.platform.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;
import redis.embedded.core.RedisServerBuilder;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A real redis-server child process for development and tests: the binary shipped in the embedded-redis artifact,
 * or the {@code redis-server} on PATH when asked to prefer it.
 *
 * <p>The child writes a pidfile in its directory. A JVM killed with SIGKILL cannot stop its child, so the next start
 * reads that pidfile and stops a redis-server left behind before starting a new one.
 */
public final class EmbeddedRedis implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRedis.class);
  private static final String PIDFILE = "redis.pid";

  private final RedisServer server;
  private final int port;
  private final String binary;

  private EmbeddedRedis(RedisServer server, int port, String binary) {
    this.server = server;
    this.port = port;
    this.binary = binary;
  }

  /**
   * Starts redis-server on 127.0.0.1.
   *
   * @param dir        working directory (created); null for a throw-away server without persistence
   * @param port       TCP port, 0 for any free port
   * @param preferPath use the {@code redis-server} found on PATH if there is one
   * @throws StoreStartException with an operator-facing message when it cannot start
   */
  public static EmbeddedRedis start(Path dir, int port, boolean preferPath) {
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
    RedisServerBuilder builder = RedisServer.newRedisServer()
        .executableProvider(provider)
        .port(actualPort)
        .bind("127.0.0.1")
        .setting("protected-mode yes")
        .setting("maxclients 4064")
        .onShutdownForceStop(true);
    if (dir != null) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new StoreStartException("cannot create Redis data directory " + dir + ": " + e.getMessage());
      }
      stopLeftover(dir);
      builder.setting("dir " + dir.toAbsolutePath())
          .setting("pidfile " + dir.toAbsolutePath().resolve(PIDFILE))
          .setting("appendonly yes")
          .setting("appendfsync everysec");
    } else {
      builder.setting("save \"\"").setting("appendonly no");
    }
    try {
      RedisServer server = builder.build();
      server.start();
      LOG.info("Started {} on 127.0.0.1:{}{}", binary, actualPort, dir == null ? "" : " with data in " + dir);
      return new EmbeddedRedis(server, actualPort, binary);
    } catch (IOException | RuntimeException e) {
      throw new StoreStartException("embedded Redis failed to start on port " + actualPort + ": " + e.getMessage());
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
    try {
      server.stop();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Embedded Redis did not stop cleanly: {}", e.getMessage());
    }
  }

  /** Upper bound for a graceful stop. */
  public static Duration stopTimeout() {
    return Duration.ofSeconds(5);
  }
}
