package io.kith.bench.baseline;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;

/**
 * A ceiling for read routes: a plain Vert.x HTTP server that answers every request with the same bytes, given once
 * (a page a read route really returned). No token check, no routing, no validation, no service, no store, and the
 * body is not even encoded: a request to it costs the HTTP exchange of those bytes and nothing else. No route that
 * returns the same page can be faster on the same machine, so its throughput bounds any implementation of that route.
 *
 * <p>It runs on a Vert.x instance of its own, listening on loopback, with {@code instances} verticles (event loops),
 * like the gateway's {@code http.instances}.
 */
public final class StaticPageServer {

  private final LoopbackServer server;

  private StaticPageServer(LoopbackServer server) {
    this.server = server;
  }

  /** One server verticle; all instances share the port. */
  private static final class PageVerticle extends VerticleBase {
    private final int port;
    private final Buffer page;

    PageVerticle(int port, Buffer page) {
      this.port = port;
      this.page = page;
    }

    @Override
    public Future<?> start() {
      return vertx.createHttpServer()
          .requestHandler(req -> req.response().putHeader("Content-Type", "application/json").end(page))
          .listen(port, "127.0.0.1");
    }
  }

  /**
   * Starts the server on a free loopback port.
   *
   * @param instances event loops (verticle instances) serving it
   * @param page      the response body of every request
   */
  public static Future<StaticPageServer> start(int instances, Buffer page) {
    return LoopbackServer.start("static page server", instances, port -> new PageVerticle(port, page.copy()))
        .map(StaticPageServer::new);
  }

  /** The loopback port it listens on. */
  public int port() {
    return server.port();
  }

  /** Stops the server and its Vert.x instance. */
  public Future<Void> close() {
    return server.close();
  }
}
