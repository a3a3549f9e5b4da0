package io.kith.bench;

import io.kith.platform.store.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;

import java.util.concurrent.TimeUnit;

/**
 * A stand-in for Kith's public surface as the bench uses it (ping, whoami, SockJS and TCP bridges answering
 * {@code kith.bridge.whoami}), built from the same Vert.x pieces, so the command line, the clients and the report can
 * be tested end to end without the app. It knows one token.
 */
final class FakeKith implements AutoCloseable {

  static final String TOKEN = "fake-access-token";
  static final long USER = 42;

  private final Vertx vertx;
  private final HttpServer http;
  private final int tcpPort;

  private FakeKith(Vertx vertx, HttpServer http, int tcpPort) {
    this.vertx = vertx;
    this.http = http;
    this.tcpPort = tcpPort;
  }

  static FakeKith start() throws Exception {
    Vertx vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.get("/api/v1/ping").handler(ctx -> ctx.json(new JsonObject().put("pong", true)
        .put("time", System.currentTimeMillis())));
    router.get("/api/v1/whoami").handler(ctx -> {
      if (("Bearer " + TOKEN).equals(ctx.request().getHeader("Authorization"))) {
        ctx.json(new JsonObject().put("user_id", USER));
      } else {
        ctx.response().setStatusCode(401).putHeader("content-type", "application/problem+json")
            .end(new JsonObject().put("status", 401).encode());
      }
    });
    PermittedOptions whoami = new PermittedOptions().setAddress("kith.bridge.whoami");
    router.route("/eventbus/*").subRouter(SockJSHandler.create(vertx)
        .bridge(new SockJSBridgeOptions().addInboundPermitted(whoami)));
    vertx.eventBus().<JsonObject>consumer("kith.bridge.whoami", msg -> {
      if (("Bearer " + TOKEN).equals(msg.headers().get("authorization"))) {
        msg.reply(new JsonObject().put("user_id", USER));
      } else {
        msg.fail(401, "the bearer token is missing or invalid");
      }
    });
    HttpServer http = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
        .await(10, TimeUnit.SECONDS);
    int tcpPort = FreePorts.pick();
    TcpEventBusBridge.create(vertx, new BridgeOptions().addInboundPermitted(whoami))
        .listen(tcpPort, "127.0.0.1").await(10, TimeUnit.SECONDS);
    return new FakeKith(vertx, http, tcpPort);
  }

  String url() {
    return "http://127.0.0.1:" + http.actualPort();
  }

  int tcpPort() {
    return tcpPort;
  }

  @Override
  public void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }
}
