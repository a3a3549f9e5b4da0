package io.kith.app.notifications;

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

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Notifications over HTTP: list, filters, counts, mark read, delete, grouping, preferences, refusals")
class NotificationsHttpTest {

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

  private static List<Long> ids(JsonObject page) {
    List<Long> out = new ArrayList<>();
    page.getJsonArray("items").forEach(n -> out.add(((JsonObject) n).getLong("id")));
    return out;
  }

  @Test
  @DisplayName("a follow, a like and a comment reach the author's list; filters, counts, mark read and delete work")
  void flow() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    long post = kith.publish(alice, "hello");
    kith.follow(bob, alice);
    // the follow's notification comes from the relations stream, the others from the feeds stream: wait for it, so
    // that the comment is the newest whichever stream's consumer runs first
    kith.awaitPage("/notifications", alice, "the follow's notification", p -> p.getJsonArray("items").size() == 1);
    kith.put("/posts/" + post + "/like", bob).expect(200);
    kith.put("/posts/" + post + "/like", carol).expect(200);
    kith.post("/posts/" + post + "/comments", bob, new JsonObject().put("text", "hi")).expect(201);

    JsonObject page = kith.awaitPage("/notifications", alice, "alice's four notifications",
        p -> p.getJsonArray("items").size() == 4);
    JsonObject newest = page.getJsonArray("items").getJsonObject(0);
    assertEquals("comment", newest.getString("type"));
    assertEquals(bob.id(), newest.getJsonObject("actor").getLong("id"));
    assertEquals(post, newest.getLong("post"));

    JsonObject likes = kith.get("/notifications?types=like&post=" + post, alice).expect(200);
    assertEquals(2, likes.getJsonArray("items").size(), likes.encode());
    JsonObject bobsLike = kith.get("/notifications?types=like,comment&from_user=" + bob.path(), alice).expect(200);
    assertEquals(2, bobsLike.getJsonArray("items").size(), bobsLike.encode());

    JsonObject counts = kith.get("/notifications/unread-counts", alice).expect(200);
    assertEquals(4, counts.getInteger("total"));
    assertEquals(2, counts.getJsonObject("by_type").getInteger("like"));

    JsonObject read = kith.post("/notifications/read", alice, new JsonObject().put("types", new JsonArray().add("like"))
        .put("where", new JsonObject().put("post", post))).expect(200);
    assertEquals(2, read.getInteger("changed"));
    assertEquals(2, read.getJsonObject("counts").getInteger("total"));
    assertEquals(2, kith.get("/notifications?unread=false", alice).expect(200).getJsonArray("items").size());

    JsonObject grouped = kith.get("/notifications/grouped", alice).expect(200);
    JsonObject likeGroup = grouped.getJsonArray("items").stream().map(g -> (JsonObject) g)
        .filter(g -> "like".equals(g.getString("type"))).findFirst().orElseThrow();
    assertEquals(2, likeGroup.getInteger("count"));
    assertEquals(2, likeGroup.getJsonArray("actors").size());
    assertEquals(carol.id(), likeGroup.getJsonArray("actors").getJsonObject(0).getLong("id"), "newest actor first");

