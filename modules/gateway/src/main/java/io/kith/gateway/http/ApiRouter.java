package io.kith.gateway.http;

import io.kith.platform.Platform;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import io.vertx.ext.web.handler.SecurityPolicyHandler;
import io.vertx.ext.web.openapi.router.OpenAPIRoute;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.contract.OpenAPIContract;

import java.util.List;
import java.util.Set;

/**
 * Builds the HTTP router from the OpenAPI contract: root handlers (security headers, CORS, access log, body limit,
 * bearer authentication), then per operation the contract validation and the domain handler, and one failure handler
 * that turns every failure into problem+json.
 */
public final class ApiRouter {

  /** Prefix of the API paths (the contract holds full paths). */
  public static final String API_PREFIX = "/api/";

  private ApiRouter() {
  }

  /** The router; operations without a handler answer 501 problem+json. */
  public static Router create(Vertx vertx, OpenAPIContract contract, Platform platform, List<ApiRoutes> groups) {
    JsonObject http = platform.config().section("http");
    RouterBuilder builder = RouterBuilder.create(vertx, contract, RequestExtractor.withBodyHandler());
    if (http.getBoolean("access-log", true)) {
      builder.rootHandler(new AccessLog());
    }
    // Vert.x Web runs handlers by kind: platform (access log), security policy (CORS, headers), body, user.
    List<String> origins = http.getJsonArray("cors-origins", new io.vertx.core.json.JsonArray()).stream()
        .map(String::valueOf).toList();
    if (!origins.isEmpty()) {
      builder.rootHandler(CorsHandler.create()
          .addOrigins(origins)
          .allowedMethods(Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
              HttpMethod.DELETE, HttpMethod.OPTIONS))
          .allowedHeaders(Set.of("Authorization", "Content-Type", "Accept"))
          .exposedHeaders(Set.of("Retry-After", "WWW-Authenticate"))
          .maxAgeSeconds(600));
    }
    builder.rootHandler((SecurityPolicyHandler) rc -> {
      rc.response()
          .putHeader("X-Content-Type-Options", "nosniff")
          .putHeader("X-Frame-Options", "DENY")
          .putHeader("Referrer-Policy", "no-referrer");
      rc.next();
    });
    BodyHandler body = BodyHandler.create(false)
        .setBodyLimit(http.getLong("body-limit", 1_048_576L))
        .setHandleFileUploads(false);
    // only API paths get this body handler: the SockJS bridge mounts its own, limited to bridge.max-frame
    builder.rootHandler(rc -> {
      if (rc.normalizedPath().startsWith(API_PREFIX)) {
        body.handle(rc);
      } else {
        rc.next();
      }
    });
    builder.rootHandler(new BearerAuth(contract, platform.sessions()));

    for (ApiRoutes group : groups) {
      group.mount(builder);
    }
    for (OpenAPIRoute route : builder.getRoutes()) {
      // BearerAuth (a root handler) already authenticated; the builder's own security step is not used
      route.setDoSecurity(false);
      if (route.getHandlers().isEmpty()) {
        route.addHandler(rc -> rc.fail(new io.vertx.ext.web.handler.HttpException(501)));
      }
    }
    Router router = builder.createRouter();
    FailureHandler failures = new FailureHandler();
    router.route().failureHandler(failures);
    for (int status : new int[] {400, 401, 403, 404, 405, 413, 415, 500, 501, 503}) {
      router.errorHandler(status, failures);
    }
    return router;
  }
}
