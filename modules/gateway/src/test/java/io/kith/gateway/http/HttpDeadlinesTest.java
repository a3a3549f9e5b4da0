package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Slow and unfinished requests are not held: header and body deadlines, over-long request lines")
class HttpDeadlinesTest {

  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  private TestGateway start(Vertx vertx, JsonObject http) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http", http));
    return gateway;
  }

  /** What the server sent on a raw connection, complete once the server closed it. */
  private static final class Raw {
    final Buffer received = Buffer.buffer();
    final Promise<String> closed = Promise.promise();
    NetSocket socket;
  }

  private Raw connect(Vertx vertx) {
    Raw raw = new Raw();
    raw.socket = Await.result(vertx.createNetClient().connect(gateway.port(), "localhost"));
    raw.socket.handler(raw.received::appendBuffer);
    raw.socket.closeHandler(v -> raw.closed.tryComplete(raw.received.toString()));
    return raw;
  }

  @Test
  @DisplayName("a client that trickles its headers a line at a time is disconnected at the header deadline on a new "
      + "connection, and at the keep-alive deadline (idle-seconds after the last answer) on a reused one")
  void slowHeadersAreCut(Vertx vertx) {
    // deadlines long enough for a loaded machine to send a whole request in time
    start(vertx, new JsonObject().put("header-timeout-seconds", 3).put("idle-seconds", 4));

    Raw fresh = connect(vertx);
    fresh.socket.write("GET " + API + "/ping HTTP/1.1\r\nHost: localhost\r\n");
    // a line every 200 ms: the connection is never idle for the idle timeout to close it
    long trickle = vertx.setPeriodic(200, id -> fresh.socket.write("X-Slow: 1\r\n"));
    String answer = Await.result(fresh.closed.future());
    vertx.cancelTimer(trickle);
    assertEquals("", answer, "nothing is answered to headers that never end");

    Raw kept = connect(vertx);
    kept.socket.write("GET " + API + "/ping HTTP/1.1\r\nHost: localhost\r\n\r\n");
    Await.result(io.kith.platform.testkit.Poll.until(vertx, java.time.Duration.ofSeconds(20), "the first answer",
        () -> io.vertx.core.Future.succeededFuture(kept.received.toString().contains("pong"))));
    kept.socket.write("GET " + API + "/ping HTTP/1.1\r\n");
    long trickle2 = vertx.setPeriodic(200, id -> kept.socket.write("X-Slow: 1\r\n"));
    String second = Await.result(kept.closed.future());
    vertx.cancelTimer(trickle2);
    assertEquals(1, second.split("HTTP/1.1 ", -1).length - 1, "only the first request was answered: " + second);
  }

  @Test
  @DisplayName("a body that stops short of its declared length is answered 408 request_timeout problem+json and "
      + "its connection closed")
  void unfinishedBodyIs408(Vertx vertx) {
    start(vertx, new JsonObject().put("request-timeout-seconds", 1));

    Raw raw = connect(vertx);
    raw.socket.write("POST " + API + "/auth/refresh HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Content-Length: 1000\r\n\r\n{\"refresh_token\":");
    String answer = Await.result(raw.closed.future());

    assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
    assertTrue(answer.contains("application/problem+json"), answer);
    JsonObject body = new JsonObject(answer.substring(answer.indexOf("\r\n\r\n") + 4));
    assertEquals("request_timeout", body.getString("code"), answer);
    assertEquals(408, body.getInteger("status"), answer);
    TestGateway.assertNoInternals(answer.substring(answer.indexOf("\r\n\r\n") + 4));
  }

  @Test
  @DisplayName("a query string longer than the request-line limit is 414 uri_too_long problem+json, and headers "
      + "over the limit are 431 headers_too_large problem+json")
  void overLongRequestLinesAndHeaders(Vertx vertx) {
    start(vertx, new JsonObject());

    HttpResponse<Buffer> longUri = gateway.get(API + "/ping?q=" + "a".repeat(10_000), null);
    assertProblem(longUri, 414, "uri_too_long");

    HttpResponse<Buffer> bigHeader = Await.result(gateway.client().get(API + "/ping")
        .putHeader("X-Big", "b".repeat(10_000)).send());
    assertProblem(bigHeader, 431, "headers_too_large");

    assertEquals(200, gateway.get(API + "/ping", null).statusCode(), "a normal request still works");
  }
}
