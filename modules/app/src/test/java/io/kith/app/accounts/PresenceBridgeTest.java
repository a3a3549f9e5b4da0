package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.BridgeSocket;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.kith.app.accounts.AccountsKith.API;
import static io.kith.app.accounts.AccountsKith.PRESENCE_EXPIRY_SECONDS;
import static io.kith.app.accounts.AccountsKith.WAIT;
import static io.kith.app.accounts.AccountsKith.newAddress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Presence as users experience it: connecting over the SockJS bridge makes a user online to others (POST
 * /api/v1/people/presence), closing the connection makes them offline, presence modes decide who sees it, and mode
 * changes are pushed to the user's own connections.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Presence through the SockJS bridge and HTTP")
class PresenceBridgeTest {

  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** What {@code viewer} sees of {@code user}'s presence, asynchronously (for polling). */
  private Future<JsonObject> presenceOf(User viewer, User user) {
    return kith.send(HttpMethod.POST, API + "/people/presence", viewer.access(), newAddress(),
            new JsonObject().put("ids", new JsonArray().add(user.id())))
        .map(reply -> reply.expect(200).getJsonObject(Long.toString(user.id())));
  }

  private void awaitOnline(User viewer, User user, boolean online) {
    kith.eventually(viewer.username() + " to see " + user.username() + (online ? " online" : " offline"),
        () -> presenceOf(viewer, user).map(state -> state.getBoolean("online") == online));
  }

  /** Connects a bridge socket of {@code user}, authenticated on its own address, and waits until it counts. */
  private BridgeSocket connect(User user) {
    BridgeSocket socket = BridgeSocket.connect(kith.client(), kith.port(), null);
    socket.register(user.address(), user.access());
    awaitOnline(user, user, true);
    return socket;
  }

  @Test
  @DisplayName("a user connected over the bridge is online to others and offline once the socket closes")
  void onlineWhileConnected() {
    User alice = kith.register();
    User bob = kith.register();
    JsonObject before = Await.result(presenceOf(bob, alice));
    assertEquals(false, before.getBoolean("online"), "offline before connecting: " + before.encode());

    // the presence pushes of alice's address, seen on the node's event bus: they are sent only when a connection
    // report (not an expiry) changes her state, so they show that closing the socket was reported
    List<JsonObject> pushes = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer = kith.kith().vertx().eventBus().consumer(alice.address(),
        msg -> pushes.add(msg.body()));
    Await.result(consumer.completion());
    try {
      BridgeSocket socket = connect(alice);
      awaitOnline(bob, alice, true);
      JsonObject online = Await.result(presenceOf(bob, alice));
      assertNotNull(online.getLong("last_active"), online.encode());

      socket.close();

      awaitOnline(bob, alice, false);
      kith.eventually("an offline push on alice's address", () -> Future.succeededFuture(pushes.stream()
          .anyMatch(p -> "presence".equals(p.getString("kind")) && Boolean.FALSE.equals(p.getBoolean("online")))));
      assertTrue(pushes.stream().anyMatch(p -> Boolean.TRUE.equals(p.getBoolean("online"))),
          "an online push came first: " + pushes);
    } finally {
      Await.result(consumer.unregister());
    }
  }

  @Test
  @DisplayName("a user stays online while connected: the gateway's heartbeats outlive the presence expiry")
  void heartbeatKeepsOnline() {
    User alice = kith.register();
    User bob = kith.register();
    try (BridgeSocket socket = connect(alice)) {
      awaitOnline(bob, alice, true);
      kith.holdsFor("alice to stay online past the presence expiry",
          Duration.ofSeconds(PRESENCE_EXPIRY_SECONDS + 2L),
          () -> presenceOf(bob, alice).map(state -> state.getBoolean("online")));
      assertTrue(!socket.isClosed(), "the connection is still open");
    }
    awaitOnline(bob, alice, false);
  }

  @Test
  @DisplayName("after Redis loses a user's presence, the gateway's next heartbeats bring it back")
  void heartbeatRestoresLostPresence() {
    User alice = kith.register();
    User bob = kith.register();
    try (BridgeSocket socket = connect(alice)) {
      awaitOnline(bob, alice, true);

      // what an emptied or failed-over Redis looks like to this user (key from the accounts README)
      Await.result(kith.kith().platform().redisApi().del(List.of("presence:{u:" + alice.id() + "}")));
      assertEquals(false, Await.result(presenceOf(bob, alice)).getBoolean("online"));

      awaitOnline(bob, alice, true);
      assertTrue(!socket.isClosed());
    }
  }

