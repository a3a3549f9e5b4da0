package io.kith.app.push;

import io.kith.app.support.User;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.kith.platform.testkit.Await;
import io.kith.app.support.Reply;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Server-to-server API keys over HTTP: made by an admin, shown once, scoped, revocable, audited")
class ApiKeysHttpTest extends HooksTest {

  private Reply withHeader(String path, String name, String value) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add(name, value);
    return Await.result(kith.send(HttpMethod.GET, "/api/v1" + path, null, headers, null));
  }

  @Test
  @DisplayName("a key with users:read reads a user's public summary, by bearer or X-Api-Key, and its use is recorded")
  void readsUsers() {
    User user = kith.register();
    JsonObject made = kith.apiKey("users:read");
    String key = made.getString("key");
    assertTrue(key.startsWith("kith_sk_") && key.length() > 40, key);
    JsonObject summary = kith.call(HttpMethod.GET, "/api/v1/server/users/" + user.id(), key, null).expect(200);
    assertEquals(user.username(), summary.getString("username"));
    assertEquals(user.username(), withHeader("/server/users/" + user.id(), "X-Api-Key", key).expect(200)
        .getString("username"));
    kith.call(HttpMethod.GET, "/api/v1/server/users/" + HooksKith.MAX_ID, key, null).problem(404, "user_not_found");

    JsonArray listed = kith.admin(HttpMethod.GET, "/api-keys", null).expect(200).getJsonArray("items");
    JsonObject view = listed.stream().map(k -> (JsonObject) k).filter(k -> k.getLong("id")
        .equals(made.getLong("id"))).findFirst().orElseThrow();
    assertFalse(view.containsKey("key"), "the key is shown once");
    assertFalse(view.containsKey("hash"));
    assertTrue(view.getLong("last_used") >= made.getLong("created"), view.encode());
  }

  @Test
  @DisplayName("a key past its scope is 403 insufficient_scope; a revoked key is 401 api_key_revoked")
  void scopeAndRevocation() {
    User user = kith.register();
    JsonObject writer = kith.apiKey("notifications:write");
    kith.call(HttpMethod.GET, "/api/v1/server/users/" + user.id(), writer.getString("key"), null)
        .problem(403, "insufficient_scope");
    JsonObject reader = kith.apiKey("users:read");
    kith.call(HttpMethod.GET, "/api/v1/server/users/" + user.id(), reader.getString("key"), null).expect(200);
    JsonObject revoked = kith.admin(HttpMethod.POST, "/api-keys/" + reader.getLong("id") + "/revoke", null)
        .expect(200);
    assertTrue(revoked.getLong("revoked") > 0);
    kith.call(HttpMethod.GET, "/api/v1/server/users/" + user.id(), reader.getString("key"), null)
        .problem(401, "api_key_revoked");
    kith.admin(HttpMethod.POST, "/api-keys/" + reader.getLong("id") + "/revoke", null).expect(200);
    kith.admin(HttpMethod.POST, "/api-keys/123/revoke", null).problem(404, "api_key_not_found");
  }

  @Test
  @DisplayName("a user's token, no key, or an unknown key on a server route is 401 with a code saying which")
  void notAKey() {
    User user = kith.register();
    kith.get("/server/users/" + user.id(), user).problem(401, "api_key_required");
    kith.get("/server/users/" + user.id(), null).problem(401, "api_key_required");
    kith.call(HttpMethod.GET, "/api/v1/server/users/" + user.id(), "kith_sk_nosuchkey", null)
        .problem(401, "api_key_invalid");
  }

  @Test
  @DisplayName("only an admin makes, lists and revokes keys: a user or a moderator is 403 role_required, no token "
      + "401, a key in a token's place 401; a key with webhooks:admin administers webhooks, another key does not")
  void operatorCredentials() {
    User user = kith.register();
    User mod = kith.moderator();
    JsonObject body = new JsonObject().put("name", "x").put("scopes", new JsonArray().add("users:read"));
    for (User notAdmin : List.of(user, mod)) {
      kith.post("/admin/api-keys", notAdmin, body).problem(403, "role_required");
      kith.get("/admin/api-keys", notAdmin).problem(403, "role_required");
      kith.post("/admin/api-keys/123/revoke", notAdmin, null).problem(403, "role_required");
    }
    kith.call(HttpMethod.POST, "/api/v1/admin/api-keys", null, body).problem(401, "unauthenticated");
    JsonObject hooks = kith.apiKey("webhooks:admin");
    kith.call(HttpMethod.POST, "/api/v1/admin/api-keys", hooks.getString("key"), body).problem(401, "token_invalid");
    kith.call(HttpMethod.GET, "/api/v1/admin/webhooks", hooks.getString("key"), null).expect(200);
    JsonObject reader = kith.apiKey("users:read");
    kith.call(HttpMethod.GET, "/api/v1/admin/webhooks", reader.getString("key"), null)
        .problem(403, "insufficient_scope");
    kith.admin(HttpMethod.POST, "/api-keys", new JsonObject().put("name", "x")
        .put("scopes", new JsonArray().add("everything"))).problem(400, "validation_failed", "scopes.0");
  }

  @Test
  @DisplayName("making and revoking a key, and registering, rotating and removing a webhook (by the admin or a "
      + "webhooks:admin key), are entries of the moderation audit log")
  void audited() {
    JsonObject made = kith.apiKey("users:read");
    kith.admin(HttpMethod.POST, "/api-keys/" + made.getLong("id") + "/revoke", null).expect(200);
    JsonObject created = auditEntry("api_key.create", made.getLong("id"));
    assertEquals(kith.admin.id(), created.getLong("actor"));
    assertEquals("users:read", created.getJsonObject("details").getJsonArray("scopes").getString(0));
    assertEquals(kith.admin.id(), auditEntry("api_key.revoke", made.getLong("id")).getLong("actor"));

    String hooksKey = kith.apiKey("webhooks:admin").getString("key");
    JsonObject endpoint = kith.call(HttpMethod.POST, "/api/v1/admin/webhooks", hooksKey, new JsonObject()
        .put("url", receiver.url("audited")).put("events", new JsonArray().add("post.published"))).expect(201);
    long id = endpoint.getLong("id");
    kith.admin(HttpMethod.POST, "/webhooks/" + id + "/rotate-secret", null).expect(200);
    kith.admin(HttpMethod.DELETE, "/webhooks/" + id, null).expectNoContent();
    JsonObject registered = auditEntry("webhook.register", id);
    assertEquals(0L, registered.getLong("actor"), "a key acted, not a user");
    assertTrue(registered.getJsonObject("details").getLong("api_key") > 0, registered.encode());
    assertEquals(receiver.url("audited"), registered.getJsonObject("details").getString("url"));
    assertEquals(kith.admin.id(), auditEntry("webhook.rotate_secret", id).getLong("actor"));
    assertEquals(kith.admin.id(), auditEntry("webhook.remove", id).getLong("actor"));
  }

  /** The one audit entry of {@code action} on target {@code id}. */
  private JsonObject auditEntry(String action, long id) {
    JsonArray items = kith.admin(HttpMethod.GET, "/audit?action=" + action + "&target_id=" + id, null).expect(200)
        .getJsonArray("items");
    assertEquals(1, items.size(), action + " of " + id + ": " + items.encode());
    return items.getJsonObject(0);
  }
}
