package io.kith.gateway;

import io.kith.gateway.bridge.BridgeGuard;
import io.kith.gateway.bridge.ClusterResync;
import io.kith.gateway.bridge.Bridges;
import io.kith.gateway.bridge.ConnectionListener;
import io.kith.gateway.bridge.RoomAccess;
import io.kith.gateway.douyin.DouyinRoutes;
import io.kith.gateway.http.ApiDocs;
import io.kith.gateway.http.ApiRouter;
import io.kith.gateway.http.ApiRoutes;
import io.kith.gateway.http.ConnectionGuard;
import io.kith.gateway.http.Console;
import io.kith.gateway.http.ContractDocument;
import io.kith.gateway.http.HealthRoutes;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.metrics.KithMetrics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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
 * listens. On undeploy the bridge connections are closed (clients reconnect to another node) and the HTTP server
 * drains in-flight requests for up to {@code kith.shutdown-grace-seconds}.
 */
public final class GatewayVerticle extends VerticleBase {

  /** Classpath location of the API contract. */
  public static final String CONTRACT = "openapi.yaml";
  /** Local shared-data map where the gateway records its actual ports. */
  public static final String PORTS_MAP = "kith.gateway.ports";
  /** Config key ({@code http} section): seconds a connection may take to send complete request headers. */
  public static final String HEADER_TIMEOUT = "header-timeout-seconds";
  /** Config key ({@code http} section): seconds without any traffic after which a connection is closed. */
  public static final String IDLE_TIMEOUT = "idle-seconds";

  private final Platform platform;
  private final List<ApiRoutes> routes;
  private final RoomAccess rooms;
  private final ConnectionListener listener;
  private final Contract preloaded;
  private HttpServer server;
  private long heartbeat = -1;
  private TcpEventBusBridge tcp;
  private BridgeGuard guard;
  private MessageConsumer<Object> whoami;
  private List<Runnable> unmetered = List.of();

  /** The parsed API contract and its text (parsed once per node, shared by the verticle instances). */
  public record Contract(Buffer text, OpenAPIContract contract) {
  }

  /** Reads and parses the API contract. */
  public static Future<Contract> loadContract(Vertx vertx) {
    return vertx.fileSystem().readFile(CONTRACT)
        .compose(text -> ContractDocument.parse(vertx, text).map(c -> new Contract(text, c)));
  }

  /** Creates the verticle with the route groups it mounts; it loads the contract itself and reports no presence. */
  public GatewayVerticle(Platform platform, List<ApiRoutes> routes, RoomAccess rooms) {
    this(platform, routes, rooms, ConnectionListener.NONE, null);
  }

  /**
   * Creates the verticle.
   *
   * @param listener  told about bridge connections (presence)
   * @param preloaded the parsed contract, or null to load it at start
   */
  public GatewayVerticle(Platform platform, List<ApiRoutes> routes, RoomAccess rooms, ConnectionListener listener,
                         Contract preloaded) {
    this.platform = platform;
    this.routes = routes;
    this.rooms = rooms;
    this.listener = listener;
    this.preloaded = preloaded;
  }

  /**
   * Starts the bridge guard, the router and the HTTP server, then the TCP bridge. Why one long method: it only wires,
   * in start order, and the server's options (deadlines, frame limits, no deflate) belong beside the server they set.
   */
  @Override
  public Future<?> start() {
    JsonObject http = platform.config().section("http");
    JsonObject bridge = platform.config().section("bridge");
    List<String> inbound = bridge.getJsonArray("inbound", new JsonArray()).stream().map(String::valueOf).toList();
    guard = new BridgeGuard(vertx, platform.sessions(), inbound, rooms, listener);
    long every = bridge.getLong("presence-heartbeat-seconds", 20L) * 1000;
    heartbeat = vertx.setPeriodic(every, every, id -> guard.heartbeat());
    // each gateway instance holds some of the node's connections: the node's gauges add them up
    BridgeGuard counted = guard;
    unmetered = List.of(
        platform.metrics().addToGauge(KithMetrics.BRIDGE_CONNECTIONS, "Bridge connections open on this node",
            counted::connectionCount),
        platform.metrics().addToGauge(KithMetrics.ONLINE_USERS, "Users with a bridge connection on this node",
            counted::userCount));
    ClusterResync.install(vertx, platform.membership(), guard);
    whoami = vertx.eventBus().consumer(Addresses.BRIDGE_WHOAMI, msg -> {
      String sender = msg.headers().get(Addresses.SENDER_HEADER);
      msg.reply(new JsonObject().put("user_id", sender == null ? null : Long.parseLong(sender)));
    });
    Future<Contract> contract = preloaded != null ? Future.succeededFuture(preloaded) : loadContract(vertx);
    ConnectionGuard connections = new ConnectionGuard(vertx, http.getLong(HEADER_TIMEOUT, 10L) * 1000,
        http.getLong(IDLE_TIMEOUT, 120L) * 1000);
    boolean console = Console.enabled(platform.config().section(Console.SECTION));
    return contract
        .compose(loaded -> Future.all(ApiDocs.load(vertx), console ? Console.load(vertx) : Future.succeededFuture())
            .map(pages -> {
          Router router = ApiRouter.create(vertx, loaded.contract(), platform, routes, connections);
          pages.<ApiDocs>resultAt(0).mount(router, loaded.text());
          if (console) {
            pages.<Console>resultAt(1).mount(router);
          }
          HealthRoutes.mount(router, platform);
          Bridges.mountSockJs(vertx, router, guard, bridge);
          DouyinRoutes.mount(vertx, platform, router);
          return router;
        }))
        .compose(router -> {
          HttpServerOptions options = new HttpServerOptions()
              .setCompressionSupported(true)
              .setIdleTimeout(http.getInteger(IDLE_TIMEOUT, 120))
              // with cleartext HTTP/2 detection on, Vert.x makes the connection (and calls the connection handler that
              // starts the header deadline) only once the first request's headers are complete; HTTP/2 is served
              // over TLS (ALPN) by the proxy in front, so a slow first request must not escape the header deadline
              .setHttp2ClearTextEnabled(false)
              .setMaxWebSocketFrameSize(bridge.getInteger("max-frame", 65_536))
              .setMaxWebSocketMessageSize(bridge.getInteger("max-frame", 65_536))
              // no WebSocket deflate: the frame limit counts compressed bytes and inflating a bomb stalls the loop
              .setPerMessageWebSocketCompressionSupported(false).setPerFrameWebSocketCompressionSupported(false);
          server = vertx.createHttpServer(options)
              .connectionHandler(connections::opened)
              .invalidRequestHandler(connections::invalid)
              .requestHandler(request -> {
                connections.headersRead(request);
                router.handle(request);
              });
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
    if (heartbeat >= 0) {
      vertx.cancelTimer(heartbeat);
    }
    unmetered.forEach(Runnable::run);
    if (guard != null) {
      // bridge connections are not in-flight requests: left open, they would hold the drain for the whole grace
      guard.closeAll();
    }
    Future<Void> http = server == null ? Future.succeededFuture() : server.shutdown(grace, TimeUnit.SECONDS);
    return http
        .eventually(() -> tcp == null ? Future.succeededFuture() : tcp.close())
        .eventually(() -> guard == null ? Future.succeededFuture() : guard.close())
        .eventually(() -> whoami == null ? Future.succeededFuture() : whoami.unregister());
  }
}
