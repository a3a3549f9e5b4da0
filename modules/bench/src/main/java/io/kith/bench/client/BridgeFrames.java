package io.kith.bench.client;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.parsetools.RecordParser;

/**
 * The Vert.x event-bus bridge wire format as a client sees it: JSON frames such as
 * {@code {"type":"send","address":..,"replyAddress":..,"headers":{..},"body":{..}}}, carried as WebSocket
 * messages on SockJS, or on the TCP bridge as a 4-byte big-endian length followed by that many bytes of UTF-8 JSON.
 */
public final class BridgeFrames {

  /** Largest TCP frame accepted from the server. */
  public static final int MAX_TCP_FRAME = 16 * 1024 * 1024;

  private BridgeFrames() {
  }

  /** A request frame: send {@code body} to {@code address}, reply expected on {@code replyAddress}. */
  public static JsonObject send(String address, String replyAddress, String bearerToken, JsonObject body) {
    JsonObject frame = new JsonObject()
        .put("type", "send")
        .put("address", address)
        .put("replyAddress", replyAddress)
        .put("body", body);
    if (bearerToken != null) {
      frame.put("headers", new JsonObject().put("authorization", "Bearer " + bearerToken));
    }
    return frame;
  }

  /**
   * A frame that registers the connection on {@code address}: messages sent or published there arrive as
   * {@code rec} frames (SockJS) or {@code message} frames (TCP) carrying that address. The bridge sends no
   * acknowledgement; a refusal comes back as an {@code err} frame.
   */
  public static JsonObject register(String address, String bearerToken) {
    JsonObject frame = new JsonObject().put("type", "register").put("address", address);
    if (bearerToken != null) {
      frame.put("headers", new JsonObject().put("authorization", "Bearer " + bearerToken));
    }
    return frame;
  }

  /** A keep-alive frame; the bridge closes connections that stay silent past its ping timeout. */
  public static JsonObject ping() {
    return new JsonObject().put("type", "ping");
  }

  /** {@code frame} as a TCP bridge frame: length prefix and UTF-8 JSON. */
  public static Buffer tcp(JsonObject frame) {
    Buffer json = frame.toBuffer();
    return Buffer.buffer(json.length() + 4).appendInt(json.length()).appendBuffer(json);
  }

  /**
   * A parser for a stream of TCP bridge frames: feed it the bytes as they arrive (in any split) and it calls
   * {@code onFrame} once per complete frame. A frame that is not a JSON object, or a length that is not positive or
   * exceeds {@link #MAX_TCP_FRAME}, goes to {@code onError} and stops the parser.
   */
  public static Handler<Buffer> tcpDecoder(Handler<JsonObject> onFrame, Handler<Throwable> onError) {
    RecordParser parser = RecordParser.newFixed(4);
    parser.handler(new Handler<>() {
      private boolean readingLength = true;
      private boolean broken;

      @Override
      public void handle(Buffer record) {
        if (broken) {
          return;
        }
        if (readingLength) {
          int length = record.getInt(0);
          if (length <= 0 || length > MAX_TCP_FRAME) {
            broken = true;
            onError.handle(new IllegalStateException("bad TCP bridge frame length " + length));
            return;
          }
          readingLength = false;
          parser.fixedSizeMode(length);
          return;
        }
        readingLength = true;
        parser.fixedSizeMode(4);
        JsonObject frame;
        try {
          frame = record.toJsonObject();
        } catch (RuntimeException e) {
          broken = true;
          onError.handle(new IllegalStateException("TCP bridge frame is not a JSON object: " + e.getMessage()));
          return;
        }
        onFrame.handle(frame);
      }
    });
    return parser;
  }
}
