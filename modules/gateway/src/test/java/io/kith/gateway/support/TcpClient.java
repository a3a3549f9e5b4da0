package io.kith.gateway.support;

import io.kith.platform.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;

/** A connection to the TCP bridge: each frame is a 4-byte big-endian length followed by that many bytes of JSON. */
public final class TcpClient extends BridgeClient {

  private final NetClient client;
  private final NetSocket socket;
  private Buffer pendingBytes = Buffer.buffer();

  private TcpClient(Vertx vertx, NetClient client, NetSocket socket) {
    super(vertx);
    this.client = client;
    this.socket = socket;
    socket.handler(this::onBytes);
    socket.closeHandler(v -> markClosed());
  }

  /** Connects to the TCP bridge on {@code port}. */
  public static TcpClient connect(Vertx vertx, int port) {
    NetClient client = vertx.createNetClient();
    NetSocket socket = Await.result(client.connect(port, "localhost"));
    return new TcpClient(vertx, client, socket);
  }

  private void onBytes(Buffer bytes) {
    pendingBytes.appendBuffer(bytes);
    while (pendingBytes.length() >= 4) {
      int length = pendingBytes.getInt(0);
      if (pendingBytes.length() < 4 + length) {
        return;
      }
      received(new JsonObject(pendingBytes.getBuffer(4, 4 + length)));
      pendingBytes = pendingBytes.getBuffer(4 + length, pendingBytes.length());
    }
  }

  @Override
  public void write(JsonObject frame) {
    Buffer json = frame.toBuffer();
    socket.write(Buffer.buffer().appendInt(json.length()).appendBuffer(json));
  }

  @Override
  public void writeAll(java.util.List<JsonObject> frames) {
    // one buffer: the server parses all frames in one read, before any of them is decided
    Buffer all = Buffer.buffer();
    for (JsonObject frame : frames) {
      Buffer json = frame.toBuffer();
      all.appendInt(json.length()).appendBuffer(json);
    }
    socket.write(all);
  }

  @Override
  public String deliveryType() {
    return "message";
  }

  @Override
  public String errorOf(JsonObject errFrame) {
    return errFrame.getString("message");
  }

  @Override
  protected Future<Void> closeConnection() {
    return socket.close().eventually(client::close);
  }
}
