package io.kith.app.messaging;

import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Direct messages over HTTP")
class MessagingHttpTest {

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

  @Test
  @DisplayName("send (201, a retry 200), list conversations, page history, mark read, readers, recall, all as the "
      + "token's user")
  void conversationFlow() {
    User alice = kith.register();
    User bob = kith.register();
    kith.get("/direct/" + bob.path() + "/conversation", alice).problem(404, "conversation_not_found");
    JsonObject body = new JsonObject().put("client_id", "c-1").put("text", "hi bob");
    JsonObject sent = kith.post("/direct/" + bob.path() + "/messages", alice, body).expect(201);
    assertFalse(sent.getBoolean("duplicate"));
    JsonObject m1 = sent.getJsonObject("message");
    assertEquals(alice.id(), m1.getLong("sender"));
    assertEquals(1L, m1.getLong("seq"));
    JsonObject retry = kith.post("/direct/" + bob.path() + "/messages", alice, body).expect(200);
    assertTrue(retry.getBoolean("duplicate"));
    assertEquals(m1.getLong("id"), retry.getJsonObject("message").getLong("id"));
    long conversation = m1.getLong("conversation");
    assertEquals(conversation, kith.get("/direct/" + bob.path() + "/conversation", alice).expect(200).getLong("id"));
    assertEquals(conversation, kith.get("/direct/" + alice.path() + "/conversation", bob).expect(200).getLong("id"));
    kith.message(bob, alice, "hi alice");
    kith.message(alice, bob, "how are you");

    JsonArray convs = kith.get("/conversations", bob).expect(200).getJsonArray("items");
    assertEquals(1, convs.size());
    JsonObject c = convs.getJsonObject(0);
    assertEquals(conversation, c.getLong("id"));
    assertEquals(alice.id(), c.getJsonObject("peer").getLong("id"));
    assertEquals(alice.username(), c.getJsonObject("peer").getString("username"));
    assertEquals("how are you", c.getJsonObject("last_message").getString("text"));
    assertEquals(2L, c.getLong("unread"));

    JsonObject page = kith.get("/conversations/" + conversation + "/messages?limit=2", bob).expect(200);
    assertEquals(List.of(2L, 3L), List.of(page.getJsonArray("items").getJsonObject(0).getLong("seq"),
        page.getJsonArray("items").getJsonObject(1).getLong("seq")));
    assertEquals(1, kith.get("/conversations/" + conversation + "/messages?before_seq=2", bob).expect(200)
        .getJsonArray("items").size());

    JsonObject read = kith.put("/conversations/" + conversation + "/read", bob, new JsonObject().put("seq", 3))
        .expect(200);
    assertEquals(3L, read.getLong("read_seq"));
    assertEquals(0L, read.getLong("unread"));
    assertEquals(0L, kith.get("/conversations/" + conversation, bob).expect(200).getLong("unread"));

    // read receipts: bob's marker passed alice's first message; only she may ask who read it
    JsonObject readers = kith.get("/messages/" + m1.getLong("id") + "/readers", alice).expect(200);
    assertEquals(1L, readers.getLong("read_count"));
    assertEquals(bob.id(), readers.getJsonArray("items").getJsonObject(0).getJsonObject("user").getLong("id"));
    kith.get("/messages/" + m1.getLong("id") + "/readers", bob).problem(403, "not_your_message");
    kith.get("/messages/" + m1.getLong("id") + "/readers?limit=101", alice).problem(400, "validation_failed");
    kith.get("/messages/" + m1.getLong("id") + "/readers?cursor=-1", alice).problem(400, "validation_failed", "cursor");

    JsonObject recalled = kith.post("/messages/" + m1.getLong("id") + "/recall", alice, null).expect(200);
    assertTrue(recalled.getBoolean("recalled"));
    kith.post("/messages/" + m1.getLong("id") + "/recall", bob, null).problem(403, "not_your_message");
    kith.post("/conversations/" + conversation + "/typing", bob, null).expectNoContent();
  }

