package io.kith.app.push;

import io.kith.app.support.User;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("System notifications over HTTP: app-defined types with checked fields, announcements to everyone")
class SystemNotificationsHttpTest extends HooksTest {

  private static final String PATH = "/api/v1/server/notifications";

  private static JsonObject badge(String badge, Object level) {
    return new JsonObject().put("type", HooksKith.BADGE)
        .put("fields", new JsonObject().put("badge", badge).put("level", level));
  }

  @Test
  @DisplayName("a badge notification with its fields reaches the user, is filtered by its type and counted unread")
  void reachesTheUser() {
    User user = kith.register();
    String key = kith.apiKey("notifications:write").getString("key");
    JsonObject sent = kith.call(HttpMethod.POST, PATH, key, badge("gold", 3)
        .put("user_ids", new JsonArray().add(user.id()))).expect(200);
    assertEquals(1, sent.getInteger("users"));

    JsonObject page = kith.awaitPage("/notifications?types=" + HooksKith.BADGE, user, "the badge notification",
        p -> p.getJsonArray("items").size() == 1);
    JsonObject n = page.getJsonArray("items").getJsonObject(0);
    assertEquals(HooksKith.BADGE, n.getString("type"));
    assertEquals(new JsonObject().put("badge", "gold").put("level", 3), n.getJsonObject("data"));
    assertTrue(n.getBoolean("unread"));
    JsonObject counts = kith.get("/notifications/unread-counts", user).expect(200);
    assertEquals(1, counts.getInteger("total"));
    assertEquals(1, counts.getJsonObject("by_type").getInteger(HooksKith.BADGE));
    assertEquals(0, counts.getJsonObject("by_type").getInteger("like"));

    // the same key again tells nobody twice
    kith.call(HttpMethod.POST, PATH, key, badge("gold", 3).put("user_ids", new JsonArray().add(user.id()))
        .put("key", "once")).expect(200);
    kith.call(HttpMethod.POST, PATH, key, badge("gold", 3).put("user_ids", new JsonArray().add(user.id()))
        .put("key", "once")).expect(200);
    kith.awaitPage("/notifications?types=" + HooksKith.BADGE, user, "two badge notifications",
        p -> p.getJsonArray("items").size() == 2);
    assertEquals(2, kith.get("/notifications/unread-counts", user).expect(200).getInteger("total"));
  }

  @Test
  @DisplayName("fields of the wrong type, missing, undeclared, or an unknown type are refused naming the field")
  void badFields() {
    User user = kith.register();
    String key = kith.apiKey("notifications:write").getString("key");
    JsonArray to = new JsonArray().add(user.id());
    kith.call(HttpMethod.POST, PATH, key, badge("gold", "high").put("user_ids", to))
        .problem(400, "validation_failed", "fields.level");
    kith.call(HttpMethod.POST, PATH, key, badge("gold", 1.5).put("user_ids", to))
        .problem(400, "validation_failed", "fields.level");
    kith.call(HttpMethod.POST, PATH, key, new JsonObject().put("type", HooksKith.BADGE).put("user_ids", to)
        .put("fields", new JsonObject().put("level", 2))).problem(400, "validation_failed", "fields.badge");
    kith.call(HttpMethod.POST, PATH, key, badge("gold", 2).put("user_ids", to)
        .put("fields", new JsonObject().put("badge", "gold").put("level", 2).put("color", "red")))
        .problem(400, "validation_failed", "fields.color");
    kith.call(HttpMethod.POST, PATH, key, badge("gold", 2).put("type", "like").put("user_ids", to))
        .problem(400, "validation_failed", "type");
    kith.call(HttpMethod.POST, PATH, key, badge("gold", 2)).problem(400, "validation_failed", "user_ids");
    // nothing of the refused requests was stored (another test's announcement to everyone may reach this user)
    JsonArray items = kith.get("/notifications?types=" + HooksKith.BADGE, user).expect(200).getJsonArray("items");
    assertTrue(items.stream().noneMatch(n -> "gold".equals(((JsonObject) n).getJsonObject("data").getString("badge"))),
        items.encode());
  }

  @Test
  @DisplayName("an account pending deletion and an unknown id get nothing; an announcement needs announcements:write")
  void refusals() {
    User active = kith.register();
    User leaving = kith.registerKnown();
    kith.call(HttpMethod.DELETE, "/api/v1/me", leaving.access(), new JsonObject()
        .put("password", HooksKith.PASSWORD)).expect(200);
    String key = kith.apiKey("notifications:write").getString("key");
    JsonObject sent = kith.call(HttpMethod.POST, PATH, key, badge("silver", 1).put("user_ids", new JsonArray()
        .add(active.id()).add(leaving.id()).add(HooksKith.MAX_ID))).expect(200);
    assertEquals(1, sent.getInteger("users"));
    kith.call(HttpMethod.POST, PATH, key, badge("silver", 1).put("all", true)).problem(403, "insufficient_scope");
    String reader = kith.apiKey("users:read").getString("key");
    kith.call(HttpMethod.POST, PATH, reader, badge("silver", 1).put("user_ids", new JsonArray().add(active.id())))
        .problem(403, "insufficient_scope");
  }

  @Test
  @DisplayName("an announcement to all is accepted at once and reaches several users, in batches in the background")
  void announcement() {
    List<User> users = List.of(kith.register(), kith.register(), kith.register(), kith.register(), kith.register());
    String key = kith.apiKey("announcements:write").getString("key");
    JsonObject accepted = kith.call(HttpMethod.POST, PATH, key, badge("launch", 1).put("all", true)).expect(202);
    assertTrue(accepted.getLong("announcement") > 0);
    for (User user : users) {
      JsonObject page = kith.awaitPage("/notifications?types=" + HooksKith.BADGE, user, "the announcement",
          p -> p.getJsonArray("items").size() == 1);
      assertEquals("launch", page.getJsonArray("items").getJsonObject(0).getJsonObject("data").getString("badge"));
    }
    kith.call(HttpMethod.POST, PATH, key, badge("launch", "x").put("all", true))
        .problem(400, "validation_failed", "fields.level");
  }
}
