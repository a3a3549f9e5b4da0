package io.kith.app.notifications;

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

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A notifications page shows only what its reader may still see of the posts it names; feeds answers that from its
 * post cache, so each test reads the page first (filling the cache with the post as visible), changes the post or
 * the relation, and reads the page again at once: no poll, the very next page must follow the change.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Notifications over HTTP: a page follows a change of its posts' visibility at once")
class NotificationVisibilityHttpTest {

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

  /** Bob mentions alice in a public post; answers the post's id once alice's page shows the mention. */
  private long mention(User bob, User alice) {
    long post = kith.post("/posts", bob, new JsonObject().put("text", "hi @" + alice.username())
        .put("mentions", new JsonArray().add(alice.id()))).expect(201).getLong("id");
    JsonObject page = kith.awaitPage("/notifications?types=mention", alice, "alice's mention",
        p -> p.getJsonArray("items").size() == 1);
    assertEquals(post, page.getJsonArray("items").getJsonObject(0).getLong("post"), page.encode());
    return post;
  }

  @Test
  @DisplayName("a mention disappears from the very next page once its author makes the post private")
  void editedToPrivate() {
    User alice = kith.register();
    User bob = kith.register();
    long post = mention(bob, alice);
    kith.patch("/posts/" + post, bob, new JsonObject().put("visibility", "private")).expect(200);

    assertEquals(List.of(), TestKith.ids(kith.get("/notifications?types=mention", alice).expect(200)));
  }

  @Test
  @DisplayName("a mention disappears from the very next page once its author leaves the reader out of the audience")
  void audienceNarrowed() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    long post = mention(bob, alice);
    kith.patch("/posts/" + post, bob, new JsonObject().put("visibility", "only")
        .put("audience", new JsonObject().put("users", new JsonArray().add(carol.id())))).expect(200);

    assertEquals(List.of(), TestKith.ids(kith.get("/notifications?types=mention", alice).expect(200)));
  }

  @Test
  @DisplayName("a like on a post disappears from its author's very next page once the post is deleted")
  void deleted() {
    User alice = kith.register();
    User bob = kith.register();
    long post = kith.publish(alice, "like me");
    kith.put("/posts/" + post + "/like", bob).expect(200);
    kith.awaitPage("/notifications?types=like", alice, "bob's like", p -> p.getJsonArray("items").size() == 1);
    kith.delete("/posts/" + post, alice).expectNoContent();

    assertEquals(List.of(), TestKith.ids(kith.get("/notifications?types=like", alice).expect(200)));
  }

  @Test
  @DisplayName("a mention disappears from the very next page once its author blocks the reader, the post unchanged")
  void blocked() {
    User alice = kith.register();
    User bob = kith.register();
    mention(bob, alice);
    kith.put("/me/blocks/" + alice.path(), bob).expectNoContent();

    assertEquals(List.of(), TestKith.ids(kith.get("/notifications?types=mention", alice).expect(200)));
  }

  @Test
  @DisplayName("an unchanged post's mention stays on the page read after read")
  void unchanged() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    long post = mention(bob, alice);
    kith.put("/posts/" + post + "/like", carol).expect(200);

    for (int read = 0; read < 3; read++) {
      JsonObject page = kith.get("/notifications?types=mention", alice).expect(200);
      assertEquals(1, page.getJsonArray("items").size(), page.encode());
    }
  }
}
