package io.kith.bench;

import io.kith.bench.client.BridgeClient;
import io.kith.bench.client.Target;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.DisplayName;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bridge client against the real Vert.x SockJS and TCP bridges of {@link FakeKith}. */
class BridgeClientTest {

  private static FakeKith kith;
  private static Vertx vertx;
  private static Context context;

  @BeforeAll
  static void start() throws Exception {
    kith = FakeKith.start();
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
    kith.close();
  }

  private static <T> T onContext(Supplier<Future<T>> work) throws Exception {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> work.get().onComplete(promise));
    return promise.future().await(10, TimeUnit.SECONDS);
  }

  private static Target target() {
    return Target.parse(kith.url()).withTcpBridgePort(kith.tcpPort());
  }

  private static BridgeClient client(BridgeClient.Transport transport, String token, int connections) {
    return BridgeClient.create(vertx, target(), transport, connections, token, 5000);
  }

  @ParameterizedTest
  @EnumSource(BridgeClient.Transport.class)
  @DisplayName("a request is answered with the reply's body, on every connection of the pool")
  void requestReply(BridgeClient.Transport transport) throws Exception {
    BridgeClient client = client(transport, FakeKith.TOKEN, 3);
    try {
      JsonObject reply = onContext(() -> client.open().compose(c -> Future.all(
              c.request("kith.bridge.whoami", new JsonObject()),
              c.request("kith.bridge.whoami", new JsonObject()),
              c.request("kith.bridge.whoami", new JsonObject()),
              c.request("kith.bridge.whoami", new JsonObject())))
          .map(all -> all.<JsonObject>resultAt(3)));
      assertEquals(FakeKith.USER, reply.getLong("user_id"));
    } finally {
      onContext(client::close);
    }
  }

  @ParameterizedTest
  @EnumSource(BridgeClient.Transport.class)
  @DisplayName("an err frame for the reply address fails the request with the bridge's message and code")
  void errorFrame(BridgeClient.Transport transport) throws Exception {
    BridgeClient client = client(transport, "wrong", 1);
    try {
      Exception e = assertThrows(Exception.class, () -> onContext(
          () -> client.open().compose(c -> c.request("kith.bridge.whoami", new JsonObject()))));
      assertEquals("bridge error: the bearer token is missing or invalid (code 401)", e.getMessage());
    } finally {
      onContext(client::close);
    }
  }

  @ParameterizedTest
  @EnumSource(BridgeClient.Transport.class)
  @DisplayName("an address the bridge does not permit is refused with an err frame")
  void notPermitted(BridgeClient.Transport transport) throws Exception {
    BridgeClient client = client(transport, FakeKith.TOKEN, 1);
    try {
      Exception e = assertThrows(Exception.class, () -> onContext(
          () -> client.open().compose(c -> c.request("kith.internal", new JsonObject()))));
      assertTrue(e.getMessage().startsWith("bridge error: access_denied"), e.getMessage());
    } finally {
      onContext(client::close);
    }
  }

  @Test
  @DisplayName("a TCP client without a known bridge port fails to open and says why")
  void tcpPortUnknown() throws Exception {
    BridgeClient client = BridgeClient.create(vertx, Target.parse(kith.url()), BridgeClient.Transport.TCP, 1,
        FakeKith.TOKEN, 5000);
    try {
      Exception e = assertThrows(Exception.class, () -> onContext(client::open));
      assertEquals("the TCP bridge port of the target is not known", e.getMessage());
    } finally {
      onContext(client::close);
    }
  }

  @ParameterizedTest
  @EnumSource(BridgeClient.Transport.class)
  @DisplayName("per-user connections each take their own token, and a registered address hands its messages over")
  void registeredPushes(BridgeClient.Transport transport) throws Exception {
    BridgeClient client = BridgeClient.perUser(vertx, target(), transport, List.of(FakeKith.TOKEN, "other"), 5000);
    List<JsonObject> first = new CopyOnWriteArrayList<>();
    List<JsonObject> second = new CopyOnWriteArrayList<>();
    try {
      onContext(() -> client.open().compose(c -> Future.all(
          c.register(0, "kith.user.1", first::add),
          c.register(1, "kith.user.2", second::add))));
      assertEquals(2, client.size());
      // the bridge does not acknowledge a registration: publish until the first message lands
      Await.result(Poll.until(vertx, Duration.ofSeconds(10), "a message on the registered address", () -> {
        if (!first.isEmpty()) {
          return Future.succeededFuture(true);
        }
        kith.publish("kith.user.1", new JsonObject().put("kind", "probe"));
        return Future.succeededFuture(false);
      }));
      assertEquals("probe", first.get(0).getString("kind"));
      assertTrue(second.isEmpty(), "a connection hears only the addresses it registered on");
      // connection 0 carries the stand-in's known token; connection 1's token is refused by the whoami consumer
      assertEquals(FakeKith.USER, onContext(() -> client.request(0, "kith.bridge.whoami", new JsonObject()))
          .getLong("user_id"));
      Exception e = assertThrows(Exception.class,
          () -> onContext(() -> client.request(1, "kith.bridge.whoami", new JsonObject())));
      assertTrue(e.getMessage().contains("(code 401)"), e.getMessage());
      assertEquals(2, client.openConnections());
    } finally {
      onContext(client::close);
    }
    assertEquals(0, client.openConnections());
  }
}
