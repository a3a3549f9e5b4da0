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
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a chat screen needs in one call: messages with their senders' summaries, and a batch user lookup. */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Screens in one call over HTTP: sender summaries on messages, GET /users?ids=")
class ScreensHttpTest {

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

  private static List<Long> ids(JsonArray items) {
    return items.stream().map(i -> ((JsonObject) i).getLong("id")).toList();
  }

  @Test
  @DisplayName("group history and the conversation list's last message carry each sender's summary")
  void senderSummaries() {
    User alice = kith.register();
    User bob = kith.register();
    kith.patch("/me", bob, new JsonObject().put("nickname", "Bobby")).expect(200);
    long group = kith.group(alice, "topic");
    kith.post("/groups/" + group + "/join", bob, null).expect(200);
    kith.groupMessage(alice, group, "hello");
    kith.groupMessage(bob, group, "hi");

    JsonArray items = kith.get("/conversations/" + group + "/messages", bob).expect(200).getJsonArray("items");
    assertEquals(2, items.size(), items.encode());
    JsonObject first = items.getJsonObject(0).getJsonObject("sender_summary");
    JsonObject second = items.getJsonObject(1).getJsonObject("sender_summary");
    assertEquals(alice.id(), first.getLong("id"));
    assertEquals(alice.username(), first.getString("username"));
    assertEquals(bob.id(), second.getLong("id"));
    assertEquals("Bobby", second.getString("nickname"));

    JsonObject conversation = kith.get("/conversations", alice).expect(200).getJsonArray("items").stream()
        .map(JsonObject.class::cast).filter(c -> c.getLong("id") == group).findFirst().orElseThrow();
    JsonObject last = conversation.getJsonObject("last_message");
    assertEquals(bob.id(), last.getLong("sender"));
    assertEquals("Bobby", last.getJsonObject("sender_summary").getString("nickname"));
    assertEquals(bob.id(), kith.get("/conversations/" + group, alice).expect(200)
        .getJsonObject("last_message").getJsonObject("sender_summary").getLong("id"));
  }

  @Test
  @DisplayName("direct history carries the sender's summary, and a stranger still cannot read it")
  void directHistory() {
    User alice = kith.register();
    User bob = kith.register();
    User stranger = kith.register();
    long conversation = kith.message(alice, bob, "hey").getLong("conversation");
    JsonObject m = kith.get("/conversations/" + conversation + "/messages", bob).expect(200)
        .getJsonArray("items").getJsonObject(0);
    assertEquals(alice.username(), m.getJsonObject("sender_summary").getString("username"));
    kith.get("/conversations/" + conversation + "/messages", stranger).problem(404, "conversation_not_found");
  }

  @Test
  @DisplayName("GET /users?ids= answers the summaries in the order asked; unknown and blocked users are absent")
  void batchLookup() {
    User viewer = kith.register();
    User a = kith.register();
    User b = kith.register();
    User blocker = kith.register();
    User blocked = kith.register();
    kith.put("/me/blocks/" + viewer.path(), blocker).expectNoContent();
    kith.put("/me/blocks/" + blocked.path(), viewer).expectNoContent();
    long unknown = b.id() + 987_654_321L;

    JsonArray items = kith.get("/users?ids=" + b.id() + "," + unknown + "," + a.id() + "," + blocker.id() + ","
        + blocked.id() + "," + b.id(), viewer).expect(200).getJsonArray("items");
    assertEquals(List.of(b.id(), a.id()), ids(items));
    assertEquals(a.username(), items.getJsonObject(1).getString("username"));
    // the blocked side sees the same: the viewer is absent to the user they block
    assertEquals(List.of(), ids(kith.get("/users?ids=" + viewer.id(), blocked).expect(200).getJsonArray("items")));
  }

  @Test
  @DisplayName("GET /users?ids= refuses more than 100 ids, no ids and ids that are not ids with 400, and anonymous callers")
  void batchLookupRefusals() {
    User viewer = kith.register();
    String hundred = LongStream.rangeClosed(1, 100).mapToObj(Long::toString).collect(Collectors.joining(","));
    assertEquals(List.of(), ids(kith.get("/users?ids=" + hundred, viewer).expect(200).getJsonArray("items")));
    kith.get("/users?ids=" + hundred + ",101", viewer).problem(400, "validation_failed");
    kith.get("/users", viewer).problem(400, "validation_failed");
    kith.get("/users?ids=abc", viewer).problem(400, "validation_failed");
    kith.get("/users?ids=0", viewer).problem(400, "validation_failed");
    kith.get("/users?ids=" + viewer.id(), null).problem(401, "unauthenticated");
  }
}
