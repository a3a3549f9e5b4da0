package io.kith.gateway.http;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kith.gateway.support.SockJsClient;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Access log")
class AccessLogTest {

  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private TestGateway gateway;

  @BeforeEach
  void capture() {
    captured.start();
    root.addAppender(captured);
  }

  @AfterEach
  void tearDown() {
    root.detachAppender(captured);
    captured.stop();
    if (gateway != null) {
      gateway.close();
    }
  }

  private List<String> lines() {
    synchronized (captured) {
      return captured.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  private String lineFor(String path) {
    return lines().stream().filter(l -> l.contains(path)).findFirst().orElse(null);
  }

  @Test
  @DisplayName("requests are logged with method, path, status, size, duration and client, never with a query's access token")
  void noTokenInAccessLog(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("http", new JsonObject().put("access-log", true)));
    TokenPair me = gateway.newSession();
    String token = me.accessToken();

    assertEquals(200, gateway.get("/eventbus/info?access_token=" + token, null).statusCode());
    // ping declares no query parameter: refused with 400 unknown_query_parameter, and logged all the same
    assertEquals(400, gateway.get(API + "/ping?access_token=" + token + "&x=1", null).statusCode());
    SockJsClient socket = SockJsClient.connect(vertx, gateway.port(), "access_token=" + token);
    try {
      JsonObject reply = socket.call(Addresses.BRIDGE_WHOAMI, null, null, new JsonObject());
      assertEquals(me.userId(), reply.getJsonObject("body").getLong("user_id"));
    } finally {
      socket.close();
    }

    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "access log lines for both requests",
        () -> Future.succeededFuture(lineFor("/eventbus/info") != null && lineFor(API + "/ping") != null)));
    String signature = token.substring(token.lastIndexOf('.') + 1);
    for (String line : lines()) {
      assertFalse(line.contains(signature), "the access token reached the log: " + line);
      assertFalse(line.contains("access_token"), "a query string reached the log: " + line);
    }
    String ping = lineFor(API + "/ping");
    assertTrue(ping.contains("GET") && ping.contains(" 400 "), ping);
    assertTrue(ping.matches(".*\\b\\d+ ms\\b.*"), "the duration is logged: " + ping);
    assertTrue(ping.contains("127.0.0.1"), "the client address is logged: " + ping);
  }
}
