package io.kith.gateway.bridge;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.Deflater;

import static io.kith.gateway.support.TestGateway.API;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The WebSocket endpoint of the SockJS bridge speaks no compression extension: the frame limit counts the bytes on
 * the wire, and a deflated frame of a few kilobytes can inflate to many megabytes on the event loop.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("WebSocket compression on the bridge")
class WebSocketCompressionTest {

  private TestGateway gateway;
  private NetClient net;

  @AfterEach
  void tearDown() {
    if (net != null) {
      Await.result(net.close());
    }
    if (gateway != null) {
      gateway.close();
    }
  }

  /** A raw TCP connection that has sent a WebSocket upgrade offering permessage-deflate. */
  private static final class RawWebSocket {
    final NetSocket socket;
    final Buffer received = Buffer.buffer();
    final AtomicBoolean closed = new AtomicBoolean();

    RawWebSocket(NetSocket socket) {
      this.socket = socket;
      socket.handler(b -> {
        synchronized (received) {
          received.appendBuffer(b);
        }
      });
      socket.closeHandler(v -> closed.set(true));
    }

    String text() {
      synchronized (received) {
        return received.toString(StandardCharsets.ISO_8859_1);
      }
    }
  }

  private RawWebSocket upgrade(Vertx vertx) {
    net = vertx.createNetClient();
    NetSocket socket = Await.result(net.connect(gateway.port(), "localhost"));
    RawWebSocket ws = new RawWebSocket(socket);
    byte[] nonce = new byte[16];
    ThreadLocalRandom.current().nextBytes(nonce);
    socket.write("GET /eventbus/websocket HTTP/1.1\r\n"
        + "Host: localhost:" + gateway.port() + "\r\n"
        + "Upgrade: websocket\r\n"
        + "Connection: Upgrade\r\n"
        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n"
        + "Sec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits, x-webkit-deflate-frame\r\n"
        + "\r\n");
    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the upgrade response",
        () -> Future.succeededFuture(ws.text().contains("\r\n\r\n"))));
    return ws;
  }

  /** A masked client text frame with RSV1 set (compressed, were deflate negotiated) carrying {@code payload}. */
  private static Buffer compressedFrame(byte[] payload) {
    return frame(0x80 | 0x40 | 0x1, payload);
  }

  /** A masked client frame with the first byte {@code head} (FIN, RSV bits, opcode) carrying {@code payload}. */
  private static Buffer frame(int head, byte[] payload) {
    Buffer frame = Buffer.buffer();
    frame.appendByte((byte) head);
    if (payload.length < 126) {
      frame.appendByte((byte) (0x80 | payload.length));
    } else {
      frame.appendByte((byte) (0x80 | 126)).appendUnsignedShort(payload.length);
    }
    byte[] mask = new byte[4];
    ThreadLocalRandom.current().nextBytes(mask);
    frame.appendBytes(mask);
    byte[] masked = new byte[payload.length];
    for (int i = 0; i < payload.length; i++) {
      masked[i] = (byte) (payload[i] ^ mask[i % 4]);
    }
    return frame.appendBytes(masked);
  }

  /** 16 MiB of zeros deflated as permessage-deflate sends them (raw deflate, sync flush, tail stripped). */
  private static byte[] deflateBomb() {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
    deflater.setInput(new byte[16 * 1024 * 1024]);
    byte[] out = new byte[64 * 1024];
    int length = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
    deflater.end();
    assertTrue(length > 4 && length < out.length, "deflated to " + length + " bytes");
    return Arrays.copyOf(out, length - 4);
  }

  @Test
  @DisplayName("the upgrade does not negotiate permessage-deflate although the client offers it")
  void noDeflateNegotiated(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    String response = upgrade(vertx).text();

    String head = response.substring(0, response.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
    assertTrue(head.startsWith("http/1.1 101"), head);
    assertFalse(head.contains("sec-websocket-extensions"), head);
  }

  @Test
  @DisplayName("a deflate-bomb frame closes its connection, and a ping sent after it is answered")
  void deflateBombCloses(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    RawWebSocket ws = upgrade(vertx);

    ws.socket.write(compressedFrame(deflateBomb()));
    HttpResponse<Buffer> ping = gateway.get(API + "/ping", null);

    assertEquals(200, ping.statusCode(), ping.bodyAsString());
    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the server to close the bomb's connection",
        () -> Future.succeededFuture(ws.closed.get())));
    assertEquals(200, gateway.get(API + "/ping", null).statusCode(), "the node still serves after the bomb");
  }

  @Test
  @DisplayName("a plain message over bridge.max-frame closes its connection, and the node keeps serving")
  void oversizedMessageCloses(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject()
        .put("bridge", new JsonObject().put("max-frame", 1024)));
    RawWebSocket ws = upgrade(vertx);
    byte[] text = new byte[2048];
    Arrays.fill(text, (byte) 'x');

    ws.socket.write(frame(0x80 | 0x1, text));

    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the server to close the oversized message's connection",
        () -> Future.succeededFuture(ws.closed.get())));
    assertEquals(200, gateway.get(API + "/ping", null).statusCode());
  }
}