  @Test
  @DisplayName("message text with NUL, other controls or an unpaired surrogate (sent as a JSON escape) is 400 "
      + "validation_failed naming text and sends nothing; line breaks and emoji pass")
  void controlsAndLoneSurrogatesRefused() {
    User alice = kith.register();
    User bob = kith.register();
    long conversation = kith.message(alice, bob, "first").getLong("conversation");

    int n = 0;
    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "bell\\u0007")) {
      kith.post("/direct/" + bob.path() + "/messages", alice,
          "{\"client_id\": \"bad-" + n++ + "\", \"text\": \"" + escaped + "\"}")
          .problem(400, "validation_failed", "text");
    }

    assertEquals(1, kith.get("/conversations/" + conversation + "/messages", bob).expect(200).getJsonArray("items")
        .size());
    JsonObject ok = kith.post("/direct/" + bob.path() + "/messages", alice,
        "{\"client_id\": \"ok\", \"text\": \"one\\ntwo \\uD83D\\uDE00\"}").expect(201);
    assertEquals("one\ntwo \uD83D\uDE00", ok.getJsonObject("message").getString("text"));
  }

  @Test
  @DisplayName("read markers past messaging.mark-reads-per-minute are 429 rate_limited with Retry-After and move "
      + "nothing; another user is not affected")
  void markReadsLimited() {
    try (MessagingKith limited = MessagingKith.start(new JsonObject().put("mark-reads-per-minute", 3))) {
      User alice = limited.register();
      User bob = limited.register();
      long conversation = limited.message(alice, bob, "one").getLong("conversation");
      limited.message(alice, bob, "two");
      limited.message(alice, bob, "three");
      String read = "/conversations/" + conversation + "/read";
      for (int seq = 0; seq < 3; seq++) {
        assertEquals(seq, limited.put(read, bob, new JsonObject().put("seq", seq)).expect(200).getLong("read_seq"));
      }

      limited.put(read, bob, new JsonObject().put("seq", 3)).throttled("rate_limited", 60);

      assertEquals(1L, limited.get("/conversations/" + conversation, bob).expect(200).getLong("unread"));
      assertEquals(3L, limited.put(read, alice, new JsonObject().put("seq", 3)).expect(200).getLong("read_seq"));
    }
  }

  @Test
  @DisplayName("history over HTTP pages after sequence 0 from the first message (0 is a position, not \"none\"), "
      + "without a cursor gives the newest page, and refuses a cursor that is not a sequence number with 400")
  void historyAfterSequenceZero() {
    User alice = kith.register();
    User bob = kith.register();
    long conversation = kith.message(alice, bob, "one").getLong("conversation");
    kith.message(alice, bob, "two");
    kith.message(alice, bob, "three");
    String messages = "/conversations/" + conversation + "/messages?limit=1";

    JsonObject first = kith.get(messages + "&after_seq=0", bob).expect(200);
    assertEquals(1L, first.getJsonArray("items").getJsonObject(0).getLong("seq"));
    assertEquals(3L, first.getLong("last_seq"));
    assertEquals(3L, kith.get(messages, bob).expect(200).getJsonArray("items").getJsonObject(0).getLong("seq"));
    kith.get(messages + "&after_seq=x", bob).problem(400, "validation_failed");
    kith.get(messages + "&after_seq=-1", bob).problem(400, "validation_failed");
  }

  @Test
  @DisplayName("the conversations list pages over HTTP: the next of a page is accepted as before")
  void conversationsPaging() {
    User me = kith.register();
    List<Long> convs = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      convs.add(0, kith.message(kith.register(), me, "hi " + i).getLong("conversation"));
    }
    List<Long> seen = new java.util.ArrayList<>();
    String next = null;
    do {
      JsonObject page = kith.get("/conversations?limit=2" + (next == null ? "" : "&cursor=" + next), me).expect(200);
      page.getJsonArray("items").forEach(c -> seen.add(((JsonObject) c).getLong("id")));
      next = page.getString("next_cursor");
    } while (next != null);
    assertEquals(convs, seen);
  }

  @Test
  @DisplayName("refusals: not a party 404, oversize text 400, blocked 403, friends-only 403, anonymous 401")
  void refusals() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    long conversation = kith.message(alice, bob, "private").getLong("conversation");
    kith.get("/conversations/" + conversation + "/messages", carol).problem(404, "conversation_not_found");
    kith.get("/conversations/" + conversation, carol).problem(404, "conversation_not_found");
    kith.put("/conversations/" + conversation + "/read", carol, new JsonObject().put("seq", 1))
        .problem(404, "conversation_not_found");
    kith.get("/conversations/" + conversation + "/messages", null).problem(401, "unauthenticated");

    kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject().put("client_id", "big")
        .put("text", "x".repeat(4_001))).problem(400, "validation_failed", "text");
    kith.get("/conversations/" + conversation + "/messages?limit=101", alice).problem(400, "validation_failed");

    kith.put("/me/blocks/" + alice.path(), bob, null);
    kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject().put("client_id", "b1")
        .put("text", "blocked?")).problem(404, "user_not_found", "to");

    assertEquals("friends", kith.patch("/me/messaging-settings", carol, new JsonObject()
        .put("messages_from", "friends")).expect(200).getString("messages_from"));
    kith.post("/direct/" + carol.path() + "/messages", alice, new JsonObject().put("client_id", "f1")
        .put("text", "stranger")).problem(403, "message_not_allowed");
    kith.patch("/me/messaging-settings", carol, new JsonObject().put("messages_from", "nobody"))
        .problem(400, "validation_failed");
    assertEquals("friends", kith.get("/me/messaging-settings", carol).expect(200).getString("messages_from"));
  }
}
