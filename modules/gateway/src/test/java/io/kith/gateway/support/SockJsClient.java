package io.kith.gateway.support;

import io.kith.platform.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

/** A raw WebSocket to the SockJS bridge ({@code /eventbus/websocket}), which speaks plain JSON frames. */
public final class SockJsClient extends BridgeClient {

  private final WebSocketClient client;
  private final WebSocket socket;

  private SockJsClient(Vertx vertx, WebSocketClient client, WebSocket socket) {
    super(vertx);
    this.client = client;
    this.socket = socket;
    socket.handler(buffer -> received(new JsonObject(buffer)));
    socket.closeHandler(v -> markClosed());
  }

  /** Connects to the gateway's SockJS WebSocket endpoint; {@code query} (may be null) is appended to the URI. */
  public static SockJsClient connect(Vertx vertx, int port, String query) {
    WebSocketClient client = vertx.createWebSocketClient();
    String uri = "/eventbus/websocket" + (query == null ? "" : "?" + query);
    WebSocket socket = Await.result(client.connect(new WebSocketConnectOptions()
        .setHost("localhost").setPort(port).setURI(uri)));
    return new SockJsClient(vertx, client, socket);
  }

  @Override
  public void write(JsonObject frame) {
    socket.writeTextMessage(frame.encode());
  }

  @Override
  public String deliveryType() {
    return "rec";
  }

  @Override
  public String errorOf(JsonObject errFrame) {
    return errFrame.getString("body");
  }

  @Override
  protected Future<Void> closeConnection() {
    return socket.close().eventually(client::close);
  }
}
