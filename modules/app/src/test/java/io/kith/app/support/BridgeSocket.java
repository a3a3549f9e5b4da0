package io.kith.app.support;

import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A client of the SockJS event-bus bridge over its raw WebSocket endpoint ({@code /eventbus/websocket}), which
 * speaks the Vert.x bridge JSON frames as plain text messages. Frames from the server are kept in arrival order;
 * a test takes the ones it expects, waiting with a deadline.
 */
public final class BridgeSocket implements AutoCloseable {

  private final Vertx vertx;
  private final WebSocketClient client;
  private final WebSocket socket;
  private final List<JsonObject> inbox = new ArrayList<>();
  private volatile boolean closed;

  private BridgeSocket(Vertx vertx, WebSocketClient client, WebSocket socket) {
    this.vertx = vertx;
    this.client = client;
    this.socket = socket;
    // the bridge may write its frames as binary or text WebSocket messages: take both
    socket.handler(buffer -> {
      synchronized (inbox) {
        inbox.add(new JsonObject(buffer));
      }
    });
    socket.closeHandler(v -> closed = true);
  }

  /** Opens a connection; {@code query} (may be null) is appended to the URI. */
  public static BridgeSocket connect(Vertx vertx, int port, String query) {
    WebSocketClient client = vertx.createWebSocketClient();
    String uri = "/eventbus/websocket" + (query == null ? "" : "?" + query);
    WebSocket socket = Await.result(client.connect(new WebSocketConnectOptions()
        .setHost("127.0.0.1").setPort(port).setURI(uri)));
    return new BridgeSocket(vertx, client, socket);
  }

  /** Registers on {@code address}, authenticating the frame with {@code accessToken} when not null. */
  public void register(String address, String accessToken) {
    JsonObject frame = new JsonObject().put("type", "register").put("address", address);
    if (accessToken != null) {
      frame.put("headers", new JsonObject().put("authorization", "Bearer " + accessToken));
    }
    socket.writeTextMessage(frame.encode());
  }

  /**
   * Sends {@code body} to {@code address} expecting a reply on {@code replyAddress} (at most 36 characters, which the
   * bridge requires: a UUID); {@code headers} (may be null) are
   * sent as given, with the authorization header added when {@code accessToken} is not null.
   */
  public void send(String address, JsonObject body, String replyAddress, String accessToken, JsonObject headers) {
    JsonObject h = headers == null ? new JsonObject() : headers.copy();
    if (accessToken != null) {
      h.put("authorization", "Bearer " + accessToken);
    }
    JsonObject frame = new JsonObject().put("type", "send").put("address", address).put("body", body)
        .put("replyAddress", replyAddress).put("headers", h);
    socket.writeTextMessage(frame.encode());
  }

  /** Waits for the reply (or failure) frame to {@code replyAddress}. */
  public JsonObject takeReply(String replyAddress, Duration timeout) {
    return take("the reply on " + replyAddress, timeout, f -> replyAddress.equals(f.getString("address")));
  }

  /** Removes and returns the first frame matching {@code match}, waiting for it up to {@code timeout}. */
  public JsonObject take(String what, Duration timeout, Predicate<JsonObject> match) {
    JsonObject[] found = new JsonObject[1];
    Await.result(Poll.until(vertx, timeout, what, () -> {
      synchronized (inbox) {
        for (int i = 0; i < inbox.size(); i++) {
          if (match.test(inbox.get(i))) {
            found[0] = inbox.remove(i);
            return Future.succeededFuture(true);
          }
        }
      }
      return Future.succeededFuture(false);
    }).recover(e -> Future.failedFuture(new AssertionError(e.getMessage() + "; frames received and not taken: "
        + pending() + (closed ? "; the connection is closed" : "")))));
    return found[0];
  }

  /** Waits for a message delivered on {@code address} whose body matches. */
  public JsonObject takeDelivery(String address, Duration timeout, Predicate<JsonObject> body) {
    return take("a message on " + address, timeout, f -> "rec".equals(f.getString("type"))
        && address.equals(f.getString("address")) && f.getValue("body") instanceof JsonObject
        && body.test(f.getJsonObject("body")));
  }

  /** The frames received and not taken yet. */
  public List<JsonObject> pending() {
    synchronized (inbox) {
      return new ArrayList<>(inbox);
    }
  }

  /** Whether the server (or this client) closed the connection. */
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    Await.result(socket.close().eventually(client::close).otherwiseEmpty());
  }
}