    JsonObject deleted = kith.post("/notifications/delete", alice, new JsonObject()
        .put("where", new JsonObject().put("from_user", bob.id()))).expect(200);
    assertEquals(3, deleted.getInteger("deleted"));
    JsonObject all = kith.post("/notifications/read", alice, new JsonObject().put("all", true)).expect(200);
    assertEquals(0, all.getJsonObject("counts").getInteger("total"));
    assertEquals(1, kith.get("/notifications", alice).expect(200).getJsonArray("items").size());
  }

  @Test
  @DisplayName("mark-read calls past notifications.mark-reads-per-minute are 429 rate_limited with Retry-After and "
      + "mark nothing; another user is not affected")
  void markReadsLimited() {
    try (NotificationsKith limited = NotificationsKith.start(new JsonObject().put("mark-reads-per-minute", 3))) {
      User alice = limited.register();
      User bob = limited.register();
      User carol = limited.register();
      limited.follow(bob, alice);
      limited.follow(bob, carol);
      limited.awaitPage("/notifications", alice, "alice's follower", p -> p.getJsonArray("items").size() == 1);
      limited.awaitPage("/notifications", carol, "carol's follower", p -> p.getJsonArray("items").size() == 1);
      for (long unknown = 1; unknown <= 3; unknown++) {
        assertEquals(0, limited.post("/notifications/read", alice, new JsonObject()
            .put("ids", new JsonArray().add(unknown))).expect(200).getInteger("changed"));
      }

      limited.post("/notifications/read", alice, new JsonObject().put("all", true)).throttled("rate_limited", 60);
      limited.post("/notifications/read", alice, new JsonObject().put("types", new JsonArray().add("follower")))
          .throttled("rate_limited", 60);

      assertEquals(1, limited.get("/notifications/unread-counts", alice).expect(200).getInteger("total"));
      assertEquals(1, limited.post("/notifications/read", carol, new JsonObject().put("all", true)).expect(200)
          .getInteger("changed"));
    }
  }

  @Test
  @DisplayName("another user's notifications cannot be read, marked or deleted: their ids match nothing")
  void othersNotifications() {
    User alice = kith.register();
    User bob = kith.register();
    User mallory = kith.register();
    kith.follow(bob, alice);
    JsonObject page = kith.awaitPage("/notifications", alice, "alice's follower", p -> p.getJsonArray("items").size() == 1);
    long id = ids(page).get(0);

    assertEquals(0, kith.post("/notifications/read", mallory, new JsonObject().put("ids", new JsonArray().add(id)))
        .expect(200).getInteger("changed"));
    assertEquals(0, kith.post("/notifications/delete", mallory, new JsonObject().put("ids", new JsonArray().add(id)))
        .expect(200).getInteger("deleted"));
    assertEquals(List.of(), ids(kith.get("/notifications", mallory).expect(200)));
    assertEquals(List.of(id), ids(kith.get("/notifications", alice).expect(200)));
    assertEquals(1, kith.get("/notifications/unread-counts", alice).expect(200).getInteger("total"));
  }

  @Test
  @DisplayName("preferences: a muted type and a muted user produce nothing")
  void preferences() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    JsonObject prefs = kith.call(io.vertx.core.http.HttpMethod.PUT, NotificationsKith.API + "/notifications/preferences",
        alice.access(), new JsonObject().put("muted_types", new JsonArray().add("like"))).expect(200);
    assertEquals(new JsonArray().add("like"), prefs.getJsonArray("muted_types"));
    assertEquals(new JsonArray().add(carol.id()),
        kith.put("/notifications/preferences/muted-users/" + carol.path(), alice).expect(200)
            .getJsonArray("muted_users"));
    assertEquals(new JsonArray().add(carol.id()), kith.get("/notifications/preferences", alice).expect(200)
        .getJsonArray("muted_users"));

    long post = kith.publish(alice, "muted");
    kith.put("/posts/" + post + "/like", bob).expect(200);
    kith.follow(carol, alice);
    kith.follow(bob, alice);
    JsonObject page = kith.awaitPage("/notifications", alice, "bob's follow", p -> p.getJsonArray("items").size() >= 1);
    // bob's follow came after his like and carol's follow: those made nothing
    assertEquals(1, page.getJsonArray("items").size(), page.encode());
    assertEquals(bob.id(), page.getJsonArray("items").getJsonObject(0).getLong("from_user"));

    assertEquals(new JsonArray(), kith.delete("/notifications/preferences/muted-users/" + carol.path(), alice)
        .expect(200).getJsonArray("muted_users"));
  }

  @Test
  @DisplayName("refusals: no token, unknown types and fields, limits, ambiguous selections, bad preferences")
  void refusals() {
    User alice = kith.register();
    kith.get("/notifications", null).problem(401, "unauthenticated");
    kith.get("/notifications/unread-counts", null).problem(401, "unauthenticated");
    kith.post("/notifications/read", null, new JsonObject().put("all", true)).problem(401, "unauthenticated");
    kith.get("/notifications?types=like,poke", alice).problem(400, "validation_failed", "types");
    kith.get("/notifications?limit=0", alice).problem(400, "validation_failed", "limit");
    kith.get("/notifications?limit=101", alice).problem(400, "validation_failed", "limit");
    kith.get("/notifications?cursor=abc", alice).problem(400, "validation_failed", "cursor");
    kith.get("/notifications/grouped?cursor=0", alice).problem(400, "validation_failed", "cursor");
    kith.get("/notifications?post=abc", alice).problem(400, "validation_failed", "post");
    kith.get("/notifications/grouped?types=nope", alice).problem(400, "validation_failed", "types");
    JsonObject unknownField = kith.post("/notifications/read", alice, new JsonObject()
        .put("where", new JsonObject().put("colour", 1))).problem(400, "validation_failed");
    assertTrue(unknownField.getString("field", "").contains("where"), unknownField.encode());
    JsonObject unknownType = kith.post("/notifications/delete", alice, new JsonObject()
        .put("types", new JsonArray().add("poke"))).problem(400, "validation_failed");
    assertTrue(unknownType.getString("field", "").startsWith("types"), unknownType.encode());
    kith.post("/notifications/read", alice, new JsonObject().put("all", true).put("ids", new JsonArray().add(1)))
        .problem(400, "validation_failed", "ids");
    kith.post("/notifications/delete", alice, new JsonObject().put("all", true)).problem(400, "validation_failed");
    kith.post("/notifications/read", alice, new JsonObject().put("ids", new JsonArray())).problem(400,
        "validation_failed");
    kith.put("/notifications/preferences/muted-users/" + alice.path(), alice)
        .problem(400, "validation_failed", "userId");
    assertNotEquals(500, kith.get("/notifications/grouped?limit=5", alice).status());
  }
}