  @Test
  @DisplayName("an invisible user looks offline to others, sees itself online, and is visible again when back online")
  void invisibleMode() {
    User alice = kith.register();
    User bob = kith.register();
    try (BridgeSocket socket = connect(alice)) {
      awaitOnline(bob, alice, true);

      JsonObject mine = kith.put("/me/presence", alice.access(), new JsonObject().put("mode", "invisible"))
          .expect(200);
      assertEquals("invisible", mine.getString("mode"));
      assertEquals(true, mine.getBoolean("online"), "alice herself is still connected: " + mine.encode());

      JsonObject seen = Await.result(presenceOf(bob, alice));
      assertEquals(false, seen.getBoolean("online"), seen.encode());
      assertNull(seen.getValue("last_active"), "no last active time either: " + seen.encode());
      assertEquals(true, Await.result(presenceOf(alice, alice)).getBoolean("online"),
          "a user always sees their own presence");
      assertEquals("invisible", kith.get("/me", alice.access()).expect(200).getJsonObject("settings")
          .getString("presence"));

      kith.put("/me/presence", alice.access(), new JsonObject().put("mode", "online")).expect(200);
      assertEquals(true, Await.result(presenceOf(bob, alice)).getBoolean("online"));
    }
  }

  @Test
  @DisplayName("a friends-only user looks offline to a user who is not their friend")
  void friendsOnlyMode() {
    User alice = kith.register();
    User bob = kith.register();
    try (BridgeSocket socket = connect(alice)) {
      awaitOnline(bob, alice, true);

      kith.put("/me/presence", alice.access(), new JsonObject().put("mode", "friends")).expect(200);

      assertEquals(false, Await.result(presenceOf(bob, alice)).getBoolean("online"));
      assertEquals(true, Await.result(presenceOf(alice, alice)).getBoolean("online"));
    }
  }

  @Test
  @DisplayName("a presence mode change is pushed to the user's own other bridge connection")
  void modeChangePushed() {
    User alice = kith.register();
    try (BridgeSocket phone = connect(alice);
         BridgeSocket laptop = BridgeSocket.connect(kith.client(), kith.port(),
             "access_token=" + URLEncoder.encode(alice.access(), StandardCharsets.UTF_8))) {
      // the URL token authenticates the second connection; its register frame needs no header
      laptop.register(alice.address(), null);
      awaitRegistered(alice, phone);
      awaitRegistered(alice, laptop);

      JsonObject mine = kith.put("/me/presence", alice.access(), new JsonObject().put("mode", "invisible"))
          .expect(200);
      assertEquals("invisible", mine.getString("mode"));

      for (BridgeSocket socket : List.of(laptop, phone)) {
        JsonObject push = socket.takeDelivery(alice.address(), WAIT, body -> "presence".equals(body.getString("kind"))
            && "invisible".equals(body.getString("mode"))).getJsonObject("body");
        assertEquals(alice.id(), push.getLong("user_id"), push.encode());
        assertEquals("invisible", push.getString("mode"), push.encode());
        assertEquals(true, push.getBoolean("online"), "alice is connected, though invisible to others: " + push);
      }

      kith.patch("/me", alice.access(), new JsonObject().put("settings", new JsonObject().put("presence", "friends")))
          .expect(200);
      JsonObject viaSettings = laptop.takeDelivery(alice.address(), WAIT,
          body -> "presence".equals(body.getString("kind")) && "friends".equals(body.getString("mode")))
          .getJsonObject("body");
      assertEquals(true, viaSettings.getBoolean("online"), "a mode change through PATCH /me is pushed too");
    }
  }

  /**
   * Waits until {@code socket}'s registration on the user's address is in place (the bridge does not acknowledge a
   * register frame): probes published on the address until one arrives.
   */
  private void awaitRegistered(User user, BridgeSocket socket) {
    String probe = java.util.UUID.randomUUID().toString();
    kith.eventually("the registration on " + user.address() + " to be in place", () -> {
      kith.kith().vertx().eventBus().publish(user.address(), new JsonObject().put("type", "probe").put("id", probe));
      return Future.succeededFuture(socket.pending().stream().anyMatch(f -> f.getValue("body") instanceof JsonObject
          && probe.equals(f.getJsonObject("body").getString("id"))));
    });
  }

  @Test
  @DisplayName("presence refusals: an unknown mode or a bad id list is 400 naming the field; no token is 401")
  void refusals() {
    User alice = kith.register();

    kith.put("/me/presence", alice.access(), new JsonObject().put("mode", "hiding"))
        .problem(400, "validation_failed", "mode");
    kith.post("/people/presence", alice.access(), new JsonObject().put("ids", new JsonArray()))
        .problem(400, "validation_failed", "ids");
    kith.post("/people/presence", alice.access(), new JsonObject().put("ids", new JsonArray().add("x")))
        .problem(400, "validation_failed", "ids.0");
    kith.put("/me/presence", null, new JsonObject().put("mode", "online")).problem(401, "unauthenticated");
    kith.post("/people/presence", null, new JsonObject().put("ids", new JsonArray().add(alice.id())))
        .problem(401, "unauthenticated");
    JsonObject unknown = kith.post("/people/presence", alice.access(),
        new JsonObject().put("ids", new JsonArray().add(alice.id() + 987_654_321L))).expect(200);
    assertEquals(new JsonObject(), unknown, "unknown users are absent");
  }
}
