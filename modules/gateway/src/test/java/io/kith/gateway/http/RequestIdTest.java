package io.kith.gateway.http;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

import static io.kith.gateway.support.TestGateway.API;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Request ids")
class RequestIdTest {

  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
  private final Logger accessLog = (Logger) LoggerFactory.getLogger(AccessLog.class);
  private TestGateway gateway;

  @BeforeEach
  void start(Vertx vertx) {
    captured.start();
    accessLog.addAppender(captured);
    gateway = TestGateway.start(vertx, new JsonObject().put("http", new JsonObject().put("access-log", true)));
  }

  @AfterEach
  void stop() {
    accessLog.detachAppender(captured);
    captured.stop();
    if (gateway != null) {
      gateway.close();
    }
  }

  private HttpResponse<Buffer> get(String path, String requestId) {
    var request = gateway.request(HttpMethod.GET, path, null);
    if (requestId != null) {
      request.putHeader(RequestIds.HEADER, requestId);
    }
    return Await.result(request.send());
  }

  private String accessLine(Vertx vertx, String id) {
    Await.result(Poll.until(vertx, Duration.ofSeconds(20), "the access log line of " + id,
        () -> Future.succeededFuture(lines().stream().anyMatch(l -> l.endsWith(" " + id)))));
    return lines().stream().filter(l -> l.endsWith(" " + id)).findFirst().orElseThrow();
  }

  private List<String> lines() {
    synchronized (captured) {
      return captured.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  @Test
  @DisplayName("a client's X-Request-Id is echoed in the response, the problem body's request_id and the access log")
  void givenIdEchoed(Vertx vertx) {
    String id = "req-42.a_b:c";
    HttpResponse<Buffer> response = get(API + "/whoami", id);
    assertEquals(id, response.getHeader(RequestIds.HEADER));
    JsonObject problem = TestGateway.assertProblem(response, 401, "unauthenticated");
    assertEquals(id, problem.getString("request_id"));
    assertTrue(accessLine(vertx, id).contains(" 401 "));
  }

  @Test
  @DisplayName("without X-Request-Id each request gets a new id, in the response and the access log")
  void madeWhenMissing(Vertx vertx) {
    HttpResponse<Buffer> first = get(API + "/ping", null);
    HttpResponse<Buffer> second = get(API + "/ping", null);
    assertEquals(200, first.statusCode());
    String id = first.getHeader(RequestIds.HEADER);
    assertTrue(id != null && id.matches("[0-9a-f]{32}"), "made id: " + id);
    assertNotEquals(id, second.getHeader(RequestIds.HEADER));
    assertTrue(accessLine(vertx, id).contains(API + "/ping"));
  }

  @Test
  @DisplayName("an X-Request-Id that is too long or has other characters is replaced by a new id, also in problems")
  void refusedIdReplaced() {
    for (String bad : List.of("x".repeat(65), "a b", "id\"}{", "é")) {
      HttpResponse<Buffer> response = get(API + "/no/such/path", bad);
      JsonObject problem = TestGateway.assertProblem(response, 404, "not_found");
      String id = response.getHeader(RequestIds.HEADER);
      assertTrue(id.matches("[0-9a-f]{32}"), "replacement of " + bad + ": " + id);
      assertEquals(id, problem.getString("request_id"));
    }
  }
}
