package io.kith.gateway.http;

import io.kith.platform.Platform;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import io.vertx.ext.web.handler.SecurityPolicyHandler;
import io.vertx.ext.web.openapi.router.OpenAPIRoute;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;

import java.util.List;
import java.util.Set;

/**
 * Builds the HTTP router from the OpenAPI contract: root handlers (request id, access log, keep-alive header deadline, request
 * deadline, security headers, CORS, in-flight bound, body limit, bearer authentication), then per operation the contract validation and the domain handler, and one failure handler
 * that turns every failure into problem+json.
 */
public final class ApiRouter {

  /** Prefix of the API paths (the contract holds full paths). */
  public static final String API_PREFIX = "/api/";

  /**
   * Contract extension on an operation ({@code x-kith-streamed-body: true}) whose request body is not buffered by the
   * body handler (nor bound by {@code http.body-limit}) nor validated by the contract validator: its handler reads
   * the body as a stream under its own limits.
   */
  public static final String STREAMED_BODY = "x-kith-streamed-body";

  /** Config key ({@code http} section): seconds a request may take from its headers to its answer. */
  public static final String REQUEST_TIMEOUT = "request-timeout-seconds";
  /** Config key ({@code http} section): API requests in progress on a node beyond which requests get 503. */
  public static final String MAX_IN_FLIGHT = "max-in-flight";
  // the SockJS bridge's transports hold requests open by design (streaming, long polling)
  private static final String BRIDGE_PREFIX = "/eventbus/";

  private ApiRouter() {
  }

  private static boolean isStreamed(OpenAPIContract contract, RoutingContext rc, Set<String> streamed) {
    String path = rc.normalizedPath();
    Operation op = contract.findOperation(path, rc.request().method());
    // the router serves "/a/b/" on the route of "/a/b" (as BearerAuth, which looks up operations the same way)
    while (op == null && path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
      op = contract.findOperation(path, rc.request().method());
    }
    return op != null && streamed.contains(op.getOperationId());
  }

  /** The router; operations without a handler answer 501 problem+json. */
  public static Router create(Vertx vertx, OpenAPIContract parsed, Platform platform, List<ApiRoutes> groups) {
    return create(vertx, parsed, platform, groups, null);
  }

  /**
   * The router, with {@code connections} (may be null) starting the header deadline of keep-alive connections. Every
   * request but the bridge's and streamed uploads (which have their own transfer deadlines) has a deadline of
   * {@code http.request-timeout-seconds}; API requests beyond {@code http.max-in-flight} on the node are refused.
   *
   * <p>Why one long method: it lays out the handler chain in the order a request passes it (ids, log, deadlines,
   * CORS, security headers, the in-flight limit, bodies, authentication, the domains' routes, failures), and that
   * order is the point of reading it.
   */
  public static Router create(Vertx vertx, OpenAPIContract parsed, Platform platform, List<ApiRoutes> groups,
                              ConnectionGuard connections) {
    OpenAPIContract contract = ValidatorCache.wrap(parsed);
    JsonObject http = platform.config().section("http");
    RouterBuilder builder = RouterBuilder.create(vertx, contract, RequestExtractor.withBodyHandler());
    // first: the access log line and any problem body carry the id
    builder.rootHandler(new RequestIds());
    if (http.getBoolean("access-log", true)) {
      builder.rootHandler(new AccessLog());
    }
    if (connections != null) {
      builder.rootHandler(connections.keepAliveDeadline());
    }
    Set<String> streamed = new java.util.HashSet<>();
    contract.operations().forEach(op -> {
      if (Boolean.TRUE.equals(op.getExtensions().get(STREAMED_BODY))) {
        streamed.add(op.getOperationId());
      }
    });
    builder.rootHandler(new RequestDeadline(http.getLong(REQUEST_TIMEOUT, 10L) * 1000, rc ->
        rc.normalizedPath().startsWith(BRIDGE_PREFIX) || (!streamed.isEmpty()
            && rc.normalizedPath().startsWith(API_PREFIX) && isStreamed(contract, rc, streamed))));
    // Vert.x Web runs handlers by kind: platform (access log), security policy (CORS, headers), body, user.
    List<String> origins = http.getJsonArray("cors-origins", new io.vertx.core.json.JsonArray()).stream()
        .map(String::valueOf).toList();
    if (!origins.isEmpty()) {
      builder.rootHandler(CorsHandler.create()
          .addOrigins(origins)
          .allowedMethods(Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
              HttpMethod.DELETE, HttpMethod.OPTIONS))
          .allowedHeaders(Set.of("Authorization", "Content-Type", "Accept", RequestIds.HEADER))
          .exposedHeaders(Set.of("Retry-After", "WWW-Authenticate", RequestIds.HEADER))
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
    // only API paths get this body handler: the SockJS bridge mounts its own, limited to bridge.max-frame.
    // Operations marked STREAMED_BODY in the contract (media uploads) read their body themselves, as a stream under
    // their own limits: their request stays paused until their handler reads it.
    // after CORS and the security headers (a refusal carries them too), before the body is read
    builder.rootHandler(new InFlightLimit(vertx, http.getInteger(MAX_IN_FLIGHT, 512),
        rc -> rc.normalizedPath().startsWith(API_PREFIX)));
    builder.rootHandler(rc -> {
      if (!rc.normalizedPath().startsWith(API_PREFIX)) {
        rc.next();
      } else if (!streamed.isEmpty() && isStreamed(contract, rc, streamed)) {
        HttpServerRequest request = rc.request();
        request.pause();
        // answered before the whole body was read (refused by authentication or by the domain): the rest is
        // discarded rather than left to stall the connection, which closes with the answer
        rc.addHeadersEndHandler(v -> {
          if (!request.isEnded()) {
            rc.response().putHeader("Connection", "close");
          }
        });
        rc.addEndHandler(v -> {
          if (!request.isEnded()) {
            request.handler(ignored -> { });
            request.exceptionHandler(ignored -> { });
            request.resume();
          }
        });
        rc.next();
      } else {
        body.handle(rc);
      }
    });
    builder.rootHandler(new BearerAuth(contract, platform.sessions()));
    builder.rootHandler(new ApiKeyAuth(contract, io.kith.push.api.ApiKeysService.proxy(vertx)));

    // before the domain handlers: an undeclared query parameter is refused, not ignored
    builder.getRoutes().forEach(route -> route.addHandler(QueryParameters.of(route.getOperation())));
    for (ApiRoutes group : groups) {
      group.mount(builder);
    }
    for (OpenAPIRoute route : builder.getRoutes()) {
      // BearerAuth (a root handler) already authenticated; the builder's own security step is not used
      route.setDoSecurity(false);
      if (streamed.contains(route.getOperation().getOperationId())) {
        // the contract validator would read the body; these operations validate their input themselves
        route.setDoValidation(false);
      }
      if (route.getHandlers().size() == 1) { // only the query parameter check: no route group handles it
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
