package io.kith.bench.baseline;

import io.kith.platform.store.FreePorts;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.VerticleBase;

import java.util.function.IntFunction;

/**
 * A baseline server of the bench: {@code instances} verticles (event loops) sharing a free loopback port, on a Vert.x
 * instance of its own, so that the baseline never shares event loops with the Kith it is compared with.
 */
final class LoopbackServer {

  private final Vertx vertx;
  private final int port;

  private LoopbackServer(Vertx vertx, int port) {
    this.vertx = vertx;
    this.port = port;
  }

  /**
   * Deploys {@code instances} of the verticle {@code verticle} makes for the chosen port.
   *
   * @param what named in the failure when it cannot start
   */
  static Future<LoopbackServer> start(String what, int instances, IntFunction<VerticleBase> verticle) {
    Context caller = Vertx.currentContext();
    if (caller == null) {
      return deploy(what, instances, verticle);
    }
    // Vert.x warns when an instance is created on another's thread: create it on a thread of its own, and hand the
    // outcome back to the caller's context.
    Promise<LoopbackServer> promise = Promise.promise();
    Thread starter = new Thread(() -> deploy(what, instances, verticle)
        .onComplete(ar -> caller.runOnContext(v -> promise.handle(ar))), "kith-bench-baseline-start");
    starter.setDaemon(true);
    starter.start();
    return promise.future();
  }

  private static Future<LoopbackServer> deploy(String what, int instances, IntFunction<VerticleBase> verticle) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(instances));
    int port = FreePorts.pick();
    return vertx.deployVerticle(() -> verticle.apply(port), new DeploymentOptions().setInstances(instances))
        .map(id -> new LoopbackServer(vertx, port))
        .recover(e -> vertx.close().transform(ignored -> Future.failedFuture(new IllegalStateException(
            "cannot start the " + what + ": " + e.getMessage(), e))));
  }

  int port() {
    return port;
  }

  Future<Void> close() {
    return vertx.close();
  }
}
