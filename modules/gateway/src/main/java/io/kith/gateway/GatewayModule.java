package io.kith.gateway;

import io.kith.gateway.bridge.RoomAccess;
import io.kith.gateway.http.ApiRoutes;
import io.kith.gateway.http.AuthRoutes;
import io.kith.gateway.http.SystemRoutes;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;

import java.util.List;

/** The gateway module: HTTP API and event-bus bridges. Starts after every domain service of its node. */
public final class GatewayModule implements KithModule {

  @Override
  public String name() {
    return "gateway";
  }

  @Override
  public int order() {
    return 1000;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    int configured = platform.config().section("http").getInteger("instances", 0);
    int instances = configured > 0 ? configured : Math.max(1, Runtime.getRuntime().availableProcessors());
    List<ApiRoutes> routes = List.of(new SystemRoutes(), new AuthRoutes(platform.sessions()));
    return platform.vertx().deployVerticle(() -> new GatewayVerticle(platform, routes, RoomAccess.NONE),
        new DeploymentOptions().setInstances(instances));
  }
}
