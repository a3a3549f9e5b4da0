package io.kith.app.messaging;

import io.kith.accounts.api.AccountsInternal;
import io.kith.activities.api.ActivitiesInternal;
import io.kith.app.support.BridgeSocket;
import io.kith.app.support.User;
import io.kith.feeds.api.FeedsInternal;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.WhiteboardInternal;
import io.kith.platform.testkit.KithTestKit;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.kith.app.messaging.MessagingKith.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Direct messages over the SockJS bridge")
class MessagingBridgeTest {

  private MessagingKith kith;

  @BeforeAll
  void start() {
    kith = MessagingKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private static JsonObject sendBody(User to, String text) {
    return new JsonObject().put("to", to.id()).put("text", text).put("client_id", UUID.randomUUID().toString());
  }

  /** Sends over the bridge and waits for the service's answer: the stored message. */
  private static JsonObject bridgeSend(BridgeSocket socket, User to, String text) {
    String reply = UUID.randomUUID().toString();
    socket.send("kith.messaging.send", sendBody(to, text), reply, null, null);
    JsonObject frame = socket.takeReply(reply, WAIT);
    assertEquals("rec", frame.getString("type"), frame.encode());
    return frame.getJsonObject("body").getJsonObject("message");
  }

  private static JsonObject delivered(BridgeSocket socket, User user, long id) {
    return socket.takeDelivery(user.address(), WAIT, b -> "message".equals(b.getString("kind"))
        && b.getJsonObject("message").getLong("id") == id).getJsonObject("body").getJsonObject("message");
  }

  @Test
  @DisplayName("a message sent over the bridge is stored as the bridge's user, whatever the client claims, and "
      + "delivered to the recipient and the sender's other connections")
  void sendAndDeliver() {
    User alice = kith.register();
    User bob = kith.register();
    try (BridgeSocket alicePhone = kith.connect(alice); BridgeSocket aliceLaptop = kith.connect(alice);
         BridgeSocket bobPhone = kith.connect(bob)) {
      String reply = UUID.randomUUID().toString();
      // a forged sender in the header and in the body: the bridge stamps alice over both
      alicePhone.send("kith.messaging.send", sendBody(bob, "hello bob").put("sender", bob.id()), reply, null,
          new JsonObject().put("kith-sender", Long.toString(bob.id())).put("Kith-Sender", Long.toString(bob.id())));
      JsonObject answer = alicePhone.takeReply(reply, WAIT);
      assertEquals("rec", answer.getString("type"), answer.encode());
      JsonObject stored = answer.getJsonObject("body").getJsonObject("message");
      assertEquals(alice.id(), stored.getLong("sender"));
      assertEquals(bob.id(), stored.getLong("to"));

      JsonObject atBob = delivered(bobPhone, bob, stored.getLong("id"));
      assertEquals("hello bob", atBob.getString("text"));
      assertEquals(alice.id(), atBob.getLong("sender"));
      assertEquals(stored.getLong("seq"), delivered(aliceLaptop, alice, stored.getLong("id")).getLong("seq"));

      // bob answers over the bridge; alice reads it and bob gets the read receipt
      JsonObject back = bridgeSend(bobPhone, alice, "hi alice");
      delivered(alicePhone, alice, back.getLong("id"));
      String readReply = UUID.randomUUID().toString();
      alicePhone.send("kith.messaging.read", new JsonObject().put("conversation", back.getLong("conversation"))
          .put("seq", back.getLong("seq")), readReply, null, null);
      assertEquals(back.getLong("seq"), alicePhone.takeReply(readReply, WAIT).getJsonObject("body")
          .getLong("read_seq"));
      JsonObject receipt = bobPhone.takeDelivery(bob.address(), WAIT, b -> "read".equals(b.getString("kind")))
          .getJsonObject("body");
      assertEquals(alice.id(), receipt.getLong("user"));
      assertEquals(back.getLong("seq"), receipt.getLong("seq"));

      // typing over the bridge reaches the peer only; a recall reaches both sides
      String typingReply = UUID.randomUUID().toString();
      bobPhone.send("kith.messaging.typing", new JsonObject().put("conversation", back.getLong("conversation")),
          typingReply, null, null);
      bobPhone.takeReply(typingReply, WAIT);
      JsonObject typing = alicePhone.takeDelivery(alice.address(), WAIT, b -> "typing".equals(b.getString("kind")))
          .getJsonObject("body");
      assertEquals(bob.id(), typing.getLong("user"));
      kith.post("/messages/" + stored.getLong("id") + "/recall", alice, null).expect(200);
      for (BridgeSocket socket : List.of(bobPhone, aliceLaptop)) {
        String address = socket == bobPhone ? bob.address() : alice.address();
        JsonObject recalled = socket.takeDelivery(address, WAIT, b -> "recalled".equals(b.getString("kind")))
            .getJsonObject("body");
        assertEquals(stored.getLong("id"), recalled.getLong("id"));
        assertEquals(stored.getLong("seq"), recalled.getLong("seq"));
      }
    }
  }

  @Test
  @DisplayName("refusals over the bridge: a recipient who blocks the sender (answered as a missing user), a service "
      + "address that is not inbound, another's room")
  void refusals() {
    User alice = kith.register();
    User bob = kith.register();
    kith.put("/me/blocks/" + alice.path(), bob, null);
    try (BridgeSocket socket = kith.connect(alice)) {
      String reply = UUID.randomUUID().toString();
      socket.send("kith.messaging.send", sendBody(bob, "let me in"), reply, null, null);
      JsonObject err = socket.takeReply(reply, WAIT);
      assertEquals("err", err.getString("type"), err.encode());
      assertEquals(404, err.getInteger("failureCode"), err.encode());
      assertEquals("user_not_found", err.getString("message"), err.encode());

      // the service proxy address is not client-facing: a forged actor argument cannot reach it
      socket.send("kith.messaging", new JsonObject().put("actor", bob.id()), UUID.randomUUID().toString(), null,
          new JsonObject().put("action", "history"));
      JsonObject denied = socket.take("a refusal", WAIT, f -> "err".equals(f.getString("type")));
      assertEquals("access_denied", denied.getString("body"), denied.encode());

      socket.register("kith.room.1", null);
      JsonObject room = socket.take("a refusal", WAIT, f -> "err".equals(f.getString("type")));
      assertEquals("access_denied", room.getString("body"), room.encode());
    }
  }

  @Test
  @DisplayName("no domain's internal address is reachable over the bridge: a send naming another user to each is "
      + "refused with access_denied")
  void internalAddressesAreNotInbound() {
    User alice = kith.register();
    User bob = kith.register();
    try (BridgeSocket socket = kith.connect(alice)) {
      for (String address : List.of(AccountsInternal.ADDRESS, RelationsInternal.ADDRESS, FeedsInternal.ADDRESS,
          ActivitiesInternal.ADDRESS, MessagingInternal.ADDRESS, WhiteboardInternal.ADDRESS)) {
        String reply = UUID.randomUUID().toString();
        socket.send(address, new JsonObject().put("userId", bob.id()).put("roomId", "g1"), reply, null,
            new JsonObject().put("action", "mayListen"));
        JsonObject denied = socket.takeReply(reply, WAIT);
        assertEquals("err", denied.getString("type"), address + ": " + denied.encode());
        assertEquals("access_denied", denied.getString("message"), address + ": " + denied.encode());
      }
    }
  }

  @Test
  @DisplayName("a client that disconnects and reconnects fetches exactly what it missed by sequence: no gap, no duplicate")
  void reconnect() {
    User alice = kith.register();
    User bob = kith.register();
    long conversation;
    long lastHeld;
    List<Long> seenLive = new ArrayList<>();
    try (BridgeSocket alicePhone = kith.connect(alice); BridgeSocket bobPhone = kith.connect(bob)) {
      for (int i = 0; i < 3; i++) {
        JsonObject m = bridgeSend(alicePhone, bob, "live " + i);
        seenLive.add(delivered(bobPhone, bob, m.getLong("id")).getLong("seq"));
      }
      conversation = kith.get("/conversations", bob).expect(200).getJsonArray("items").getJsonObject(0).getLong("id");
      lastHeld = seenLive.get(seenLive.size() - 1);
    }
    assertEquals(List.of(1L, 2L, 3L), seenLive);

    // bob is offline: alice goes on over the bridge and over HTTP, and bob writes from another device
    List<Long> missed = new ArrayList<>();
    try (BridgeSocket alicePhone = kith.connect(alice)) {
      for (int i = 0; i < 4; i++) {
        missed.add(bridgeSend(alicePhone, bob, "missed bridge " + i).getLong("id"));
        missed.add(kith.message(alice, bob, "missed http " + i).getLong("id"));
      }
    }
    missed.add(kith.message(bob, alice, "from bob's tablet").getLong("id"));

    try (BridgeSocket bobAgain = kith.connect(bob)) {
      List<JsonObject> fetched = kith.since(bob, conversation, lastHeld, 3);
      List<Long> ids = fetched.stream().map(m -> m.getLong("id")).toList();
      assertEquals(missed, ids, "exactly the missed messages, in order");
      List<Long> seqs = fetched.stream().map(m -> m.getLong("seq")).toList();
      for (int i = 0; i < seqs.size(); i++) {
        assertEquals(lastHeld + 1 + i, seqs.get(i), "no gap at " + i + ": " + seqs);
      }
      // and from now on it is live again
      JsonObject after = kith.message(alice, bob, "welcome back");
      assertEquals(lastHeld + missed.size() + 1, delivered(bobAgain, bob, after.getLong("id")).getLong("seq"));
      assertFalse(bobAgain.isClosed());
    }
  }
}
