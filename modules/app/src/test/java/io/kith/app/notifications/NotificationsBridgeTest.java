package io.kith.app.notifications;

import io.kith.app.support.BridgeSocket;
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

import static io.kith.app.notifications.NotificationsKith.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Notifications pushed over the SockJS bridge")
class NotificationsBridgeTest {

  private NotificationsKith kith;

  @BeforeAll
  void start() {
    kith = NotificationsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("a new notification and every count change reach all the user's connections; a reconnect fetches with since_id")
  void pushes() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    long post = kith.publish(alice, "watch me");
    long newestSeen;
    try (BridgeSocket phone = kith.bridge(alice); BridgeSocket laptop = kith.bridge(alice)) {
      kith.follow(bob, alice);
      for (BridgeSocket socket : java.util.List.of(phone, laptop)) {
        JsonObject push = socket.takeDelivery(alice.address(), WAIT, b -> "notification".equals(b.getString("kind")))
            .getJsonObject("body").getJsonObject("notification");
        assertEquals("follower", push.getString("type"), push.encode());
        assertEquals(bob.id(), push.getLong("from_user"));
        assertEquals(bob.id(), push.getJsonObject("actor").getLong("id"));
        JsonObject counts = socket.takeDelivery(alice.address(), WAIT, b -> "unread".equals(b.getString("kind")))
            .getJsonObject("body").getJsonObject("counts");
        assertEquals(1, counts.getInteger("total"), counts.encode());
        assertEquals(1, counts.getJsonObject("by_type").getInteger("follower"));
      }
      newestSeen = kith.get("/notifications", alice).expect(200).getLong("newest_id");

      // marking read is a count change: pushed too
      kith.post("/notifications/read", alice, new JsonObject().put("all", true)).expect(200);
      JsonObject zero = laptop.takeDelivery(alice.address(), WAIT, b -> "unread".equals(b.getString("kind"))
          && b.getJsonObject("counts").getInteger("total") == 0).getJsonObject("body");
      assertEquals(0, zero.getJsonObject("counts").getJsonObject("by_type").getInteger("follower"));
    }

    // offline: two things happen; back online, the client asks for what is newer than what it had
    kith.put("/posts/" + post + "/like", carol).expect(200);
    kith.post("/posts/" + post + "/comments", carol, new JsonObject().put("text", "nice")).expect(201);
    JsonObject missed = kith.awaitPage("/notifications?since_id=" + newestSeen, alice, "the two missed ones",
        p -> p.getJsonArray("items").size() == 2);
    JsonArray items = missed.getJsonArray("items");
    assertEquals("comment", items.getJsonObject(0).getString("type"));
    assertEquals("like", items.getJsonObject(1).getString("type"));
    assertEquals(2, kith.get("/notifications/unread-counts", alice).expect(200).getInteger("total"));
  }

  @Test
  @DisplayName("another user cannot register on someone's address to read their notifications")
  void othersAddress() {
    User alice = kith.register();
    User mallory = kith.register();
    try (BridgeSocket socket = BridgeSocket.connect(kith.client(), kith.port(), null)) {
      socket.register(alice.address(), mallory.access());
      JsonObject error = socket.take("a refusal", WAIT, f -> "err".equals(f.getString("type")));
      assertEquals("access_denied", error.getString("body"), error.encode());
    }
  }
}
