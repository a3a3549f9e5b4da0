package io.kith.app.push;

import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.kith.app.support.User;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * One Kith node (accounts, relations, feeds, notifications, moderation, push and gateway) with a configured admin
 * ({@code moderation.admins}: registered on a first node sharing the stores), webhook receivers on loopback
 * allow-listed, quick retries, small announcement batches and the app-defined notification type {@value #BADGE}; the
 * admin API called as the admin.
 */
final class HooksKith extends TestKith {

  /** The app-defined notification type configured: {@code {badge: string, level: integer}}. */
  static final String BADGE = "badge_earned";
  /** The password of users made by {@link #registerKnown}. */
  static final String PASSWORD = "Sunny-days-42!";

  /** The configured admin. */
  final User admin;

  private HooksKith(JsonObject overrides, User admin) {
    super(overrides, "h");
    this.admin = admin;
  }

  /** Starts a node whose failing deliveries are retried for {@code retryHours}. */
  static HooksKith start(double retryHours) {
    return start(retryHours, new JsonArray());
  }

  /** As {@link #start(double)}, with these {@code push.webhooks.endpoints}. */
  static HooksKith start(double retryHours, JsonArray endpoints) {
    User admin;
    try (TestKith first = TestKith.node("h", "accounts", "gateway")) {
      admin = first.register();
    }
    JsonObject overrides = config("accounts", "relations", "feeds", "notifications", "moderation", "push", "gateway")
        .put("moderation", new JsonObject().put("admins", new JsonArray().add(admin.id())))
        .put("push", new JsonObject()
            .put("webhooks", new JsonObject().put("allow-hosts", new JsonArray().add("127.0.0.1"))
                .put("retry-hours", retryHours).put("backoff-base-ms", 50L).put("backoff-max-ms", 200L)
                .put("poll-ms", 50L).put("endpoints", endpoints))
            .put("announcements", new JsonObject().put("batch", 2).put("poll-ms", 50L)))
        .put("notifications", new JsonObject().put("custom-types", new JsonArray().add(new JsonObject()
            .put("name", BADGE).put("fields", new JsonObject().put("badge", "string").put("level", "integer")))));
    return new HooksKith(overrides, admin);
  }

  /** A call to the admin API ({@code path} below /api/v1/admin) as the admin. */
  Reply admin(HttpMethod method, String path, Object body) {
    return call(method, API + "/admin" + path, admin.access(), body);
  }

  /** A fresh user made moderator by the admin. */
  User moderator() {
    User mod = register();
    put("/admin/users/" + mod.path() + "/role", admin, new JsonObject().put("role", "moderator")).expect(200);
    return mod;
  }

  /** Registers an endpoint for {@code events} at {@code url}; returns its view with the secret. */
  JsonObject register(String url, String... events) {
    return admin(HttpMethod.POST, "/webhooks", new JsonObject().put("url", url)
        .put("events", new JsonArray(java.util.List.of(events)))).expect(201);
  }

  /** Waits until {@code condition} (on what a receiver recorded) holds. */
  void await(String what, BooleanSupplier condition) {
    Await.result(Poll.until(client(), WAIT, what, () -> Future.succeededFuture(condition.getAsBoolean())));
  }

  /** Waits until the endpoint's first page of deliveries satisfies {@code condition}; returns its items. */
  JsonArray awaitDeliveries(long endpoint, String what, Predicate<JsonArray> condition) {
    JsonArray[] last = new JsonArray[1];
    Await.result(Poll.until(client(), WAIT, what, () -> send(HttpMethod.GET,
        API + "/admin/webhooks/" + endpoint + "/deliveries?limit=100", admin.access(), null).map(reply -> {
          if (reply.status() != 200) {
            return false;
          }
          last[0] = reply.body().toJsonObject().getJsonArray("items");
          return condition.test(last[0]);
        })));
    return last[0];
  }

  /** Makes an API key with these scopes as the admin; returns its view with the key. */
  JsonObject apiKey(String... scopes) {
    return admin(HttpMethod.POST, "/api-keys", new JsonObject().put("name", unique("key"))
        .put("scopes", new JsonArray(java.util.List.of(scopes)))).expect(201);
  }

  /** Registers a user whose password is {@link #PASSWORD}. */
  User registerKnown() {
    String name = unique("hk");
    JsonObject body = call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", name)
        .put("password", PASSWORD)).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), name,
        body.getJsonObject("tokens").getString("access_token"));
  }

  /**
   * Removes every webhook endpoint, so that later test classes sharing the test kit's MongoDB queue no deliveries to
   * receivers that are gone.
   */
  void removeEndpoints() {
    for (Object e : admin(HttpMethod.GET, "/webhooks", null).expect(200).getJsonArray("items")) {
      admin(HttpMethod.DELETE, "/webhooks/" + ((JsonObject) e).getLong("id"), null).expectNoContent();
    }
  }

  @Override
  public void close() {
    try {
      removeEndpoints();
    } finally {
      super.close();
    }
  }
}
