package io.kith.gateway;

import io.kith.gateway.bridge.BridgeGuard;
import io.kith.gateway.bridge.Bridges;
import io.kith.gateway.bridge.RoomAccess;
import io.kith.gateway.http.ApiRouter;
import io.kith.gateway.http.ApiRoutes;
import io.kith.gateway.http.HealthRoutes;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.openapi.contract.OpenAPIContract;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The gateway verticle: wires the contract router, the operational endpoints and both event-bus bridges, then
 * listens. On undeploy the HTTP server drains in-flight requests for {@code kith.shutdown-grace-seconds}.
 */
public final class GatewayVerticle extends VerticleBase {

  /** Classpath location of the API contract. */
  public static final String CONTRACT = "openapi.yaml";
  /** Local shared-data map where the gateway records its actual ports. */
  public static final String PORTS_MAP = "kith.gateway.ports";

  private final Platform platform;
  private final List<ApiRoutes> routes;
  private final RoomAccess rooms;
  private HttpServer server;
  private TcpEventBusBridge tcp;
  private BridgeGuard guard;
  private MessageConsumer<Object> whoami;

  /** Creates the verticle with the route groups it mounts. */
  public GatewayVerticle(Platform platform, List<ApiRoutes> routes, RoomAccess rooms) {
    this.platform = platform;
    this.routes = routes;
    this.rooms = rooms;
  }

  @Override
  public Future<?> start() {
    JsonObject http = platform.config().section("http");
    JsonObject bridge = platform.config().section("bridge");
    List<String> inbound = bridge.getJsonArray("inbound", new JsonArray()).stream().map(String::valueOf).toList();
    guard = new BridgeGuard(vertx, platform.sessions(), inbound, rooms);
    whoami = vertx.eventBus().consumer(Addresses.BRIDGE_WHOAMI, msg -> {
      String sender = msg.headers().get(Addresses.SENDER_HEADER);
      msg.reply(new JsonObject().put("user_id", sender == null ? null : Long.parseLong(sender)));
    });
    return vertx.fileSystem().readFile(CONTRACT)
        .compose(contractText -> OpenAPIContract.from(vertx, CONTRACT).map(contract -> {
          Router router = ApiRouter.create(vertx, contract, platform, routes);
          router.get("/api/v1/openapi.yaml").handler(rc -> rc.response()
              .putHeader("Content-Type", "application/yaml; charset=utf-8")
              .end(contractText));
          HealthRoutes.mount(router, platform);
          Bridges.mountSockJs(vertx, router, guard, bridge);
          return router;
        }))
        .compose(router -> {
          HttpServerOptions options = new HttpServerOptions()
              .setCompressionSupported(true)
              .setIdleTimeout(http.getInteger("idle-seconds", 120))
              .setMaxWebSocketFrameSize(bridge.getInteger("max-frame", 65_536))
              .setMaxWebSocketMessageSize(bridge.getInteger("max-frame", 65_536));
          server = vertx.createHttpServer(options).requestHandler(router);
          return server.listen(http.getInteger("port", 8080), http.getString("host", "0.0.0.0"));
        })
        .compose(s -> {
          vertx.sharedData().getLocalMap(PORTS_MAP).put("http", s.actualPort());
          return Bridges.startTcp(vertx, guard, bridge);
        })
        .compose(t -> {
          tcp = t;
          if (t != null) {
            vertx.sharedData().getLocalMap(PORTS_MAP).put("tcp", bridge.getInteger("tcp-port"));
          }
          return whoami.completion();
        });
  }

  @Override
  public Future<?> stop() {
    long grace = platform.config().section("kith").getLong("shutdown-grace-seconds", 10L);
    Future<Void> http = server == null ? Future.succeededFuture() : server.shutdown(grace, TimeUnit.SECONDS);
    return http
        .eventually(() -> tcp == null ? Future.succeededFuture() : tcp.close())
        .eventually(() -> guard == null ? Future.succeededFuture() : guard.close())
        .eventually(() -> whoami == null ? Future.succeededFuture() : whoami.unregister());
  }
}
