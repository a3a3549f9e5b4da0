package io.kith.bench.client;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The client side of the WebSocket echo baseline: JSON frames written as text messages on a fixed set of
 * connections used round-robin; each request completes with the next message its connection receives, parsed as
 * JSON (an echo server answers in order), so the client does the same framing and JSON work per answer as a bridge
 * client does per frame.
 */
public final class EchoClient {

  private final String host;
  private final int port;
  private final int count;
  private final long timeoutMillis;
  // Held for the client's whole life: Vert.x 5 shuts a WebSocket client down once it is no longer reachable.
  private final WebSocketClient client;
  private final ConnectionSet<Connection> connections = new ConnectionSet<>("the echo client");

  private EchoClient(Vertx vertx, String host, int port, int count, long timeoutMillis) {
    if (count < 1) {
      throw new IllegalArgumentException("an echo client needs at least one connection");
    }
    this.host = host;
    this.port = port;
    this.count = count;
    this.timeoutMillis = timeoutMillis;
    this.client = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(count));
  }

  /** A client that will open {@code count} connections to the echo server at {@code host:port}. */
  public static EchoClient create(Vertx vertx, String host, int port, int count, long timeoutMillis) {
    return new EchoClient(vertx, host, port, count, timeoutMillis);
  }

  /**
   * Opens the connections, at most {@value ConnectionSet#OPEN_CONCURRENCY} handshakes at a time; fails if any cannot
   * be opened (the ones that were are closed).
   */
  public Future<EchoClient> open() {
    return connections.open(count, i -> client.connect(new WebSocketConnectOptions().setHost(host).setPort(port)
            .setURI("/echo").setTimeout(timeoutMillis)).map(Connection::new), Connection::close)
        .map(this)
        .recover(failure -> Future.failedFuture(new IllegalStateException("cannot open WebSocket connections to the "
            + "echo server at " + host + ":" + port + ": " + failure.getMessage(), failure)));
  }

  /** How many connections the client has (once open). */
  public int size() {
    return connections.size();
  }

  /** How many of the connections are still open. */
  public int openConnections() {
    return connections.count(c -> c.closedReason == null);
  }

  /** Writes {@code frame} on the next connection in turn and completes with the message that comes back. */
  public Future<JsonObject> request(JsonObject frame) {
    return connections.next().compose(c -> c.request(frame));
  }

  /** Writes {@code frame} on connection {@code index} and completes with the message that comes back. */
  public Future<JsonObject> request(int index, JsonObject frame) {
    return connections.get(index).compose(c -> c.request(frame));
  }

  /** Closes every connection. */
  public Future<Void> close() {
    connections.closeAll(Connection::close);
    return client.close();
  }

  /** One connection: requests are answered in the order they were written. */
  private static final class Connection {
    private final WebSocket socket;
    private final ArrayDeque<Promise<JsonObject>> pending = new ArrayDeque<>();
    private String closedReason;

    Connection(WebSocket socket) {
      this.socket = socket;
      socket.textMessageHandler(this::onMessage);
      socket.binaryMessageHandler(bytes -> onMessage(bytes.toString(StandardCharsets.UTF_8)));
      socket.closeHandler(v -> onClosed("echo WebSocket closed by the server"));
      socket.exceptionHandler(e -> onClosed("echo WebSocket failed: " + e.getMessage()));
    }

    Future<JsonObject> request(JsonObject frame) {
      if (closedReason != null) {
        return Future.failedFuture(closedReason);
      }
      Promise<JsonObject> promise = Promise.promise();
      pending.addLast(promise);
      socket.writeTextMessage(frame.encode());
      return promise.future();
    }

    private void onMessage(String text) {
      Promise<JsonObject> promise = pending.pollFirst();
      if (promise == null) {
        return;
      }
      try {
        promise.complete(new JsonObject(text));
      } catch (RuntimeException e) {
        promise.fail("the echo is not a JSON object: " + e.getMessage());
      }
    }

    private void onClosed(String reason) {
      if (closedReason != null) {
        return;
      }
      closedReason = reason;
      List<Promise<JsonObject>> failed = new ArrayList<>(pending);
      pending.clear();
      failed.forEach(p -> p.fail(reason));
    }

    void close() {
      onClosed("echo connection closed by the bench");
      socket.close();
    }
  }
}
