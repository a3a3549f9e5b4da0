package io.kith.app.feeds;

import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.kith.app.feeds.FeedsKith.ids;
import static io.kith.app.feeds.FeedsKith.userIds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Likes and reposts over HTTP: like state and counts, likers, liked posts, reposts and their originals")
class LikesRepostsHttpTest {

  private FeedsKith kith;

  @BeforeAll
  void start() {
    kith = FeedsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private static JsonObject state(boolean liked, int count) {
    return new JsonObject().put("liked", liked).put("like_count", count);
  }

  @Test
  @DisplayName("PUT and DELETE /like are idempotent and answer 200 {liked, like_count}")
  void likeUnlike() {
    User author = kith.register();
    User a = kith.register();
    User b = kith.register();
    long post = kith.publish(author, "like me");

    assertEquals(state(true, 1), kith.put("/posts/" + post + "/like", a).expect(200));
    assertEquals(state(true, 1), kith.put("/posts/" + post + "/like", a).expect(200));
    assertEquals(state(true, 2), kith.put("/posts/" + post + "/like", b).expect(200));
    assertEquals(true, kith.get("/posts/" + post, a).expect(200).getJsonObject("viewer").getBoolean("liked"));
    assertEquals(2, kith.get("/posts/" + post, null).expect(200).getJsonObject("counts").getInteger("likes"));

    assertEquals(state(false, 1), kith.delete("/posts/" + post + "/like", a).expect(200));
    assertEquals(state(false, 1), kith.delete("/posts/" + post + "/like", a).expect(200));
    assertEquals(false, kith.get("/posts/" + post, a).expect(200).getJsonObject("viewer").getBoolean("liked"));
  }

  @Test
  @DisplayName("likers list most recent first, also anonymously; the liker's own likes list the post")
  void likersAndLikedPosts() {
    User author = kith.register();
    User a = kith.register();
    User b = kith.register();
    long first = kith.publish(author, "one");
    long second = kith.publish(author, "two");
    kith.put("/posts/" + first + "/like", a).expect(200);
    kith.put("/posts/" + first + "/like", b).expect(200);
    kith.put("/posts/" + second + "/like", a).expect(200);

    JsonObject likers = kith.get("/posts/" + first + "/likes", null).expect(200);
    assertEquals(List.of(b.id(), a.id()), userIds(likers));
    assertTrue(likers.getJsonArray("items").getJsonObject(0).getLong("at") > 0, likers.encode());
    assertEquals(List.of(b.id(), a.id()), userIds(kith.get("/posts/" + first + "/likes", author).expect(200)));
    JsonObject page = kith.get("/posts/" + first + "/likes?limit=1", a).expect(200);
    assertEquals(List.of(b.id()), userIds(page));
    assertEquals(List.of(a.id()), userIds(kith.get("/posts/" + first + "/likes?limit=1&cursor="
        + page.getString("next_cursor"), a).expect(200)));

    assertEquals(List.of(second, first), ids(kith.get("/me/likes", a).expect(200)));
    JsonObject liked = kith.get("/me/likes?limit=1", a).expect(200);
    assertEquals(List.of(second), ids(liked));
    assertEquals(List.of(first), ids(kith.get("/me/likes?limit=1&cursor=" + liked.getString("next_cursor"), a)
        .expect(200)));
    kith.delete("/posts/" + second + "/like", a).expect(200);
    assertEquals(List.of(first), ids(kith.get("/me/likes", a).expect(200)));
  }

  @Test
  @DisplayName("liking, or listing likers of, a post the user may not see is 404; liking needs a token")
  void hiddenLikes() {
    User author = kith.register();
    User stranger = kith.register();
    long post = kith.publish(author, "friends", "friends").getLong("id");
    kith.put("/posts/" + post + "/like", author).expect(200);

    kith.put("/posts/" + post + "/like", stranger).problem(404, "post_not_found");
    kith.delete("/posts/" + post + "/like", stranger).problem(404, "post_not_found");
    kith.get("/posts/" + post + "/likes", stranger).problem(404, "post_not_found");
    kith.get("/posts/" + post + "/likes", null).problem(404, "post_not_found");
    kith.put("/posts/" + post + "/like", null).problem(401, "unauthenticated");
    assertEquals(List.of(author.id()), userIds(kith.get("/posts/" + post + "/likes", author).expect(200)));
  }

  @Test
  @DisplayName("a repost answers 201 with the original embedded; the original counts it and lists it")
  void repost() {
    User author = kith.register();
    User b = kith.register();
    User c = kith.register();
    long original = kith.publish(author, "worth sharing");

    JsonObject repost = kith.post("/posts/" + original + "/reposts", b, new JsonObject().put("text", "look"))
        .expect(201);
    long repostId = repost.getLong("id");
    assertEquals("look", repost.getString("text"));
    assertEquals(b.id(), repost.getJsonObject("author").getLong("id"));
    JsonObject of = repost.getJsonObject("repost_of");
    assertEquals("visible", of.getString("state"), repost.encode());
    assertEquals(original, of.getJsonObject("post").getLong("id"), repost.encode());

    // reposting the repost reposts the original; an empty body is fine
    JsonObject again = kith.post("/posts/" + repostId + "/reposts", c, null).expect(201);
    assertEquals(original, again.getJsonObject("repost_of").getJsonObject("post").getLong("id"), again.encode());

    JsonObject counts = kith.get("/posts/" + original, null).expect(200).getJsonObject("counts");
    assertEquals(2, counts.getInteger("reposts"), counts.encode());
    assertEquals(true, kith.get("/posts/" + original, b).expect(200).getJsonObject("viewer")
        .getBoolean("reposted"));
    assertEquals(List.of(again.getLong("id"), repostId),
        ids(kith.get("/posts/" + original + "/reposts", null).expect(200)));
    assertEquals(List.of(again.getLong("id")),
        ids(kith.get("/posts/" + original + "/reposts?limit=1", author).expect(200)));
  }

  @Test
  @DisplayName("after the original is deleted a repost shows repost_of state deleted")
  void repostOfDeleted() {
    User author = kith.register();
    User b = kith.register();
    long original = kith.publish(author, "soon gone");
    long repost = kith.post("/posts/" + original + "/reposts", b, new JsonObject()).expect(201).getLong("id");

    kith.delete("/posts/" + original, author).expectNoContent();

    JsonObject view = kith.get("/posts/" + repost, null).expect(200);
    assertEquals(new JsonObject().put("state", "deleted"), view.getJsonObject("repost_of"));
    kith.post("/posts/" + original + "/reposts", b, null).problem(404, "post_not_found");
  }

  @Test
  @DisplayName("reposting a post the user may not see is 404; reposts need a token and valid bodies")
  void repostRefusals() {
    User author = kith.register();
    User stranger = kith.register();
    long hidden = kith.publish(author, "friends", "friends").getLong("id");
    long open = kith.publish(author, "open");

    kith.post("/posts/" + hidden + "/reposts", stranger, null).problem(404, "post_not_found");
    kith.get("/posts/" + hidden + "/reposts", stranger).problem(404, "post_not_found");
    kith.post("/posts/" + open + "/reposts", null, null).problem(401, "unauthenticated");
    kith.post("/posts/" + open + "/reposts", stranger, new JsonObject().put("visibility", "everyone"))
        .problem(400, "validation_failed", "visibility");
    kith.post("/posts/" + open + "/reposts", stranger, new JsonObject().put("text", "x".repeat(5001)))
        .problem(400, "validation_failed", "text");
    assertEquals(List.of(), ids(kith.get("/posts/" + open + "/reposts", author).expect(200)));
  }
}
