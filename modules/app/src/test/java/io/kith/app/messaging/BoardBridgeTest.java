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

import java.util.List;
import java.util.UUID;

import static io.kith.app.messaging.MessagingKith.API;
import static io.kith.app.messaging.MessagingKith.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Whiteboards over the SockJS bridge")
class BoardBridgeTest {

  private static final String STROKE = "kith.messaging.board.stroke";
  private static final String CLEAR = "kith.messaging.board.clear";

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

  private void friends(User a, User b) {
    kith.follow(a, b);
    kith.follow(b, a);
  }

  private long board(User owner, User... members) {
    JsonArray list = new JsonArray();
    for (User m : members) {
      list.add(m.id());
    }
    return kith.post("/boards", owner, new JsonObject().put("title", "live").put("members", list)).expect(201)
        .getLong("id");
  }

  private static String room(long board) {
    return "kith.room.b" + board;
  }

  /** Registers the socket on the board's room and waits until a probe published there arrives. */
  private void join(BridgeSocket socket, User user, long board) {
    socket.register(room(board), user.access());
    kith.awaitRegistration(socket, room(board));
  }

  /** Draws over the bridge and answers the reply frame. */
  private static JsonObject draw(BridgeSocket socket, long board, JsonObject stroke, JsonObject headers) {
    String reply = UUID.randomUUID().toString();
    socket.send(STROKE, new JsonObject().put("board", board).put("stroke", stroke), reply, null, headers);
    return socket.takeReply(reply, WAIT);
  }

  private static JsonObject relayed(BridgeSocket socket, long board, String clientId) {
    return socket.takeDelivery(room(board), WAIT, b -> "stroke".equals(b.getString("kind"))
        && clientId.equals(b.getJsonObject("stroke").getString("client_id"))).getJsonObject("body");
  }

  private static boolean holds(BridgeSocket socket, long board, String clientId) {
    return socket.pending().stream().anyMatch(f -> room(board).equals(f.getString("address"))
        && f.getValue("body") instanceof JsonObject && f.getJsonObject("body").getJsonObject("stroke") != null
        && clientId.equals(f.getJsonObject("body").getJsonObject("stroke").getString("client_id")));
  }

