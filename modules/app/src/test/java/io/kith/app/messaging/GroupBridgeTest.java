package io.kith.app.messaging;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;

import static io.kith.app.messaging.MessagingKith.API;
import static io.kith.app.messaging.MessagingKith.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Group messages over the SockJS bridge: room delivery, room access, revocation on kick")
class GroupBridgeTest {

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

  private static String room(long group) {
    return "kith.room.g" + group;
  }

  /** Registers the socket on the group's room and waits until a probe published there arrives. */
  private void listen(BridgeSocket socket, long group) {
    socket.register(room(group), null);
    kith.awaitRegistration(socket, room(group));
  }

  /** Waits for a message frame with this id on the group's room. */
  private static JsonObject delivered(BridgeSocket socket, long group, long id) {
    return socket.takeDelivery(room(group), WAIT, b -> "message".equals(b.getString("kind"))
        && b.getJsonObject("message").getLong("id") == id).getJsonObject("body").getJsonObject("message");
  }

  /** Waits until everything published to the user's address before now has reached the socket. */
  private void drain(BridgeSocket socket, User user) {
    String probe = UUID.randomUUID().toString();
    kith.kith().vertx().eventBus().publish(user.address(), new JsonObject().put("kind", "probe").put("id", probe));
    socket.takeDelivery(user.address(), WAIT, b -> probe.equals(b.getString("id")));
  }

  private static JsonObject bridgeSend(BridgeSocket socket, JsonObject body, JsonObject headers) {
    String reply = UUID.randomUUID().toString();
    socket.send("kith.messaging.send", body, reply, null, headers);
    return socket.takeReply(reply, WAIT);
  }

  @Test
  @DisplayName("members registered on the room receive group messages sent over the bridge (sender stamped, "
      + "whatever the client claims) and over HTTP; typing reaches the room; a non-member may not register")
  void roomDelivery() {
    User alice = kith.register();
    User bob = kith.register();
    User mallory = kith.register();
    long group = kith.group(alice, "topic");
    kith.post("/groups/" + group + "/join", bob, null).expect(200);
    try (BridgeSocket alicePhone = kith.connect(alice); BridgeSocket bobPhone = kith.connect(bob);
         BridgeSocket malloryPhone = kith.connect(mallory)) {
      listen(alicePhone, group);
      listen(bobPhone, group);

      JsonObject answer = bridgeSend(alicePhone, new JsonObject().put("group", group).put("text", "hi group")
              .put("client_id", UUID.randomUUID().toString()).put("sender", bob.id()),
          new JsonObject().put("kith-sender", Long.toString(bob.id())).put("Kith-Sender", Long.toString(bob.id())));
      assertEquals("rec", answer.getString("type"), answer.encode());
      JsonObject stored = answer.getJsonObject("body").getJsonObject("message");
      assertEquals(alice.id(), stored.getLong("sender"), "stamped as the bridge's user");
      JsonObject atBob = delivered(bobPhone, group, stored.getLong("id"));
      assertEquals("hi group", atBob.getString("text"));
      assertEquals(alice.id(), atBob.getLong("sender"));
      delivered(alicePhone, group, stored.getLong("id"));

      JsonObject viaHttp = kith.groupMessage(bob, group, "from bob's laptop");
      assertEquals(stored.getLong("seq") + 1, delivered(alicePhone, group, viaHttp.getLong("id")).getLong("seq"));

      String typing = UUID.randomUUID().toString();
      bobPhone.send("kith.messaging.typing", new JsonObject().put("conversation", group), typing, null, null);
      bobPhone.takeReply(typing, WAIT);
      assertEquals(bob.id(), alicePhone.takeDelivery(room(group), WAIT, b -> "typing".equals(b.getString("kind")))
          .getJsonObject("body").getLong("user"));

      // a non-member: the room is refused, and so is a send to the group
      malloryPhone.register(room(group), null);
      JsonObject denied = malloryPhone.take("a refusal", WAIT, f -> "err".equals(f.getString("type")));
      assertEquals("access_denied", denied.getString("body"), denied.encode());
      JsonObject refused = bridgeSend(malloryPhone, new JsonObject().put("group", group).put("text", "let me in")
          .put("client_id", UUID.randomUUID().toString()), null);
      assertEquals("err", refused.getString("type"), refused.encode());
      assertEquals(403, refused.getInteger("failureCode"));
      assertEquals("not_group_member", refused.getString("message"));
      JsonObject oversize = bridgeSend(alicePhone, new JsonObject().put("group", group).put("text", "x".repeat(4_001))
          .put("client_id", UUID.randomUUID().toString()), null);
      assertEquals(400, oversize.getInteger("failureCode"), oversize.encode());
      assertEquals("validation_failed", oversize.getString("message"));
    }
  }

