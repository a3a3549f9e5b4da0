package io.kith.bench.client;

import io.kith.bench.baseline.WebSocketEchoServer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The echo baseline: the server bounces every frame, the client matches answers in order per connection. */
class EchoClientTest {

  private static Vertx vertx;
  private static Context context;
  private static WebSocketEchoServer server;

  @BeforeAll
  static void start() throws Exception {
    server = WebSocketEchoServer.start(2, 65_536).await(10, TimeUnit.SECONDS);
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
    server.close().await(10, TimeUnit.SECONDS);
  }

  private static <T> T onContext(Supplier<Future<T>> work) throws Exception {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> work.get().onComplete(promise));
    return promise.future().await(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("every frame comes back to its request, many in flight on each connection")
  void echoesInOrder() throws Exception {
    EchoClient client = EchoClient.create(vertx, "127.0.0.1", server.port(), 3, 5000);
    try {
      List<JsonObject> answers = onContext(() -> client.open().compose(c -> {
        List<Future<JsonObject>> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
          all.add(c.request(new JsonObject().put("n", i).put("text", "x".repeat(i))));
        }
        return Future.all(all).map(done -> done.<JsonObject>list());
      }));
      for (int i = 0; i < 60; i++) {
        assertEquals(i, answers.get(i).getInteger("n"));
        assertEquals(i, answers.get(i).getString("text").length());
      }
      assertEquals(3, client.size());
      assertEquals(3, client.openConnections());
      assertEquals(7, onContext(() -> client.request(2, new JsonObject().put("n", 7))).getInteger("n"));
    } finally {
      onContext(client::close);
    }
  }

  @Test
  @DisplayName("a client that cannot connect fails to open and names the server")
  void refused() throws Exception {
    int closedPort = io.kith.platform.store.FreePorts.pick();
    EchoClient client = EchoClient.create(vertx, "127.0.0.1", closedPort, 2, 2000);
    Exception e = assertThrows(Exception.class, () -> onContext(client::open));
    assertTrue(e.getMessage().contains("echo server at 127.0.0.1:" + closedPort), e.getMessage());
    onContext(client::close);
  }
}
