package io.kith.bench.client;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BridgeFramesTest {

  @Test
  @DisplayName("a send frame carries the address, the reply address, the bearer header and the body")
  void sendFrame() {
    JsonObject frame = BridgeFrames.send("kith.bridge.whoami", "r-1", "tok", new JsonObject().put("a", 1));
    assertEquals(new JsonObject()
        .put("type", "send")
        .put("address", "kith.bridge.whoami")
        .put("replyAddress", "r-1")
        .put("body", new JsonObject().put("a", 1))
        .put("headers", new JsonObject().put("authorization", "Bearer tok")), frame);
    assertFalse(BridgeFrames.send("a", "r", null, new JsonObject()).containsKey("headers"));
    assertEquals("ping", BridgeFrames.ping().getString("type"));
  }

  @Test
  @DisplayName("a register frame names the address and carries the bearer header when there is a token")
  void registerFrame() {
    assertEquals(new JsonObject().put("type", "register").put("address", "kith.user.7")
        .put("headers", new JsonObject().put("authorization", "Bearer tok")), BridgeFrames.register("kith.user.7", "tok"));
    assertEquals(new JsonObject().put("type", "register").put("address", "kith.user.7"),
        BridgeFrames.register("kith.user.7", null));
  }

  @Test
  @DisplayName("a TCP frame is a 4-byte big-endian length followed by the UTF-8 JSON")
  void tcpEncoding() {
    JsonObject frame = new JsonObject().put("type", "ping").put("é", "ü");
    Buffer bytes = BridgeFrames.tcp(frame);
    byte[] json = frame.encode().getBytes(StandardCharsets.UTF_8);
    assertEquals(4 + json.length, bytes.length());
    assertEquals(0, bytes.getByte(0));
    assertEquals(0, bytes.getByte(1));
    assertEquals(0, bytes.getByte(2));
    assertEquals(json.length, bytes.getByte(3));
    assertEquals(frame, new JsonObject(bytes.getBuffer(4, bytes.length())));
  }

  @Test
  @DisplayName("the TCP decoder reassembles frames split across reads and separates frames sharing one read")
  void tcpDecoding() {
    List<JsonObject> frames = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    var decoder = BridgeFrames.tcpDecoder(frames::add, errors::add);
    JsonObject first = new JsonObject().put("type", "rec").put("address", "r-1").put("body", new JsonObject());
    JsonObject second = new JsonObject().put("type", "pong");
    Buffer stream = Buffer.buffer().appendBuffer(BridgeFrames.tcp(first)).appendBuffer(BridgeFrames.tcp(second));
    // one byte at a time, then both again in a single read
    for (int i = 0; i < stream.length(); i++) {
      decoder.handle(stream.getBuffer(i, i + 1));
    }
    decoder.handle(stream);
    assertEquals(List.of(first, second, first, second), frames);
    assertTrue(errors.isEmpty());
  }

  @Test
  @DisplayName("a length that cannot be right stops the TCP decoder with an error")
  void tcpBadLength() {
    List<JsonObject> frames = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    var decoder = BridgeFrames.tcpDecoder(frames::add, errors::add);
    decoder.handle(Buffer.buffer().appendInt(-1).appendString("{}"));
    assertEquals(1, errors.size());
    assertEquals("bad TCP bridge frame length -1", errors.get(0).getMessage());
    assertTrue(frames.isEmpty());
  }

  @Test
  @DisplayName("a TCP frame that is not a JSON object is an error")
  void tcpNotJson() {
    List<Throwable> errors = new ArrayList<>();
    var decoder = BridgeFrames.tcpDecoder(f -> { }, errors::add);
    decoder.handle(Buffer.buffer().appendInt(3).appendString("abc"));
    assertEquals(1, errors.size());
    assertTrue(errors.get(0).getMessage().startsWith("TCP bridge frame is not a JSON object"));
  }
}
