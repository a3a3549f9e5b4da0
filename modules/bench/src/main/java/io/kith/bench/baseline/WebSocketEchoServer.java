package io.kith.bench.baseline;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;

/**
 * The baseline of the bridge scenarios: a plain Vert.x WebSocket server that writes every message it receives back
 * to its sender, unchanged. Nothing is parsed, checked or routed, so a round trip through it is the floor of any
 * request over a WebSocket on the same machine: the client's framing and the server's network I/O on Vert.x and
 * Netty, and nothing else.
 *
 * <p>It runs on a Vert.x instance of its own, listening on loopback, with {@code instances} verticles (event loops),
 * like the gateway's {@code http.instances} (one per core by default), and the gateway's frame limits.
 */
public final class WebSocketEchoServer {

  private final LoopbackServer server;

  private WebSocketEchoServer(LoopbackServer server) {
    this.server = server;
  }

  /** One echo server verticle; all instances share the port. */
  private static final class EchoVerticle extends VerticleBase {
    private final int port;
    private final int maxFrame;

    EchoVerticle(int port, int maxFrame) {
      this.port = port;
      this.maxFrame = maxFrame;
    }

    @Override
    public Future<?> start() {
      HttpServerOptions options = new HttpServerOptions().setMaxWebSocketFrameSize(maxFrame)
          .setMaxWebSocketMessageSize(maxFrame);
      return vertx.createHttpServer(options)
          .webSocketHandler(ws -> {
            ws.textMessageHandler(ws::writeTextMessage);
            ws.binaryMessageHandler(ws::writeBinaryMessage);
          })
          .listen(port, "127.0.0.1");
    }
  }

  /**
   * Starts the server on a free loopback port.
   *
   * @param instances event loops (verticle instances) serving it
   * @param maxFrame  largest WebSocket frame and message accepted, in bytes
   */
  public static Future<WebSocketEchoServer> start(int instances, int maxFrame) {
    return LoopbackServer.start("WebSocket echo server", instances, port -> new EchoVerticle(port, maxFrame))
        .map(WebSocketEchoServer::new);
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