  @Test
  @DisplayName("a kicked member who stays registered on the room receives nothing from the kick on, while the "
      + "others still do; registering again is refused")
  void kickedLosesLiveDelivery() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    long group = kith.group(alice, "topic");
    kith.post("/groups/" + group + "/join", bob, null).expect(200);
    kith.post("/groups/" + group + "/join", carol, null).expect(200);
    try (BridgeSocket bobPhone = kith.connect(bob); BridgeSocket carolPhone = kith.connect(carol)) {
      listen(bobPhone, group);
      listen(carolPhone, group);
      JsonObject before = kith.groupMessage(alice, group, "before the kick");
      delivered(bobPhone, group, before.getLong("id"));
      delivered(carolPhone, group, before.getLong("id"));

      kith.call(HttpMethod.DELETE, API + "/groups/" + group + "/members/" + bob.path(), alice.access(), null)
          .expectNoContent();
      JsonObject removed = bobPhone.takeDelivery(bob.address(), WAIT, b -> "group_removed".equals(b.getString("kind")))
          .getJsonObject("body");
      assertEquals(group, removed.getLong("group"));
      assertEquals("kicked", removed.getString("reason"));

      JsonObject after = kith.groupMessage(alice, group, "after the kick");
      delivered(carolPhone, group, after.getLong("id"));
      String typing = UUID.randomUUID().toString();
      carolPhone.send("kith.messaging.typing", new JsonObject().put("conversation", group), typing, null, null);
      carolPhone.takeReply(typing, WAIT);
      // everything published before this probe has reached bob's connection: nothing of the room since the kick
      drain(bobPhone, bob);
      assertFalse(bobPhone.pending().stream().anyMatch(f -> room(group).equals(f.getString("address"))
              && f.getValue("body") instanceof JsonObject && sinceKick(f.getJsonObject("body"), after.getLong("id"))),
          "bob still hears the room: " + bobPhone.pending());

      bobPhone.register(room(group), null);
      JsonObject denied = bobPhone.take("a refusal", WAIT, f -> "err".equals(f.getString("type")));
      assertEquals("access_denied", denied.getString("body"), denied.encode());
      JsonObject refused = bridgeSend(bobPhone, new JsonObject().put("group", group).put("text", "still here?")
          .put("client_id", UUID.randomUUID().toString()), null);
      assertEquals(403, refused.getInteger("failureCode"), refused.encode());
      kith.get("/conversations/" + group + "/messages", bob).problem(404, "conversation_not_found");
    }
  }

  @Test
  @DisplayName("dissolving a group stops its room for every member at once")
  void dissolvedRoomIsSilent() {
    User alice = kith.register();
    User bob = kith.register();
    kith.follow(alice, bob);
    kith.follow(bob, alice);
    long group = kith.post("/groups", alice, new JsonObject().put("kind", "friends").put("name", "Short lived")
        .put("members", new JsonArray().add(bob.id()))).expect(201).getLong("id");
    try (BridgeSocket bobPhone = kith.connect(bob)) {
      listen(bobPhone, group);
      kith.call(HttpMethod.DELETE, API + "/groups/" + group, alice.access(), null).expectNoContent();
      bobPhone.takeDelivery(bob.address(), WAIT, b -> "group_removed".equals(b.getString("kind"))
          && "dissolved".equals(b.getString("reason")));
      // whatever is published on the room now (a stray publisher) does not reach bob
      kith.kith().vertx().eventBus().publish(room(group), new JsonObject().put("kind", "probe").put("id", "late"));
      drain(bobPhone, bob);
      assertFalse(bobPhone.pending().stream().anyMatch(f -> room(group).equals(f.getString("address"))
              && f.getValue("body") instanceof JsonObject && "late".equals(f.getJsonObject("body").getString("id"))),
          "bob still hears the room: " + bobPhone.pending());
    }
  }

  /** Whether a room frame's body is one of what happened after the kick: the later message, typing, the kick. */
  private static boolean sinceKick(JsonObject body, long laterMessage) {
    String kind = body.getString("kind", "");
    return kind.equals("typing") || kind.equals("group_changed") && "kicked".equals(body.getString("change"))
        || kind.equals("message") && body.getJsonObject("message").getLong("id") == laterMessage;
  }
}
