package io.kith.bench;

import io.kith.bench.client.Target;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.function.Supplier;

/**
 * The Kith a run measures: a remote one given on the command line, or one started in-process.
 *
 * @param target    where to send requests; null when the scenario starts its own Kith
 * @param token     an access token (null if none)
 * @param userId    the token's user if known, else 0
 * @param inProcess whether Kith runs inside the bench process
 * @param kithVertx the in-process Kith's Vert.x instance (its event bus reaches the services); null when remote
 * @param closer    stops what the environment started
 */
record BenchEnvironment(Target target, String token, long userId, boolean inProcess, Vertx kithVertx,
                        Supplier<Future<Void>> closer) {

  /** A remote Kith; nothing to stop. */
  static BenchEnvironment remote(Target target, String token) {
    return new BenchEnvironment(target, token, 0, false, null, Future::succeededFuture);
  }

  /** No Kith at all: the scenario starts its own ({@link io.kith.bench.scenario.Scenario#startsItsOwnKith()}). */
  static BenchEnvironment none() {
    return new BenchEnvironment(null, null, 0, false, null, Future::succeededFuture);
  }

  /** What the report names as the target. */
  String describe() {
    return target == null ? "nodes started by the scenario" : target.baseUrl();
  }

  /** Stops what the environment started. */
  Future<Void> close() {
    return closer.get();
  }
}
