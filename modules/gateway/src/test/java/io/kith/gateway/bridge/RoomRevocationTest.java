package io.kith.gateway.bridge;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.gateway.support.TcpClient;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A room stays open to a connection only while its user keeps the room: after a {@code kith.rooms.revoked} notice the
 * guard delivers nothing more of that room to the user's connections (the registration stays), other users keep
 * receiving, and registering again asks the room rule anew. Both bridges.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Bridge rooms: revoked at once, granted again on a new registration")
class RoomRevocationTest {

  private static final String ROOM = "g42";
  private static final String ROOM_ADDRESS = Addresses.room(ROOM);

  private Platform platform;
  private BridgeGuard guard;
  private final List<BridgeClient> clients = new ArrayList<>();
  /** Users the room rule currently lets in. */
  private final Set<Long> members = ConcurrentHashMap.newKeySet();
  /** Overrides the rule for one user: the test completes the decision itself. */
  private final Map<Long, Promise<Boolean>> held = new ConcurrentHashMap<>();

  @AfterEach
  void tearDown() {
    clients.forEach(BridgeClient::close);
    if (guard != null) {
      Await.result(guard.close());
    }
    if (platform != null) {
      Await.result(platform.close());
    }
  }

  private void startGuard(Vertx vertx) {
    platform = Await.result(KithTestKit.platform(vertx));
    RoomAccess rule = (user, room) -> {
      Promise<Boolean> hold = held.remove(user);
      if (hold != null) {
        return hold.future();
      }
      return Future.succeededFuture(ROOM.equals(room) && members.contains(user));
    };
    guard = new BridgeGuard(vertx, platform.sessions(), List.of("kith\\.bridge\\.whoami"), rule);
    Await.result(vertx.eventBus().consumer(Addresses.BRIDGE_WHOAMI, msg -> msg.reply(new JsonObject()
        .put("user_id", Long.parseLong(msg.headers().get(Addresses.SENDER_HEADER))))).completion());
  }

