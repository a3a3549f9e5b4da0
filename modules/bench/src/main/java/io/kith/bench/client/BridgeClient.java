package io.kith.bench.client;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import io.vertx.core.Handler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Request/reply over Kith's event-bus bridge, on a fixed set of connections used round-robin, and pushes to the
 * addresses a connection registered on.
 *
 * <p>Each request is a {@code send} frame with a fresh reply address and the bearer token in its headers (the first
 * such frame binds a connection to the user, as with the official JavaScript client's default headers); the future
 * completes with the body of the {@code rec} frame sent to that reply address, or fails on an {@code err} frame.
 * An {@code err} that names no address fails the oldest outstanding request of its connection. Connections send a
 * {@code ping} every few seconds so the bridge keeps them open.
 *
 * <p>All connections may carry the same token ({@link #create}) or each its own ({@link #perUser}, one user per
 * connection, as many users' devices would be). A connection can {@link #register} on an address (its user's
 * {@code kith.user.<id>}); messages arriving there go to the handler given with the registration.
 */
public final class BridgeClient {

  /** How the bridge is reached. */
  public enum Transport {
    /** SockJS's raw WebSocket endpoint, {@code /eventbus/websocket} on the HTTP port. */
    WEBSOCKET,
    /** The TCP bridge: length-prefixed JSON frames on the bridge's own port. */
    TCP
  }

  /** SockJS raw WebSocket path of the bridge. */
  public static final String WEBSOCKET_PATH = "/eventbus/websocket";
  private static final Logger LOG = LoggerFactory.getLogger(BridgeClient.class);
  private static final long PING_MILLIS = 5_000;

  private final Vertx vertx;
  private final Target target;
  private final Transport transport;
  private final List<String> tokens;
  private final long timeoutMillis;
  // Held for the client's whole life: Vert.x 5 shuts a WebSocket or Net client down once it is no longer
  // reachable, even in the middle of a handshake.
  private final WebSocketClient webSocketClient;
  private final NetClient netClient;
  private final ConnectionSet<Connection> connections = new ConnectionSet<>("the bridge client");

  private BridgeClient(Vertx vertx, Target target, Transport transport, List<String> tokens, long timeoutMillis) {
    if (tokens.isEmpty()) {
      throw new IllegalArgumentException("a bridge client needs at least one connection");
    }
    this.vertx = vertx;
    this.target = target;
    this.transport = transport;
    // a null token (no credential) is allowed, which List.copyOf would refuse
    this.tokens = Collections.unmodifiableList(new ArrayList<>(tokens));
    this.timeoutMillis = timeoutMillis;
    if (transport == Transport.WEBSOCKET) {
      this.webSocketClient = vertx.createWebSocketClient(new WebSocketClientOptions()
          .setSsl(target.ssl()).setMaxConnections(tokens.size()));
      this.netClient = null;
    } else {
      this.webSocketClient = null;
      this.netClient = vertx.createNetClient(new NetClientOptions().setSsl(target.ssl()).setTcpNoDelay(true)
          .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis)));
    }
  }

  /**
   * A client that will open {@code count} connections to the bridge of {@code target}, each sending
   * {@code bearerToken} with every request; nothing is connected until {@link #open()}. Call it on the context the
   * load runner uses.
   */
  public static BridgeClient create(Vertx vertx, Target target, Transport transport, int count, String bearerToken,
                                    long timeoutMillis) {
    return new BridgeClient(vertx, target, transport, Collections.nCopies(count, bearerToken), timeoutMillis);
  }

  /**
   * A client that will open one connection per token, connection {@code i} sending {@code bearerTokens.get(i)} with
   * every frame (so each belongs to that token's user); nothing is connected until {@link #open()}.
   */
  public static BridgeClient perUser(Vertx vertx, Target target, Transport transport, List<String> bearerTokens,
                                     long timeoutMillis) {
    return new BridgeClient(vertx, target, transport, bearerTokens, timeoutMillis);
  }

  /**
   * Opens the connections, at most {@value ConnectionSet#OPEN_CONCURRENCY} handshakes at a time. Fails if any cannot
   * be opened within the timeout (the ones that were are closed), or when the TCP bridge port of the target is unknown.
   */
  public Future<BridgeClient> open() {
    if (transport == Transport.TCP && target.tcpBridgePort() <= 0) {
      return Future.failedFuture(new IllegalArgumentException("the TCP bridge port of the target is not known"));
    }
    return connections.open(tokens.size(), this::connect, Connection::close)
        .map(this)
        .recover(failure -> Future.failedFuture(new IllegalStateException("cannot open "
            + transport.name().toLowerCase() + " bridge connections to " + target.baseUrl() + ": "
            + failure.getMessage(), failure)));
  }

  /** Opens connection {@code i}, which carries token {@code i}. */
  private Future<Connection> connect(int i) {
    String token = tokens.get(i);
    if (transport == Transport.WEBSOCKET) {
      WebSocketConnectOptions options = new WebSocketConnectOptions()
          .setHost(target.host()).setPort(target.port()).setSsl(target.ssl()).setURI(WEBSOCKET_PATH)
          .setTimeout(timeoutMillis);
      return webSocketClient.connect(options).map(ws -> new WebSocketConnection(vertx, ws, token));
    }
    return netClient.connect(target.tcpBridgePort(), target.host())
        .map(socket -> new TcpConnection(vertx, socket, token));
  }

  /** How many connections the client has (once open). */
  public int size() {
    return connections.size();
  }

  /** How many of the connections are still open (not closed by the server, a failure or {@link #close()}). */
  public int openConnections() {
    return connections.count(c -> c.closedReason == null);
  }

  /** Sends {@code body} to {@code address} on the next connection in turn and completes with the reply's body. */
  public Future<JsonObject> request(String address, JsonObject body) {
    return connections.next().compose(c -> c.request(address, body));
  }

  /** Sends {@code body} to {@code address} on connection {@code index} and completes with the reply's body. */
  public Future<JsonObject> request(int index, String address, JsonObject body) {
    return connections.get(index).compose(c -> c.request(address, body));
  }

  /**
   * Registers connection {@code index} on {@code address}: the body of every message arriving there is handed to
   * {@code onMessage}, on the connection's context. The bridge does not acknowledge a registration, so the returned
   * future only says the frame was written; a refusal arrives as an {@code err} frame (logged, or failing the
   * oldest outstanding request of the connection).
   */
  public Future<Void> register(int index, String address, Handler<JsonObject> onMessage) {
    return connections.get(index).compose(c -> c.register(address, onMessage));
  }

  /** Closes every connection. */
  public Future<Void> close() {
    connections.closeAll(Connection::close);
    return webSocketClient != null ? webSocketClient.close() : netClient.close();
  }

  /** One bridge connection: frame I/O is left to the transport. */
  private abstract static class Connection {
    private final Vertx vertx;
    private final String token;
    // The SockJS bridge refuses reply addresses longer than 36 characters (the JavaScript client uses UUIDs), so a
    // short random prefix per connection plus a base-36 counter: at most 10 + 1 + 13 characters.
    private final String replyPrefix = Long.toString(ThreadLocalRandom.current().nextLong() >>> 16, 36) + ".";
    // Insertion-ordered so that an err frame without an address can fail the oldest request.
    private final Map<String, Promise<JsonObject>> pending = new LinkedHashMap<>();
    /** Handlers of the addresses this connection registered on. */
    private final Map<String, Handler<JsonObject>> listeners = new HashMap<>();
    private final long pingTimer;
    private long sequence;
    private String closedReason;

    Connection(Vertx vertx, String token) {
      this.vertx = vertx;
      this.token = token;
      this.pingTimer = vertx.setPeriodic(PING_MILLIS, id -> {
        if (closedReason == null) {
          write(BridgeFrames.ping());
        }
      });
    }

    abstract Future<Void> write(JsonObject frame);

    abstract void closeTransport();

    Future<JsonObject> request(String address, JsonObject body) {
      if (closedReason != null) {
        return Future.failedFuture(closedReason);
      }
      String replyAddress = replyPrefix + Long.toString(sequence++, 36);
      Promise<JsonObject> promise = Promise.promise();
      pending.put(replyAddress, promise);
      write(BridgeFrames.send(address, replyAddress, token, body));
      return promise.future();
    }

    Future<Void> register(String address, Handler<JsonObject> onMessage) {
      if (closedReason != null) {
        return Future.failedFuture(closedReason);
      }
      listeners.put(address, onMessage);
      return write(BridgeFrames.register(address, token));
    }

    void onFrame(JsonObject frame) {
      String type = frame.getString("type", "");
      String address = frame.getString("address");
      // SockJS delivers replies as "rec", the TCP bridge as "message".
      if (type.equals("rec") || type.equals("message")) {
        Promise<JsonObject> promise = address == null ? null : pending.remove(address);
        Object raw = frame.getValue("body");
        JsonObject body = raw instanceof JsonObject ? (JsonObject) raw : new JsonObject().put("value", raw);
        if (promise != null) {
          promise.complete(body);
        } else if (address != null) {
          Handler<JsonObject> listener = listeners.get(address);
          if (listener != null) {
            listener.handle(body);
          }
        }
      } else if (type.equals("err")) {
        Promise<JsonObject> promise = address == null ? null : pending.remove(address);
        if (promise == null) {
          Iterator<Promise<JsonObject>> oldest = pending.values().iterator();
          if (oldest.hasNext()) {
            promise = oldest.next();
            oldest.remove();
          }
        }
        String message = "bridge error: " + frame.getValue("message", frame.getValue("body", "unknown"))
            + (frame.containsKey("failureCode") ? " (code " + frame.getValue("failureCode") + ")" : "");
        if (promise != null) {
          promise.fail(message);
        } else {
          LOG.warn("{} with no request outstanding", message);
        }
      }
    }

    void onClosed(String reason) {
      if (closedReason != null) {
        return;
      }
      closedReason = reason;
      vertx.cancelTimer(pingTimer);
      List<Promise<JsonObject>> failed = new ArrayList<>(pending.values());
      pending.clear();
      failed.forEach(p -> p.fail(reason));
    }

    void close() {
      onClosed("bridge connection closed by the bench");
      closeTransport();
    }
  }

  /** A SockJS raw WebSocket connection: one JSON frame per message. */
  private static final class WebSocketConnection extends Connection {
    private final WebSocket socket;

    WebSocketConnection(Vertx vertx, WebSocket socket, String token) {
      super(vertx, token);
      this.socket = socket;
      // SockJS's raw WebSocket transport answers with binary messages; accept text ones as well.
      socket.textMessageHandler(text -> parse(text, this::onFrame));
      socket.binaryMessageHandler(bytes -> parse(bytes.toString(StandardCharsets.UTF_8), this::onFrame));
      socket.closeHandler(v -> onClosed("bridge WebSocket closed by the server"));
      socket.exceptionHandler(e -> onClosed("bridge WebSocket failed: " + e.getMessage()));
    }

    @Override
    Future<Void> write(JsonObject frame) {
      return socket.writeTextMessage(frame.encode());
    }

    @Override
    void closeTransport() {
      socket.close();
    }

    private static void parse(String text, Consumer<JsonObject> onFrame) {
      try {
        onFrame.accept(new JsonObject(text));
      } catch (RuntimeException e) {
        LOG.warn("ignoring a bridge message that is not a JSON object: {}", e.getMessage());
      }
    }
  }

  /** A TCP bridge connection: length-prefixed JSON frames. */
  private static final class TcpConnection extends Connection {
    private final NetSocket socket;

    TcpConnection(Vertx vertx, NetSocket socket, String token) {
      super(vertx, token);
      this.socket = socket;
      socket.handler(BridgeFrames.tcpDecoder(this::onFrame, e -> {
        onClosed(e.getMessage());
        socket.close();
      }));
      socket.closeHandler(v -> onClosed("TCP bridge connection closed by the server"));
      socket.exceptionHandler(e -> onClosed("TCP bridge connection failed: " + e.getMessage()));
    }

    @Override
    Future<Void> write(JsonObject frame) {
      return socket.write(BridgeFrames.tcp(frame));
    }

    @Override
    void closeTransport() {
      socket.close();
    }
  }
}
