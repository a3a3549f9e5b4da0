package io.kith.app.feeds;

import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.kith.app.feeds.FeedsKith.API;
import static io.kith.app.feeds.FeedsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Comments over HTTP: add, reply, list (also anonymously), delete, and who may do what")
class CommentsHttpTest {

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

  private JsonObject comment(long post, User as, String text) {
    return kith.post("/posts/" + post + "/comments", as, new JsonObject().put("text", text)).expect(201);
  }

  @Test
  @DisplayName("a comment answers 201 with its view; a reply names the comment it answers; the post counts them")
  void addAndReply() {
    User author = kith.register();
    User b = kith.register();
    long post = kith.publish(author, "discuss");

    JsonObject first = comment(post, b, "first!");
    assertEquals(post, first.getLong("post"), first.encode());
    assertEquals(b.id(), first.getJsonObject("author").getLong("id"), first.encode());
    assertEquals("first!", first.getString("text"));
    assertNull(first.getValue("reply_to"), first.encode());
    assertNotNull(first.getLong("created"), first.encode());

    JsonObject reply = kith.post("/posts/" + post + "/comments", author,
        new JsonObject().put("text", "thanks").put("reply_to", first.getLong("id"))).expect(201);
    assertEquals(first.getLong("id"), reply.getJsonObject("reply_to").getLong("id"), reply.encode());
    assertEquals(b.id(), reply.getJsonObject("reply_to").getJsonObject("author").getLong("id"), reply.encode());

    assertEquals(2, kith.get("/posts/" + post, null).expect(200).getJsonObject("counts").getInteger("comments"));
  }

  @Test
  @DisplayName("comments list newest first and page by next_cursor, for anonymous and signed-in readers")
  void list() {
    User author = kith.register();
    long post = kith.publish(author, "many comments");
    List<Long> made = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      made.add(comment(post, author, "c" + i).getLong("id"));
    }
    Collections.reverse(made);

    assertEquals(made, ids(kith.get("/posts/" + post + "/comments", null).expect(200)));
    assertEquals(made, kith.allIds("/posts/" + post + "/comments", author, 2));
    JsonObject page = kith.get("/posts/" + post + "/comments?limit=2", null).expect(200);
    assertEquals(made.subList(0, 2), ids(page));
    assertEquals(made.subList(2, 4), ids(kith.get("/posts/" + post + "/comments?limit=2&cursor="
        + page.getString("next_cursor"), null).expect(200)));
    assertEquals(made.subList(0, 1), ids(kith.get("/posts/" + post + "/comments?since_id=" + made.get(1), null)
        .expect(200)));
  }

  @Test
  @DisplayName("comments of a post the reader may not see are 404, to read and to write")
  void hiddenPost() {
    User author = kith.register();
    User stranger = kith.register();
    long post = kith.publish(author, "friends only", "friends").getLong("id");
    comment(post, author, "mine");

    kith.get("/posts/" + post + "/comments", null).problem(404, "post_not_found");
    kith.get("/posts/" + post + "/comments", stranger).problem(404, "post_not_found");
    kith.post("/posts/" + post + "/comments", stranger, new JsonObject().put("text", "hi"))
        .problem(404, "post_not_found");
    kith.post("/posts/" + (FeedsKith.MAX_ID - 9) + "/comments", stranger, new JsonObject().put("text", "hi"))
        .problem(404, "post_not_found");
  }

  @Test
  @DisplayName("the commenter or the post's author may delete a comment; another reader gets 403 not_author")
  void delete() {
    User author = kith.register();
    User commenter = kith.register();
    User other = kith.register();
    long post = kith.publish(author, "moderated");
    long byCommenter = comment(post, commenter, "one").getLong("id");
    long second = comment(post, commenter, "two").getLong("id");

    kith.delete("/comments/" + byCommenter, other).problem(403, "not_author");
    kith.delete("/comments/" + byCommenter, null).problem(401, "unauthenticated");
    kith.delete("/comments/" + byCommenter, commenter).expectNoContent();
    kith.delete("/comments/" + second, author).expectNoContent();

    assertEquals(List.of(), ids(kith.get("/posts/" + post + "/comments", other).expect(200)));
    kith.delete("/comments/" + byCommenter, other).problem(404, "comment_not_found");
    kith.delete("/comments/" + (FeedsKith.MAX_ID - 13), other).problem(404, "comment_not_found");
  }

  @Test
  @DisplayName("a comment on a post the deleter may not see is 404 comment_not_found")
  void deleteHidden() {
    User author = kith.register();
    User stranger = kith.register();
    long post = kith.publish(author, "friends only", "friends").getLong("id");
    long id = comment(post, author, "mine").getLong("id");

    kith.delete("/comments/" + id, stranger).problem(404, "comment_not_found");
    assertEquals(List.of(id), ids(kith.get("/posts/" + post + "/comments", author).expect(200)));
  }

  @Test
  @DisplayName("comment text is 1 to 2,000 characters and reply_to must be a comment of the same post")
  void badComments() {
    User a = kith.register();
    long post = kith.publish(a, "p");
    long otherPost = kith.publish(a, "q");
    long elsewhere = comment(otherPost, a, "elsewhere").getLong("id");

    kith.post("/posts/" + post + "/comments", a, new JsonObject().put("text", "")).problem(400, "validation_failed",
        "text");
    kith.post("/posts/" + post + "/comments", a, new JsonObject().put("text", "x".repeat(2001)))
        .problem(400, "validation_failed", "text");
    kith.post("/posts/" + post + "/comments", a, new JsonObject()).problem(400, "validation_failed", "text");
    kith.post("/posts/" + post + "/comments", a, new JsonObject().put("text", "x").put("author", 5))
        .problem(400, "validation_failed");
    kith.post("/posts/" + post + "/comments", a, new JsonObject().put("text", "x").put("reply_to", elsewhere))
        .problem(404, "comment_not_found");

    // NUL and other controls, and an unpaired surrogate sent as a JSON escape; line breaks are text
    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "del\\u007F")) {
      kith.call(HttpMethod.POST, API + "/posts/" + post + "/comments", a.access(),
          "{\"text\": \"" + escaped + "\"}").problem(400, "validation_failed", "text");
    }

    assertEquals(List.of(), ids(kith.get("/posts/" + post + "/comments", a).expect(200)));
    assertEquals(2000, comment(post, a, "y".repeat(2000)).getString("text").length());
    assertEquals("two\nlines", comment(post, a, "two\nlines").getString("text"));
  }
}
