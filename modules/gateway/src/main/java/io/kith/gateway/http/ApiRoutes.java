package io.kith.gateway.http;

import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * A group of HTTP operations of one domain, mounted by operation id on the contract's router builder. Each domain
 * adds one class (for example {@code FeedsRoutes}) that maps validated input to its service proxy and the result to
 * JSON; authorization stays in the service.
 */
public interface ApiRoutes {

  /** Adds handlers for this group's operations. */
  void mount(RouterBuilder builder);
}
