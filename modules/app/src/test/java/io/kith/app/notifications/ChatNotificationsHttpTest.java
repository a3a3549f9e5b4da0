package io.kith.app.notifications;

import io.kith.accounts.api.AccountsService;
import io.kith.app.support.BridgeSocket;
import io.kith.app.support.User;
import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
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

import static io.kith.app.notifications.NotificationsKith.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Chat notifications end to end: a direct message tells its recipient only while offline")
class ChatNotificationsHttpTest {

  private NotificationsKith kith;

  @BeforeAll
  void start() {
    kith = NotificationsKith.start("messaging");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private void send(User from, User to, String text) {
    kith.post("/direct/" + to.path() + "/messages", from, new JsonObject().put("client_id", NotificationsKith.unique("c"))
        .put("text", text)).expect(201);
  }

  /** Waits until accounts sees {@code user} (as themselves) online or offline, as the bridge reported it. */
  private void awaitOnline(User user, boolean online) {
    AccountsService accounts = AccountsService.proxy(kith.kith().vertx());
    Await.result(Poll.until(kith.client(), WAIT, user.id() + (online ? " online" : " offline"), () ->
        accounts.presence(user.id(), List.of(user.id())).map(p ->
            p.getJsonObject(Long.toString(user.id())).getBoolean("online") == online)));
  }

  @Test
  @DisplayName("while connected over the bridge nothing is made; once offline, messages fold into one notification "
      + "per conversation; the new types work in filters, conditions and preferences")
  void offlineMessages() {
    User alice = kith.register();
    User bob = kith.register();
    try (BridgeSocket phone = kith.bridge(bob)) {
      awaitOnline(bob, true);
      send(alice, bob, "you there?");
      // a marker behind the message on the messaging stream: once it is handled, so is the message, while online
      long marker = KithTestKit.newUserId();
      Await.result(kith.kith().platform().events().append(MessagingEvents.DOMAIN, MessagingEvents.GROUP_INVITED,
          new JsonObject().put("group", marker).put("name", "marker").put("kind", "friends").put("by", marker)
              .put("invited", new JsonArray().add(bob.id()))));
      kith.awaitPage("/notifications?types=group_invitation", bob, "the marker", p -> p.getJsonArray("items")
          .size() == 1);
      kith.post("/notifications/delete", bob, new JsonObject().put("types", new JsonArray()
          .add("group_invitation"))).expect(200);
    }
    awaitOnline(bob, false);
    send(alice, bob, "call me");
    send(alice, bob, "please");
    // the stream is handled in order: had the first message made a notification, the count would be 3
    JsonObject page = kith.awaitPage("/notifications?types=message", bob, "bob's message notification",
        p -> p.getJsonArray("items").size() == 1 && p.getJsonArray("items").getJsonObject(0).getLong("count") == 2);
    JsonObject n = page.getJsonArray("items").getJsonObject(0);
    assertEquals(alice.id(), n.getLong("from_user"));
    assertEquals(alice.id(), n.getJsonObject("actor").getLong("id"));
    assertEquals("please", n.getString("preview"));
    JsonObject counts = kith.get("/notifications/unread-counts", bob).expect(200);
    assertEquals(1, counts.getInteger("total"), counts.encode());
    assertEquals(1, counts.getJsonObject("by_type").getInteger("message"));

    JsonObject prefs = kith.call(HttpMethod.PUT, NotificationsKith.API + "/notifications/preferences", bob.access(),
        new JsonObject().put("muted_types", new JsonArray().add("chat_mention").add("activity_starting_soon")))
        .expect(200);
    assertEquals(new JsonArray().add("chat_mention").add("activity_starting_soon"), prefs.getJsonArray("muted_types"));
    assertEquals(1, kith.post("/notifications/read", bob, new JsonObject().put("types", new JsonArray()
        .add("message").add("group_invitation"))).expect(200).getInteger("changed"));
    assertEquals(0, kith.get("/notifications?types=member_kicked,activity_updated", bob).expect(200)
        .getJsonArray("items").size());
    kith.get("/notifications?types=messages", bob).expect(400);
  }
}
