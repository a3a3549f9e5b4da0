package io.kith.app.moderation;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Content filters over HTTP: /api/v1/admin/filters, applied by every domain service")
class FiltersHttpTest {


  private TestKith kith;
  private User admin;
  private AddedFilters filters;

  @BeforeAll
  void start() {
    OperatorKith node = OperatorKith.start(OperatorKith.MODULES, new JsonObject());
    kith = node.kith();
    admin = node.admin();
    filters = new AddedFilters(kith, admin);
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      filters.removeAll();
      kith.close();
    }
  }

  private static String word() {
    return AddedFilters.word("spam");
  }

  private JsonObject add(JsonObject filter) {
    return filters.add(filter);
  }

  private Reply nickname(User user, String nickname) {
    return kith.patch("/me", user, new JsonObject().put("nickname", nickname));
  }

  // a change reaches the nodes by a publish: wait until the nickname probe answers as expected
  private void awaitNickname(User probe, String text, int status) {
    long deadline = System.currentTimeMillis() + 30_000;
    int last;
    do {
      last = nickname(probe, text).status();
      if (last == status) {
        return;
      }
      Thread.yield();
    } while (System.currentTimeMillis() < deadline);
    assertEquals(status, last, "the nickname probe after a filter change");
  }

  private static String fullWidth(String ascii) {
    StringBuilder out = new StringBuilder();
    ascii.chars().forEach(c -> out.appendCodePoint(c - 'a' + 'Ａ'));
    return out.toString();
  }

  private static String mixedCase(String ascii) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < ascii.length(); i++) {
      char c = ascii.charAt(i);
      out.append(i % 2 == 0 ? Character.toUpperCase(c) : c);
    }
    return out.toString();
  }

  private static JsonObject activity(String title) {
    long start = System.currentTimeMillis() + 86_400_000L;
    return new JsonObject().put("title", title).put("start", start).put("end", start + 7_200_000L)
        .put("place", new JsonObject().put("name", "The old mill"));
  }

  @Test
  @DisplayName("a word filter refuses posts, comments, direct and group messages, group names, nicknames and "
      + "activity titles and introductions with 422 content_refused naming the field, full-width, case and "
      + "zero-width variants included; text without the word passes")
  void refusesEverywhere() {
    String w = word();
    User alice = kith.register();
    User bob = kith.register();
    long post = kith.publish(bob, "a clean post");
    long group = kith.post("/groups", alice, new JsonObject().put("kind", "topic")
        .put("name", TestKith.unique("Clean ")).put("topic", "clean")).expect(201).getLong("id");
    long act = kith.post("/activities", alice, activity("A clean walk")).expect(201).getLong("id");
    add(new JsonObject().put("kind", "word").put("value", w));
    awaitNickname(alice, "I am " + w, 422);

    List<String> variants = List.of("buy " + w + " now", fullWidth(w) + "!", mixedCase(w),
        w.charAt(0) + "\u200b" + w.substring(1));
    for (String text : variants) {
      kith.post("/posts", alice, new JsonObject().put("text", text).put("visibility", "public"))
          .problem(422, "content_refused", "text");
      kith.post("/posts/" + post + "/comments", alice, new JsonObject().put("text", text))
          .problem(422, "content_refused", "text");
      kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject()
          .put("client_id", UUID.randomUUID().toString()).put("text", text)).problem(422, "content_refused", "text");
      kith.post("/groups/" + group + "/messages", alice, new JsonObject()
          .put("client_id", UUID.randomUUID().toString()).put("text", text)).problem(422, "content_refused", "text");
      kith.post("/groups", alice, new JsonObject().put("kind", "topic").put("name", text).put("topic", "x"))
          .problem(422, "content_refused", "name");
      kith.patch("/groups/" + group, alice, new JsonObject().put("name", text))
          .problem(422, "content_refused", "name");
      nickname(alice, text).problem(422, "content_refused", "nickname");
      kith.post("/activities", alice, activity(text)).problem(422, "content_refused", "title");
      kith.patch("/activities/" + act, alice, new JsonObject().put("introduction", "come: " + text))
          .problem(422, "content_refused", "introduction");
    }

    // a longer word holding it is another word; so are clean texts
    kith.post("/posts", alice, new JsonObject().put("text", "x" + w + "y").put("visibility", "public")).expect(201);
    nickname(alice, "Alice").expect(200);
    kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject()
        .put("client_id", UUID.randomUUID().toString()).put("text", "hello")).expect(201);
  }

  @Test
  @DisplayName("over the bridge a filtered direct message is refused with the same code (422 content_refused), a "
      + "clean one is sent")
  void bridge() {
    String w = word();
    User alice = kith.register();
    User bob = kith.register();
    add(new JsonObject().put("kind", "word").put("value", w));
    awaitNickname(alice, w, 422);
    try (BridgeSocket phone = kith.bridge(alice)) {
      JsonObject refused = bridgeSend(phone, new JsonObject().put("to", bob.id()).put("text", "hi " + fullWidth(w))
          .put("client_id", UUID.randomUUID().toString()));
      assertEquals("err", refused.getString("type"), refused.encode());
      assertEquals(422, refused.getInteger("failureCode"), refused.encode());
      assertEquals("content_refused", refused.getString("message"), refused.encode());
      JsonObject sent = bridgeSend(phone, new JsonObject().put("to", bob.id()).put("text", "hi bob")
          .put("client_id", UUID.randomUUID().toString()));
      assertEquals("rec", sent.getString("type"), sent.encode());
    }
  }

  private static JsonObject bridgeSend(BridgeSocket socket, JsonObject body) {
    String reply = UUID.randomUUID().toString();
    socket.send("kith.messaging.send", body, reply, null, null);
    return socket.takeReply(reply, Duration.ofSeconds(30));
  }

  @Test
  @DisplayName("a pattern filter applies only in its contexts; removing it lets the text through again; both "
      + "changes are in the audit log; the answers conform to the OpenAPI document")
  void patternContextsAndRemoval() {
    String w = word();
    User alice = kith.register();
    JsonObject filter = add(new JsonObject().put("kind", "pattern").put("value", w + "[0-9]+")
        .put("contexts", new JsonArray().add("nickname")));
    assertEquals("refuse", filter.getString("action"));
    assertEquals(List.of("nickname"), filter.getJsonArray("contexts").getList());
    awaitNickname(alice, "Me" + " " + w.toUpperCase() + "42", 422);
    nickname(alice, "Me " + w).expect(200);
    kith.post("/posts", alice, new JsonObject().put("text", w + "42").put("visibility", "public")).expect(201);

    JsonObject listed = kith.get("/admin/filters", admin).expect(200);
    Conformance contract = Conformance.load();
    assertEquals(List.of(), contract.problems("addContentFilter", 201, filter));
    assertEquals(List.of(), contract.problems("listContentFilters", 200, listed));
    assertTrue(listed.getJsonArray("items").stream().anyMatch(f -> ((JsonObject) f).getLong("id")
        .equals(filter.getLong("id"))), listed.encode());

    kith.delete("/admin/filters/" + filter.getLong("id"), admin).expectNoContent();
    awaitNickname(alice, "Me " + w + "42", 200);
    kith.delete("/admin/filters/" + filter.getLong("id"), admin).problem(404, "filter_not_found");

    JsonObject audit = kith.get("/admin/audit?target_id=" + filter.getLong("id"), admin).expect(200);
    List<String> actions = new ArrayList<>();
    audit.getJsonArray("items").forEach(e -> actions.add(((JsonObject) e).getString("action")));
    assertEquals(List.of("filter.remove", "filter.add"), actions);
  }

  @Test
  @DisplayName("a pattern that backtracks catastrophically gives up on its step budget: the request is answered "
      + "(as no match) instead of holding the node")
  void catastrophicPattern() {
    String w = word();
    User alice = kith.register();
    add(new JsonObject().put("kind", "pattern").put("value", w + "(a+)+z").put("contexts", new JsonArray()
        .add("nickname")));
    awaitNickname(alice, w + "az", 422);
    // 2^27 ways to split the run: without the budget this request would run for minutes
    nickname(alice, w + "a".repeat(27) + "!").expect(200);
    nickname(alice, w + "aaz").problem(422, "content_refused", "nickname");
  }

  @Test
  @DisplayName("only admins change filters (403 role_required for users and moderators), moderators read them, "
      + "unauthenticated is 401; a regex that does not compile and out-of-bounds fields are 400")
  void refusals() {
    User user = kith.register();
    User mod = kith.register();
    kith.put("/admin/users/" + mod.path() + "/role", admin, new JsonObject().put("role", "moderator")).expect(200);
    JsonObject filter = new JsonObject().put("kind", "word").put("value", word());

    kith.post("/admin/filters", user, filter).problem(403, "role_required");
    kith.post("/admin/filters", mod, filter).problem(403, "role_required");
    kith.post("/admin/filters", user, new JsonObject().put("kind", "pattern").put("value", "(unclosed"))
        .problem(403, "role_required");
    kith.get("/admin/filters", user).problem(403, "role_required");
    kith.get("/admin/filters", mod).expect(200);
    kith.post("/admin/filters", null, filter).problem(401, "unauthenticated");

    kith.post("/admin/filters", admin, new JsonObject().put("kind", "pattern").put("value", "(unclosed"))
        .problem(400, "validation_failed", "value");
    kith.post("/admin/filters", admin, new JsonObject().put("kind", "word").put("value", "x".repeat(201)))
        .problem(400, "validation_failed");
    kith.post("/admin/filters", admin, new JsonObject().put("kind", "word").put("value", "x")
        .put("contexts", new JsonArray().add("planet"))).problem(400, "validation_failed");
    kith.post("/admin/filters", admin, new JsonObject().put("kind", "regexp").put("value", "x"))
        .problem(400, "validation_failed");
    long kept = add(filter).getLong("id");
    kith.delete("/admin/filters/" + kept, mod).problem(403, "role_required");
    kith.delete("/admin/filters/" + kept, user).problem(403, "role_required");
  }
}