  @Test
  @DisplayName("members registered on the board's room receive strokes and clears live; the sender is the "
      + "bridge's user whatever the client claims")
  void liveStrokes() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    friends(alice, bob);
    friends(alice, carol);
    try (BridgeSocket a = kith.connect(alice); BridgeSocket b = kith.connect(bob);
         BridgeSocket c = kith.connect(carol)) {
      long board = board(alice, bob);
      // members learn of a board on their own address, when it is made and when they are added
      assertEquals(board, b.takeDelivery(bob.address(), WAIT, x -> "board_added".equals(x.getString("kind")))
          .getJsonObject("body").getJsonObject("board").getLong("id"));
      kith.post("/boards/" + board + "/members", alice, new JsonObject().put("users", new JsonArray().add(carol.id())))
          .expect(200);
      JsonObject added = c.takeDelivery(carol.address(), WAIT, x -> "board_added".equals(x.getString("kind")))
          .getJsonObject("body").getJsonObject("board");
      assertEquals(List.of(alice.id(), bob.id(), carol.id()), added.getJsonArray("members").getList());
      join(a, alice, board);
      join(b, bob, board);
      join(c, carol, board);
      JsonObject stroke = BoardHttpTest.stroke(5);
      // a forged sender header (two spellings) and body member: the bridge stamps alice over them
      JsonObject reply = draw(a, board, stroke.copy(), new JsonObject().put("kith-sender", Long.toString(bob.id()))
          .put("Kith-Sender", Long.toString(bob.id())));
      assertEquals("rec", reply.getString("type"), reply.encode());
      assertEquals(alice.id(), reply.getJsonObject("body").getLong("by"));
      long seq = reply.getJsonObject("body").getLong("seq");
      for (BridgeSocket s : List.of(a, b, c)) {
        JsonObject push = relayed(s, board, stroke.getString("client_id"));
        assertEquals(alice.id(), push.getLong("by"));
        assertEquals(seq, push.getLong("seq"));
        assertEquals(board, push.getLong("board"));
        assertEquals(stroke.getJsonArray("points"), push.getJsonObject("stroke").getJsonArray("points"));
      }
      JsonObject stored = kith.get("/boards/" + board + "/strokes", carol).expect(200).getJsonArray("items")
          .getJsonObject(0);
      assertEquals(alice.id(), stored.getLong("by"));

      // a clear over the bridge with a forged body sender, and a stroke over HTTP, reach everyone too
      String clearReply = UUID.randomUUID().toString();
      b.send(CLEAR, new JsonObject().put("board", board).put("sender", alice.id()), clearReply, null, null);
      JsonObject cleared = b.takeReply(clearReply, WAIT).getJsonObject("body");
      assertEquals(bob.id(), cleared.getLong("by"));
      for (BridgeSocket s : List.of(a, b, c)) {
        JsonObject push = s.takeDelivery(room(board), WAIT, x -> "clear".equals(x.getString("kind")))
            .getJsonObject("body");
        assertEquals(bob.id(), push.getLong("by"));
        assertEquals(cleared.getLong("seq"), push.getLong("seq"));
      }
      JsonObject overHttp = BoardHttpTest.stroke(2);
      kith.post("/boards/" + board + "/strokes", carol, overHttp).expect(201);
      for (BridgeSocket s : List.of(a, b, c)) {
        assertEquals(carol.id(), relayed(s, board, overHttp.getString("client_id")).getLong("by"));
      }
    }
  }

  @Test
  @DisplayName("refusals over the bridge: a non-member cannot register on a board's room nor on another group's, "
      + "and cannot draw even naming a member as the sender")
  void refusals() {
    User alice = kith.register();
    User bob = kith.register();
    User dave = kith.register();
    friends(alice, bob);
    friends(alice, dave);
    long board = board(alice, bob);
    long conversation = kith.message(alice, bob, "a conversation, not a group").getLong("conversation");
    try (BridgeSocket d = kith.connect(dave)) {
      for (String address : List.of(room(board), "kith.room.b" + (board + 1), "kith.room.g" + conversation,
          "kith.room.g" + board)) {
        d.register(address, null);
        JsonObject denied = d.take("the refusal of " + address, WAIT, f -> "err".equals(f.getString("type")));
        assertEquals("access_denied", denied.getString("body"), address + ": " + denied.encode());
      }
      String drawReply = UUID.randomUUID().toString();
      d.send(STROKE, new JsonObject().put("board", board).put("stroke", BoardHttpTest.stroke(2))
          .put("sender", alice.id()), drawReply, null, new JsonObject().put("kith-sender", Long.toString(alice.id())));
      JsonObject reply = d.takeReply(drawReply, WAIT);
      assertEquals("err", reply.getString("type"), reply.encode());
      assertEquals(404, reply.getInteger("failureCode"), reply.encode());
      assertEquals("board_not_found", reply.getString("message"), reply.encode());
      String clearReply = UUID.randomUUID().toString();
      d.send(CLEAR, new JsonObject().put("board", board), clearReply, null,
          new JsonObject().put("KITH-SENDER", Long.toString(bob.id())));
      assertEquals("board_not_found", d.takeReply(clearReply, WAIT).getString("message"));
      // a malformed frame is a 400 reply, not a lost one
      JsonObject bad = draw(d, board, new JsonObject().put("tool", "pen"), null);
      assertEquals(400, bad.getInteger("failureCode"), bad.encode());
    }
    assertEquals(0L, kith.get("/boards/" + board + "/strokes", alice).expect(200).getLong("last_seq"));
  }

  @Test
  @DisplayName("a removed member stays registered on the board's room but receives nothing from the removal on, "
      + "and cannot register again")
  void revocation() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    friends(alice, bob);
    friends(alice, carol);
    long board = board(alice, bob, carol);
    try (BridgeSocket a = kith.connect(alice); BridgeSocket b = kith.connect(bob);
         BridgeSocket c = kith.connect(carol)) {
      join(a, alice, board);
      join(b, bob, board);
      join(c, carol, board);
      JsonObject before = BoardHttpTest.stroke(2);
      assertEquals("rec", draw(a, board, before, null).getString("type"));
      relayed(b, board, before.getString("client_id"));
      relayed(c, board, before.getString("client_id"));

      kith.call(HttpMethod.DELETE, API + "/boards/" + board + "/members/" + bob.path(), alice.access(), null)
          .expectNoContent();
      assertEquals(board, b.takeDelivery(bob.address(), WAIT, x -> "board_removed".equals(x.getString("kind")))
          .getJsonObject("body").getLong("board"));
      JsonObject after = BoardHttpTest.stroke(2);
      assertEquals("rec", draw(a, board, after, null).getString("type"));
      relayed(c, board, after.getString("client_id"));
      // bob's connection is served in order: once a later message to his own address arrived, the stroke would have
      String probe = UUID.randomUUID().toString();
      kith.kith().vertx().eventBus().publish(bob.address(), new JsonObject().put("kind", "probe").put("id", probe));
      b.takeDelivery(bob.address(), WAIT, x -> probe.equals(x.getString("id")));
      assertFalse(holds(b, board, after.getString("client_id")), "the removed member received " + b.pending());
      assertFalse(b.isClosed());

      // registering again asks anew, and is refused
      b.register(room(board), null);
      JsonObject denied = b.take("the refusal", WAIT, f -> "err".equals(f.getString("type")));
      assertEquals("access_denied", denied.getString("body"), denied.encode());

      // the owner deletes the board: carol is told, and hears nothing of it afterwards
      kith.call(HttpMethod.DELETE, API + "/boards/" + board, alice.access(), null).expectNoContent();
      JsonObject gone = c.takeDelivery(room(board), WAIT, x -> "deleted".equals(x.getString("kind")))
          .getJsonObject("body");
      assertEquals(board, gone.getLong("board"));
      assertTrue(c.pending().stream().noneMatch(f -> room(board).equals(f.getString("address"))
          && f.getJsonObject("body") != null && "stroke".equals(f.getJsonObject("body").getString("kind"))));
    }
  }
}
