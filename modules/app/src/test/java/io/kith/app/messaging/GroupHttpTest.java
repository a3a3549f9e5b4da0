package io.kith.app.messaging;

import io.kith.app.support.Reply;
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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Chat groups over HTTP")
class GroupHttpTest {

  private static final int CAP = 3;

  private MessagingKith kith;

  @BeforeAll
  void start() {
    kith = MessagingKith.start(new JsonObject().put("group-member-cap", CAP));
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private Reply delete(String path, User as) {
    return kith.call(HttpMethod.DELETE, API + path, as == null ? null : as.access(), null);
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("client_id", UUID.randomUUID().toString()).put("text", text);
  }

  @Test
  @DisplayName("a topic group: create (201), search, join, send (201, retry 200), history, read, typing, members, "
      + "roles, rename, leave, dissolve")
  void topicFlow() {
    User alice = kith.register();
    User bob = kith.register();
    String topic = MessagingKith.unique("topic");
    JsonObject created = kith.post("/groups", alice, new JsonObject().put("kind", "topic").put("name", "Night owls")
        .put("topic", topic).put("about", "we chat late")).expect(201);
    long id = created.getLong("id");
    assertEquals("owner", created.getString("role"));
    assertEquals(CAP, created.getInteger("member_cap"));

    JsonArray found = kith.get("/groups?q=" + topic, bob).expect(200).getJsonArray("items");
    assertEquals(1, found.size());
    assertEquals(id, found.getJsonObject(0).getLong("id"));
    assertNull(found.getJsonObject(0).getString("role"));
    assertEquals("member", kith.post("/groups/" + id + "/join", bob, null).expect(200).getString("role"));

    JsonObject body = text("hello owls").put("mentions", new JsonArray().add(bob.id()));
    JsonObject sent = kith.post("/groups/" + id + "/messages", alice, body).expect(201);
    JsonObject m = sent.getJsonObject("message");
    assertEquals(new JsonArray().add(bob.id()), m.getJsonArray("mentions"));
    assertEquals(id, m.getLong("group"));
    assertTrue(kith.post("/groups/" + id + "/messages", alice, body).expect(200).getBoolean("duplicate"));
    kith.groupMessage(bob, id, "hoot");

    JsonObject page = kith.get("/conversations/" + id + "/messages", bob).expect(200);
    assertEquals(2, page.getJsonArray("items").size());
    JsonObject conv = kith.get("/conversations/" + id, bob).expect(200);
    assertEquals("group", conv.getString("kind"));
    assertEquals("Night owls", conv.getJsonObject("group").getString("name"));
    assertEquals(1L, conv.getLong("unread"));
    assertEquals(0L, kith.put("/conversations/" + id + "/read", bob, new JsonObject().put("seq", 2)).expect(200)
        .getLong("unread"));
    kith.post("/conversations/" + id + "/typing", bob, null).expectNoContent();
    assertTrue(kith.get("/conversations", bob).expect(200).getJsonArray("items").stream()
        .anyMatch(c -> ((JsonObject) c).getLong("id") == id && "group".equals(((JsonObject) c).getString("kind"))));

    JsonObject members = kith.get("/groups/" + id + "/members?limit=1", bob).expect(200);
    assertEquals(alice.id(), members.getJsonArray("items").getJsonObject(0).getJsonObject("user").getLong("id"));
    assertEquals(alice.username(), members.getJsonArray("items").getJsonObject(0).getJsonObject("user")
        .getString("username"));
    JsonObject second = kith.get("/groups/" + id + "/members?limit=1&cursor=" + members.getString("next_cursor"), bob)
        .expect(200);
    assertEquals(bob.id(), second.getJsonArray("items").getJsonObject(0).getJsonObject("user").getLong("id"));

    kith.patch("/groups/" + id, bob, new JsonObject().put("name", "Bob's owls"))
        .problem(403, "group_permission_denied");
    assertEquals("admin", kith.put("/groups/" + id + "/members/" + bob.path() + "/role", alice,
        new JsonObject().put("role", "admin")).expect(200).getString("role"));
    assertEquals("Bob's owls", kith.patch("/groups/" + id, bob, new JsonObject().put("name", "Bob's owls"))
        .expect(200).getString("name"));

    kith.post("/groups/" + id + "/leave", alice, null).expectNoContent();
    JsonObject after = kith.get("/groups/" + id, bob).expect(200);
    assertEquals(bob.id(), after.getLong("owner"), "the admin took over");
    delete("/groups/" + id, bob).expectNoContent();
    kith.get("/groups/" + id, bob).problem(404, "group_not_found");
    kith.get("/conversations/" + id + "/messages", bob).problem(404, "conversation_not_found");
  }

  @Test
  @DisplayName("a friend group: made with friends only, invisible to strangers, joined by invitation, declined")
  void friendFlow() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    User mallory = kith.register();
    for (User u : List.of(bob, carol)) {
      kith.follow(alice, u);
      kith.follow(u, alice);
    }
    kith.post("/groups", alice, new JsonObject().put("kind", "friends").put("name", "Close")
        .put("members", new JsonArray().add(bob.id()).add(mallory.id()))).problem(403, "not_friends", "members");
    long id = kith.post("/groups", alice, new JsonObject().put("kind", "friends").put("name", "Close")
        .put("members", new JsonArray().add(bob.id()))).expect(201).getLong("id");
    kith.get("/groups/" + id, mallory).problem(404, "group_not_found");
    kith.post("/groups/" + id + "/join", mallory, null).problem(404, "group_not_found");
    kith.post("/groups/" + id + "/invitations", alice, new JsonObject().put("users", new JsonArray().add(mallory.id())))
        .problem(403, "not_friends", "users");

    assertEquals(new JsonArray().add(carol.id()), kith.post("/groups/" + id + "/invitations", alice,
        new JsonObject().put("users", new JsonArray().add(carol.id()))).expect(200).getJsonArray("invited"));
    JsonObject invitations = kith.get("/me/group-invitations", carol).expect(200);
    assertEquals(id, invitations.getJsonArray("items").getJsonObject(0).getJsonObject("group").getLong("id"));
    assertEquals(alice.id(), invitations.getJsonArray("items").getJsonObject(0).getJsonObject("by").getLong("id"));
    delete("/me/group-invitations/" + id, carol).expectNoContent();
    kith.post("/groups/" + id + "/join", carol, null).problem(404, "group_not_found");

    kith.post("/groups/" + id + "/invitations", alice, new JsonObject().put("users", new JsonArray().add(carol.id())))
        .expect(200);
    assertTrue(kith.get("/groups/" + id, carol).expect(200).getBoolean("invited"));
    assertEquals(3L, kith.post("/groups/" + id + "/join", carol, null).expect(200).getLong("member_count"));
    assertEquals(0, kith.get("/me/group-invitations", carol).expect(200).getJsonArray("items").size());
  }

