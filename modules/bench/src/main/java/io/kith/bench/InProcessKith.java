package io.kith.bench;

import io.kith.app.Kith;
import io.kith.bench.client.Target;
import io.kith.platform.config.KithConfig;
import io.kith.platform.store.FreePorts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Starts Kith inside the bench process on embedded stores in a temporary data directory, mints an access token for a
 * fresh user id, and on close stops Kith and deletes the directory. This is the bench's only use of the app module.
 */
final class InProcessKith {

  private static final Logger LOG = LoggerFactory.getLogger(InProcessKith.class);

  private InProcessKith() {
  }

  /**
   * Starts Kith and opens a session for a new user id.
   *
   * @param scenarioConfig configuration the scenario needs, merged over the bench's own overrides
   */
  static Future<BenchEnvironment> start(JsonObject scenarioConfig) {
    Path dataDir;
    try {
      dataDir = Files.createTempDirectory("kith-bench-");
    } catch (IOException e) {
      return Future.failedFuture(new IllegalStateException("cannot create a temporary data directory: " + e, e));
    }
    JsonObject overrides = new JsonObject()
        .put("kith", new JsonObject().put("data-dir", dataDir.toString()))
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", 0).put("access-log", false))
        // tcp-port 0 would turn the TCP bridge off, so take a free port
        .put("bridge", new JsonObject().put("tcp-port", FreePorts.pick()).put("tcp-host", "127.0.0.1"))
        .put("redis", new JsonObject().put("url", ""))
        .put("mongo", new JsonObject().put("url", ""))
        .mergeIn(scenarioConfig.copy(), true);
    LOG.info("starting Kith in-process on embedded stores under {}", dataDir);
    return Kith.start(KithConfig.of(overrides))
        .recover(e -> {
          delete(dataDir);
          return Future.failedFuture(new IllegalStateException("Kith did not start: " + e.getMessage(), e));
        })
        .compose(kith -> {
          AtomicBoolean stopped = new AtomicBoolean();
          Supplier<Future<Void>> stop = () -> stopped.compareAndSet(false, true)
              ? kith.stop().eventually(() -> {
                delete(dataDir);
                return Future.succeededFuture();
              })
              : Future.succeededFuture();
          long userId = kith.platform().ids().next();
          Target target = new Target("127.0.0.1", kith.httpPort(), false, kith.tcpBridgePort());
          return kith.platform().sessions().open(userId, "bench")
              .map(pair -> new BenchEnvironment(target, pair.accessToken(), userId, true, kith.vertx(), stop))
              .recover(e -> stop.get().transform(ignored -> Future.<BenchEnvironment>failedFuture(
                  new IllegalStateException("cannot mint an access token in-process: " + e.getMessage(), e))));
        });
  }

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          LOG.warn("cannot delete {}: {}", p, e.getMessage());
        }
      });
    } catch (IOException e) {
      LOG.warn("cannot delete the temporary data directory {}: {}", dir, e.getMessage());
    }
  }
}
