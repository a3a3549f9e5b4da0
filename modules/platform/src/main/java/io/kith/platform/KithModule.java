package io.kith.platform;

import io.vertx.core.Future;

/**
 * A deployable part of Kith (a domain's service, or the gateway), found by the app through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.kith.platform.KithModule}). The operator chooses which
 * modules a node runs with {@code kith.modules}.
 */
public interface KithModule {

  /** The module name used in {@code kith.modules}, e.g. {@code gateway} or {@code feeds}. */
  String name();

  /** Start order: lower first. Services start before the gateway so that it never serves a request with no handler. */
  default int order() {
    return 100;
  }

  /**
   * Deploys the module's verticle(s) on {@code platform}'s Vert.x; the verticle reads its own section of the
   * configuration. Completes once the module is ready to serve.
   *
   * @return the deployment id
   */
  Future<String> deploy(Platform platform);
}