  /** Connects, authenticates and returns the user's token. */
  private TokenPair join(BridgeClient client) {
    clients.add(client);
    TokenPair me = Await.result(KithTestKit.newSession(platform));
    client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject());
    return me;
  }

  /** Registers on the room and waits until the decision is made (frames of a connection are decided in order). */
  private static void registerRoom(BridgeClient client, TokenPair me) {
    client.register(ROOM_ADDRESS, me.accessToken());
    client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), null, new JsonObject());
  }

  /** Takes the room from {@code user} and waits until the guard has the notice. */
  private void revoke(Vertx vertx, long user) {
    members.remove(user);
    notice(vertx, ROOM, user);
  }

  private void notice(Vertx vertx, String room, long user) {
    vertx.eventBus().publish(Addresses.ROOMS_REVOKED,
        new JsonObject().put("room", room).put("users", new JsonArray().add(user)));
    Await.result(Poll.until(vertx, BridgeClient.WAIT, "the guard to take the notice",
        () -> Future.succeededFuture(guard.revokedAt(user, room) != null)));
  }

  /**
   * Publishes {@code n} on the room, then a marker on the user's own address: once the marker is in, a room message
   * published before it would have arrived too (one node, one connection, delivered in order).
   */
  private void publishThenMark(Vertx vertx, int n, long markedUser) {
    vertx.eventBus().publish(ROOM_ADDRESS, new JsonObject().put("n", n));
    vertx.eventBus().publish(Addresses.user(markedUser), new JsonObject().put("marker", n));
  }

  /**
   * @param reconnect null when the bridge checks deliveries (SockJS); else opens a new connection for alice once the
   *                  bridge closed hers (TCP)
   */
  private void revokedMemberHearsNothingMore(Vertx vertx, BridgeClient alice, BridgeClient bob,
                                             Supplier<BridgeClient> reconnect) {
    TokenPair a = join(alice);
    TokenPair b = join(bob);
    members.add(a.userId());
    members.add(b.userId());
    alice.register(Addresses.user(a.userId()), a.accessToken());
    registerRoom(alice, a);
    registerRoom(bob, b);

    vertx.eventBus().publish(ROOM_ADDRESS, new JsonObject().put("n", 1));
    assertEquals(1, alice.takeDelivery(ROOM_ADDRESS).getJsonObject("body").getInteger("n"));
    assertEquals(1, bob.takeDelivery(ROOM_ADDRESS).getJsonObject("body").getInteger("n"));

    // a notice about another room or another user changes nothing
    notice(vertx, "g43", a.userId());
    notice(vertx, ROOM, a.userId() + 1_000_000);
    publishThenMark(vertx, 2, a.userId());
    alice.takeDelivery(Addresses.user(a.userId()));
    assertEquals(2, alice.takeDelivery(ROOM_ADDRESS).getJsonObject("body").getInteger("n"));
    assertEquals(2, bob.takeDelivery(ROOM_ADDRESS).getJsonObject("body").getInteger("n"));

    revoke(vertx, a.userId());
    publishThenMark(vertx, 3, a.userId());
    assertEquals(3, bob.takeDelivery(ROOM_ADDRESS).getJsonObject("body").getInteger("n"));
    if (reconnect == null) {
      alice.takeDelivery(Addresses.user(a.userId()));
      assertFalse(alice.hasDelivery(ROOM_ADDRESS), "a revoked member still received the room: " + alice.pending());
    } else {
      // the TCP bridge reports no RECEIVE: the connection that held the room is closed instead
      alice.awaitClosed();
      assertFalse(alice.hasDelivery(ROOM_ADDRESS), "a revoked member still received the room: " + alice.pending());
      assertFalse(bob.isClosed(), "the member who kept the room was disconnected");
      alice = reconnect.get();
      clients.add(alice);
      alice.register(Addresses.user(a.userId()), a.accessToken());
    }

    // registering again is refused while the rule says no...
    registerRoom(alice, a);
    assertEquals(BridgeContractTest.DENIED, alice.takeError());
    // ...and granted once it says yes; delivery resumes
    members.add(a.userId());
    registerRoom(alice, a);
    publishThenMark(vertx, 4, a.userId());
    alice.takeDelivery(Addresses.user(a.userId()));
    assertEquals(4, alice.takeDelivery(ROOM_ADDRESS).getJsonObject("body").getInteger("n"));
    assertEquals(4, bob.takeDelivery(ROOM_ADDRESS).getJsonObject("body").getInteger("n"));
  }

  @Test
  @DisplayName("SockJS: a revoked member hears nothing more of the room, others do, a new registration is asked anew")
  void sockJs(Vertx vertx) {
    startGuard(vertx);
    Router router = Router.router(vertx);
    Bridges.mountSockJs(vertx, router, guard, new JsonObject());
    HttpServer server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    try {
      revokedMemberHearsNothingMore(vertx, SockJsClient.connect(vertx, server.actualPort(), null),
          SockJsClient.connect(vertx, server.actualPort(), null), null);
    } finally {
      Await.result(server.close());
    }
  }

  @Test
  @DisplayName("TCP: a revoked member's connection holding the room is closed, others keep it, a new registration is asked anew")
  void tcp(Vertx vertx) {
    startGuard(vertx);
    int port = FreePorts.pick();
    TcpEventBusBridge bridge = Await.result(Bridges.startTcp(vertx, guard,
        new JsonObject().put("tcp-port", port).put("tcp-host", "127.0.0.1")));
    try {
      revokedMemberHearsNothingMore(vertx, TcpClient.connect(vertx, port), TcpClient.connect(vertx, port),
          () -> TcpClient.connect(vertx, port));
    } finally {
      Await.result(bridge.close());
    }
  }

  @Test
  @DisplayName("a room whose owner cannot answer gets unavailable, not access_denied, and is granted when asked again; "
      + "any other failure of the rule is a refusal")
  void ownerUnreachable(Vertx vertx) {
    startGuard(vertx);
    Router router = Router.router(vertx);
    Bridges.mountSockJs(vertx, router, guard, new JsonObject());
    HttpServer server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    try {
      BridgeClient alice = SockJsClient.connect(vertx, server.actualPort(), null);
      TokenPair a = join(alice);
      members.add(a.userId());
      Promise<Boolean> unreachable = Promise.promise();
      held.put(a.userId(), unreachable);
      unreachable.fail(Failures.of(KithErrors.UNAVAILABLE, "the room's owner cannot be reached"));
      alice.register(ROOM_ADDRESS, a.accessToken());
      assertEquals(BridgeGuard.UNAVAILABLE, alice.takeError());
      Promise<Boolean> broken = Promise.promise();
      held.put(a.userId(), broken);
      broken.fail(new IllegalStateException("a bug in the rule"));
      alice.register(ROOM_ADDRESS, a.accessToken());
      assertEquals(BridgeContractTest.DENIED, alice.takeError());
      // sent again once the owner answers: granted
      registerRoom(alice, a);
      vertx.eventBus().publish(ROOM_ADDRESS, new JsonObject().put("n", 1));
      Await.result(Poll.until(vertx, BridgeClient.WAIT, "the room's message", () -> Future.succeededFuture(
          alice.hasDelivery(ROOM_ADDRESS))));
    } finally {
      Await.result(server.close());
    }
  }

  @Test
  @DisplayName("DomainRooms: an owner that is not running answers unavailable; a room of no known owner is closed")
  void domainRoomsOwnerAbsent(Vertx vertx) {
    startGuard(vertx);
    DomainRooms rooms = new DomainRooms(io.kith.messaging.api.MessagingInternal.proxy(vertx),
        io.kith.messaging.api.WhiteboardInternal.proxy(vertx));
    Throwable group = assertThrows(Throwable.class, () -> Await.result(rooms.mayListen(1L, "g42")));
    assertTrue(Failures.is(group.getCause() == null ? group : group.getCause(), KithErrors.UNAVAILABLE)
        || Failures.is(group, KithErrors.UNAVAILABLE), group.toString());
    Throwable board = assertThrows(Throwable.class, () -> Await.result(rooms.mayListen(1L, "b42")));
    assertTrue(Failures.is(board.getCause() == null ? board : board.getCause(), KithErrors.UNAVAILABLE)
        || Failures.is(board, KithErrors.UNAVAILABLE), board.toString());
    assertFalse(Await.result(rooms.mayListen(1L, "x42")));
  }

  @Test
  @DisplayName("a grant decided before a revocation of it arrived is not applied")
  void grantRacingRevocation(Vertx vertx) {
    startGuard(vertx);
    Router router = Router.router(vertx);
    Bridges.mountSockJs(vertx, router, guard, new JsonObject());
    HttpServer server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    try {
      BridgeClient alice = SockJsClient.connect(vertx, server.actualPort(), null);
      TokenPair a = join(alice);
      Promise<Boolean> decision = Promise.promise();
      held.put(a.userId(), decision);
      alice.register(ROOM_ADDRESS, a.accessToken());
      // the rule has read "member" but not answered yet when the member loses the room
      Await.result(Poll.until(vertx, BridgeClient.WAIT, "the rule to be asked",
          () -> Future.succeededFuture(!held.containsKey(a.userId()))));
      revoke(vertx, a.userId());
      decision.complete(true);
      assertEquals(BridgeContractTest.DENIED, alice.takeError());
    } finally {
      Await.result(server.close());
    }
  }
}
