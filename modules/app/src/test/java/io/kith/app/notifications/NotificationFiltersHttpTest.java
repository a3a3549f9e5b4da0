package io.kith.app.notifications;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.app.support.User;
import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Notification list filters: every condition the service supports is a query parameter, and an "
    + "undeclared one is refused")
class NotificationFiltersHttpTest {

  private static final long HOUR = 3_600_000L;

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

  private void append(String domain, String type, JsonObject payload) {
    Await.result(kith.kith().platform().events().append(domain, type, payload));
  }

  private void groupInvitation(long group, User by, User to) {
    append(MessagingEvents.DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", group)
        .put("name", "g" + group).put("kind", "topic").put("by", by.id()).put("invited", new JsonArray().add(to.id())));
  }

  private void activityInvitation(long activity, User organiser, User to) {
    long start = System.currentTimeMillis() + 24 * HOUR;
    append(ActivitiesEvents.DOMAIN, ActivitiesEvents.ACTIVITY_INVITED, new JsonObject().put("activity", activity)
        .put("organiser", organiser.id()).put("title", "walk " + activity).put("start", start)
        .put("end", start + HOUR).put("invited", new JsonArray().add(to.id())));
  }

  private void directMessage(long conversation, long message, User from, User to) {
    append(MessagingEvents.DOMAIN, MessagingEvents.MESSAGE_SENT, new JsonObject().put("message", message)
        .put("conversation", conversation).put("from", from.id()).put("kind", "direct")
        .put("to", new JsonArray().add(from.id()).add(to.id())).put("seq", 1).put("preview", "hi"));
  }

  private static List<Long> values(JsonObject page, String field) {
    List<Long> out = new ArrayList<>();
    page.getJsonArray("items").forEach(item -> out.add(((JsonObject) item).getLong(field)));
    return out;
  }

  @Test
  @DisplayName("activity, group, conversation and message each narrow the list to the notifications about that object")
  void filtersByObject() {
    User bob = kith.register();
    User alice = kith.register();
    User carol = kith.register();
    long g1 = KithTestKit.newUserId();
    long g2 = KithTestKit.newUserId();
    long a1 = KithTestKit.newUserId();
    long a2 = KithTestKit.newUserId();
    long c1 = KithTestKit.newUserId();
    long c2 = KithTestKit.newUserId();
    long m1 = KithTestKit.newUserId();
    long m2 = KithTestKit.newUserId();
    groupInvitation(g1, alice, bob);
    groupInvitation(g2, carol, bob);
    activityInvitation(a1, alice, bob);
    activityInvitation(a2, carol, bob);
    directMessage(c1, m1, alice, bob);
    directMessage(c2, m2, carol, bob);
    kith.awaitPage("/notifications?limit=100", bob, "six notifications", p -> p.getJsonArray("items").size() == 6);

    assertEquals(List.of(g1), values(kith.get("/notifications?group=" + g1, bob).expect(200), "group"));
    assertEquals(List.of(a2), values(kith.get("/notifications?activity=" + a2, bob).expect(200), "activity"));
    assertEquals(List.of(c1), values(kith.get("/notifications?conversation=" + c1, bob).expect(200),
        "conversation"));
    assertEquals(List.of(m2), values(kith.get("/notifications?message=" + m2, bob).expect(200), "message"));
    // conditions combine: alice's activity invitation, not carol's, nor alice's other notifications
    assertEquals(List.of(a1), values(kith.get("/notifications?types=activity_invitation&from_user=" + alice.id(),
        bob).expect(200), "activity"));
    assertTrue(kith.get("/notifications?activity=" + a1 + "&group=" + g1, bob).expect(200)
        .getJsonArray("items").isEmpty(), "no notification is about both");
    // another user's filter sees none of bob's notifications
    assertTrue(kith.get("/notifications?group=" + g1, alice).expect(200).getJsonArray("items").isEmpty());
  }

  @Test
  @DisplayName("types can name every notification type at once, and an unknown type is 400 naming types")
  void everyType() {
    User bob = kith.register();
    String all = String.join(",", io.kith.notifications.api.Notifications.TYPES);
    assertTrue(kith.get("/notifications?types=" + all, bob).expect(200).getJsonArray("items").isEmpty());
    assertTrue(kith.get("/notifications/grouped?types=" + all, bob).expect(200).getJsonArray("items").isEmpty());
    kith.get("/notifications?types=like,poke", bob).problem(400, "validation_failed", "types");
  }

  @Test
  @DisplayName("an undeclared query parameter is 400 unknown_query_parameter naming it, before anything is listed")
  void unknownQueryParameter() {
    User bob = kith.register();
    kith.get("/notifications?actvity=123", bob).problem(400, "unknown_query_parameter", "actvity");
    kith.get("/notifications?limit=5&Group=1", bob).problem(400, "unknown_query_parameter", "Group");
    kith.get("/notifications/unread-counts?all=true", bob).problem(400, "unknown_query_parameter", "all");
    // a declared one still works, and the refusal needs a caller first
    kith.get("/notifications?limit=5", bob).expect(200);
    assertEquals(401, kith.get("/notifications?actvity=123", null).status());
  }
}