  @Test
  @DisplayName("refusals: a kicked member can neither post nor read; the member cap; oversize text; bad input; "
      + "no token")
  void refusals() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    User dave = kith.register();
    long id = kith.group(alice, "topic");
    kith.post("/groups/" + id + "/join", bob, null).expect(200);
    kith.post("/groups/" + id + "/join", carol, null).expect(200);
    // the cap of this node is 3
    kith.post("/groups/" + id + "/join", dave, null).problem(409, "group_full");

    delete("/groups/" + id + "/members/" + alice.path(), bob).problem(403, "group_permission_denied");
    delete("/groups/" + id + "/members/" + bob.path(), alice).expectNoContent();
    delete("/groups/" + id + "/members/" + bob.path(), alice).problem(404, "member_not_found");
    kith.post("/groups/" + id + "/messages", bob, text("still here?")).problem(403, "not_group_member");
    kith.get("/conversations/" + id + "/messages", bob).problem(404, "conversation_not_found");
    kith.put("/conversations/" + id + "/read", bob, new JsonObject().put("seq", 1))
        .problem(404, "conversation_not_found");
    kith.get("/groups/" + id + "/members", bob).problem(403, "not_group_member");
    // bob's place is free again: dave joins
    kith.post("/groups/" + id + "/join", dave, null).expect(200);

    kith.post("/groups/" + id + "/messages", alice, text("x".repeat(4_001))).problem(400, "validation_failed", "text");
    kith.post("/groups", alice, new JsonObject().put("kind", "secret").put("name", "x"))
        .problem(400, "validation_failed");
    kith.post("/groups", alice, new JsonObject().put("kind", "topic").put("name", "no topic"))
        .problem(400, "validation_failed", "topic");
    // NUL and other controls, and an unpaired surrogate sent as a JSON escape, in a name, a topic or an about
    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "esc\\u001B")) {
      kith.post("/groups", alice, "{\"kind\": \"friends\", \"name\": \"" + escaped + "\"}")
          .problem(400, "validation_failed", "name");
      kith.post("/groups", alice, "{\"kind\": \"topic\", \"name\": \"ok\", \"topic\": \"" + escaped + "\"}")
          .problem(400, "validation_failed", "topic");
      kith.post("/groups", alice, "{\"kind\": \"friends\", \"name\": \"ok\", \"about\": \"" + escaped + "\"}")
          .problem(400, "validation_failed", "about");
      kith.patch("/groups/" + id, alice, "{\"name\": \"" + escaped + "\"}").problem(400, "validation_failed", "name");
    }
    kith.post("/groups", alice, "{\"kind\": \"friends\", \"name\": \"two\\nlines\"}")
        .problem(400, "validation_failed", "name");
    JsonArray many = new JsonArray();
    for (int i = 1; i <= 51; i++) {
      many.add(i);
    }
    kith.post("/groups/" + id + "/invitations", alice, new JsonObject().put("users", many))
        .problem(400, "validation_failed");
    kith.get("/groups?q=", alice).problem(400, "validation_failed");
    kith.get("/groups/" + id, null).problem(401, "unauthenticated");
    kith.post("/groups/" + id + "/messages", null, text("anonymous")).problem(401, "unauthenticated");
    assertFalse(kith.get("/groups/" + id, carol).expect(200).getBoolean("invited"));
  }
}
