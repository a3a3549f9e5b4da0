package io.kith.app.push;

import io.kith.app.support.User;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Webhooks over HTTP: dead-lettering after the retry bound, replay, removal")
class WebhookDeadLetterHttpTest extends HooksTest {

  /** Retries end after about two seconds: the bound is what this class is about. */
  @Override
  protected double retryHours() {
    return 0.0005;
  }

  @Test
  @DisplayName("a delivery refused past push.webhooks.retry-hours is dead-lettered; its replay is delivered once the "
      + "endpoint answers")
  void deadLetterThenReplay() {
    String url = receiver.url("dead");
    JsonObject endpoint = kith.register(url, "user.registered");
    long id = endpoint.getLong("id");
    AtomicBoolean down = new AtomicBoolean(true);
    receiver.answer(url, b -> down.get() ? 500 : 200);
    User user = kith.register();

    JsonArray items = kith.awaitDeliveries(id, "the registration's delivery dead-lettered", list -> list.stream()
        .map(d -> (JsonObject) d).anyMatch(d -> "dead".equals(d.getString("state"))));
    JsonObject dead = items.stream().map(d -> (JsonObject) d).filter(d -> "dead".equals(d.getString("state")))
        .findFirst().orElseThrow();
    assertTrue(dead.getInteger("attempts") >= 2, dead.encode());
    assertEquals(500, dead.getJsonObject("last").getInteger("status"));
    int attempts = receiver.about(url, "user_id", user.id()).size();
    assertEquals(dead.getInteger("attempts"), attempts, "every attempt was recorded");

    down.set(false);
    JsonObject replay = kith.admin(HttpMethod.POST, "/webhooks/" + id + "/deliveries/" + dead.getLong("id")
        + "/replay", null).expect(201);
    assertEquals(dead.getLong("id"), replay.getLong("replay_of"));
    kith.awaitDeliveries(id, "the replay delivered", list -> list.stream().map(d -> (JsonObject) d)
        .anyMatch(d -> d.getLong("id").equals(replay.getLong("id")) && "delivered".equals(d.getString("state"))));
    Receiver.Hit last = receiver.about(url, "user_id", user.id()).get(attempts);
    assertEquals(receiver.about(url, "user_id", user.id()).get(0).body(), last.body(), "a replay sends the same body");
    assertEquals(user.id(), last.json().getJsonObject("data").getLong("user_id"));
    assertEquals(user.username(), last.json().getJsonObject("data").getString("username"));
  }

  @Test
  @DisplayName("replaying an unknown delivery or one of another endpoint is 404; a removed endpoint is gone")
  void refusals() {
    JsonObject a = kith.register(receiver.url("a"), "post.deleted");
    JsonObject b = kith.register(receiver.url("b"), "user.registered");
    User user = kith.register();
    JsonArray bs = kith.awaitDeliveries(b.getLong("id"), "b's delivery", list -> list.stream()
        .map(d -> (JsonObject) d).anyMatch(d -> d.getLong("event_id") > 0 && "delivered".equals(d.getString("state"))));
    assertTrue(receiver.about(receiver.url("b"), "user_id", user.id()).size() >= 1);
    long delivery = bs.getJsonObject(0).getLong("id");
    kith.admin(HttpMethod.POST, "/webhooks/" + a.getLong("id") + "/deliveries/" + delivery + "/replay", null)
        .problem(404, "delivery_not_found");
    kith.admin(HttpMethod.POST, "/webhooks/" + a.getLong("id") + "/deliveries/123/replay", null)
        .problem(404, "delivery_not_found");
    kith.admin(HttpMethod.DELETE, "/webhooks/" + a.getLong("id"), null).expectNoContent();
    kith.admin(HttpMethod.GET, "/webhooks/" + a.getLong("id"), null).problem(404, "webhook_not_found");
    kith.admin(HttpMethod.DELETE, "/webhooks/" + a.getLong("id"), null).problem(404, "webhook_not_found");
    JsonArray listed = kith.admin(HttpMethod.GET, "/webhooks", null).expect(200).getJsonArray("items");
    assertTrue(listed.stream().noneMatch(e -> ((JsonObject) e).getLong("id").equals(a.getLong("id"))));
    assertTrue(listed.stream().anyMatch(e -> ((JsonObject) e).getLong("id").equals(b.getLong("id"))));
  }
}
