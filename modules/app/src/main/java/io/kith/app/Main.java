package io.kith.app;

import io.kith.app.log.LogFormat;
import io.kith.platform.config.ConfigException;
import io.kith.platform.config.KithConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar kith.jar [config.yaml]}: starts a Kith node and runs until SIGTERM/SIGINT, then shuts down
 * cleanly. A start that cannot succeed prints one line saying what to fix and exits with status 1.
 */
public final class Main {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  private Main() {
  }

  /** Entry point. */
  public static void main(String[] args) {
    if (args.length > 1 || (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help")))) {
      System.err.println("usage: java -jar kith.jar [config.yaml]   (environment: KITH_HTTP_PORT, KITH_REDIS_URL, "
          + "KITH_MONGO_URL, KITH_CLUSTER_ENABLED, KITH_MODULES, ...; see README.md)");
      System.exit(args.length > 1 ? 2 : 0);
    }
    KithConfig config;
    try {
      config = KithConfig.load(args.length == 1 ? Path.of(args[0]) : null, System.getenv());
    } catch (ConfigException e) {
      die(e.getMessage());
      return;
    }
    try {
      // before the first line below, so that every line of the node has the configured format
      LogFormat.apply(config);
    } catch (ConfigException e) {
      die(e.getMessage());
      return;
    }
    config.unknownEnvironment().forEach(v -> LOG.warn("Ignoring {}: it matches no configuration key", v));
    Kith kith;
    try {
      kith = Kith.start(config, true).toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    } catch (Exception e) {
      Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
      LOG.debug("Start failed", cause);
      die(cause.getMessage() == null ? cause.toString() : cause.getMessage());
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("Shutting down");
      try {
        kith.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        LOG.info("Stopped");
      } catch (Exception e) {
        LOG.warn("Shutdown did not complete cleanly: {}", e.toString());
      }
    }, "kith-shutdown"));
  }

  // Vert.x and Hazelcast leave non-daemon threads behind after a failed start: exit explicitly.
  private static void die(String message) {
    System.err.println("kith: cannot start: " + message);
    System.exit(1);
  }
}
