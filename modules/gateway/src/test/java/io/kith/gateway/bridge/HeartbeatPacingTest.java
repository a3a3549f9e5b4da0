package io.kith.gateway.bridge;

import io.kith.accounts.api.AccountsInternal;
import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.TcpClient;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The presence heartbeat of a gateway is paced: its messages to accounts go one after the other, and the guard starts
 * no heartbeat while the previous one is still running.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Presence heartbeat pacing")
class HeartbeatPacingTest {

  private Platform platform;
  private BridgeGuard guard;
  private TcpEventBusBridge bridge;
  private final List<BridgeClient> clients = new ArrayList<>();

  @AfterEach
  void tearDown() {
    clients.forEach(BridgeClient::close);
    if (bridge != null) {
      Await.result(bridge.close());
    }
    if (guard != null) {
      Await.result(guard.close());
    }
    if (platform != null) {
      Await.result(platform.close());
    }
  }

  /** Accounts internals whose connectionsAlive calls wait until the test answers them; nothing else is called. */
  private static AccountsInternal accountsAnsweringOnDemand(List<JsonObject> sent, List<Promise<Void>> answers) {
    return (AccountsInternal) Proxy.newProxyInstance(AccountsInternal.class.getClassLoader(),
        new Class<?>[] {AccountsInternal.class}, (proxy, method, args) -> {
          if (!method.getName().equals("connectionsAlive")) {
            throw new UnsupportedOperationException(method.getName());
          }
          Promise<Void> answer = Promise.promise();
          sent.add((JsonObject) args[0]);
          answers.add(answer);
          return answer.future();
        });
  }

  @Test
  @DisplayName("a heartbeat of 2,500 users goes out as three messages, each sent after the previous one was answered "
      + "(a failed one included), and completes after the last")
  void chunksGoOneAfterTheOther() {
    List<JsonObject> sent = new CopyOnWriteArrayList<>();
    List<Promise<Void>> answers = new CopyOnWriteArrayList<>();
    AccountsPresence presence = new AccountsPresence(accountsAnsweringOnDemand(sent, answers));
    Map<Long, List<String>> connections = new HashMap<>();
    for (long user = 1; user <= 2_500; user++) {
      connections.put(user, List.of("conn-" + user));
    }

    Future<Void> heartbeat = presence.alive(connections);

    assertEquals(1, sent.size(), "only the first message is out");
    assertEquals(AccountsPresence.CHUNK, sent.get(0).size());
    answers.get(0).fail("accounts timed out");
    assertEquals(2, sent.size(), "a failed message does not stop the heartbeat");
    assertFalse(heartbeat.isComplete());
    answers.get(1).complete();
    assertEquals(3, sent.size());
    assertEquals(500, sent.get(2).size());
    assertFalse(heartbeat.isComplete());
    answers.get(2).complete();
    assertTrue(heartbeat.succeeded());
    Set<String> reported = new HashSet<>();
    sent.forEach(chunk -> reported.addAll(chunk.fieldNames()));
    assertEquals(2_500, reported.size(), "every user once");
  }

  @Test
  @DisplayName("the guard skips a heartbeat tick while the previous heartbeat is still running")
  void guardSkipsWhileRunning(Vertx vertx) {
    platform = Await.result(KithTestKit.platform(vertx));
    List<Map<Long, List<String>>> reports = new CopyOnWriteArrayList<>();
    List<Promise<Void>> running = new CopyOnWriteArrayList<>();
    ConnectionListener listener = new ConnectionListener() {
      @Override
      public void bound(long userId, String connectionId) {
      }

      @Override
      public void closed(long userId, String connectionId) {
      }

      @Override
      public Future<Void> alive(Map<Long, List<String>> connections) {
        Promise<Void> done = Promise.promise();
        reports.add(connections);
        running.add(done);
        return done.future();
      }
    };
    guard = new BridgeGuard(vertx, platform.sessions(), List.of("kith\\.bridge\\.whoami"), RoomAccess.NONE, listener);
    Await.result(vertx.eventBus().consumer(Addresses.BRIDGE_WHOAMI, msg -> msg.reply(new JsonObject()
        .put("user_id", Long.parseLong(msg.headers().get(Addresses.SENDER_HEADER))))).completion());
    int port = FreePorts.pick();
    bridge = Await.result(Bridges.startTcp(vertx, guard,
        new JsonObject().put("tcp-port", port).put("tcp-host", "127.0.0.1")));
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    BridgeClient client = TcpClient.connect(vertx, port);
    clients.add(client);
    assertEquals(me.userId(), client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject())
        .getJsonObject("body").getLong("user_id"));

    guard.heartbeat();
    guard.heartbeat();
    assertEquals(1, reports.size(), "a second report while the first runs");
    assertEquals(Set.of(me.userId()), reports.get(0).keySet());

    running.get(0).fail("accounts timed out");
    guard.heartbeat();
    assertEquals(2, reports.size(), "the next tick after the previous report finished reports again");
  }
}
