package io.kith.app.accounts;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.kith.app.support.TestNode.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Presence pushed to friends over the SockJS bridge (accounts, relations, gateway): a friend hears a user come online
 * and go offline; a non-friend, and a friend of a user whose mode hides them, hear nothing.
 *
 * <p>That nothing arrived is known by a witness: a later presence change of another friend of the listener. Both
 * fan-outs are published by the accounts service one after the other, so the witness's push reaching the listener
 * means any push of the earlier change to it would have reached it first.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Presence pushed to friends over the bridge")
class PresenceFriendsBridgeTest {

  private TestKith kith;

  @BeforeAll
  void start() {
    // one node with accounts, relations (friends) and the gateway.
    kith = TestKith.node("pf", "accounts", "relations", "gateway");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** Takes the presence push about {@code user} with this online state from the listener's socket. */
  private static JsonObject presence(BridgeSocket socket, User listener, User user, boolean online) {
    return socket.takeDelivery(listener.address(), WAIT, body -> "presence".equals(body.getString("kind"))
        && body.getLong("user_id", 0L) == user.id() && Boolean.valueOf(online).equals(body.getBoolean("online")))
        .getJsonObject("body");
  }

  /** The presence pushes about {@code user} the socket received and the test did not take. */
  private static List<JsonObject> pushesAbout(BridgeSocket socket, User user) {
    return socket.pending().stream().filter(f -> f.getValue("body") instanceof JsonObject)
        .map(f -> f.getJsonObject("body"))
        .filter(b -> "presence".equals(b.getString("kind")) && b.getLong("user_id", 0L) == user.id()).toList();
  }

  @Test
  @DisplayName("a friend hears a user come online and go offline as {kind: presence}; a non-friend hears nothing")
  void friendHearsStrangerDoesNot() {
    User alice = kith.register();
    User friend = kith.register();
    User stranger = kith.register();
    User witness = kith.register();
    kith.befriend(alice, friend);
    kith.befriend(stranger, witness);
    try (BridgeSocket friendSocket = kith.bridge(friend); BridgeSocket strangerSocket = kith.bridge(stranger)) {
      BridgeSocket aliceSocket = kith.bridge(alice);
      JsonObject online = presence(friendSocket, friend, alice, true);
      assertEquals(new JsonObject().put("kind", "presence").put("user_id", alice.id()).put("online", true), online);

      try (BridgeSocket witnessSocket = kith.bridge(witness)) {
        presence(strangerSocket, stranger, witness, true);
        assertEquals(List.of(), pushesAbout(strangerSocket, alice), "a non-friend hears nothing of alice");
      }
      aliceSocket.close();
      presence(friendSocket, friend, alice, false);
    }
  }

  @Test
  @DisplayName("an invisible user's connection is not pushed to friends; the mode changes tell them offline, then online")
  void hiddenByMode() {
    User alice = kith.register();
    User friend = kith.register();
    User witness = kith.register();
    kith.befriend(alice, friend);
    kith.befriend(friend, witness);
    try (BridgeSocket friendSocket = kith.bridge(friend)) {
      kith.put("/me/presence", alice, new JsonObject().put("mode", "invisible")).expect(200);
      // the change to a hiding mode tells friends what they now see: offline
      presence(friendSocket, friend, alice, false);
      try (BridgeSocket aliceSocket = kith.bridge(alice); BridgeSocket witnessSocket = kith.bridge(witness)) {
        presence(friendSocket, friend, witness, true);
        assertEquals(List.of(), pushesAbout(friendSocket, alice), "an invisible user's connection is not pushed");

        kith.put("/me/presence", alice, new JsonObject().put("mode", "friends")).expect(200);
        presence(friendSocket, friend, alice, true);
      }
    }
  }
}
