package io.kith.app.feeds;

import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.kith.app.feeds.FeedsKith.API;
import static io.kith.app.feeds.FeedsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A client that did not get the answer to a publish (a node died, a 503, a timeout) sends it again with the same
 * {@code client_id}; the post must exist once (issue 19: no duplicate after a fault).
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Post retries: a publish or repost sent again with its client_id is stored once")
class PostRetriesHttpTest {

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

  private static JsonObject post(String text, String clientId) {
    return new JsonObject().put("text", text).put("client_id", clientId);
  }

  @Test
  @DisplayName("a publish sent again with its client_id answers 201 with the stored post, and the author has it once")
  void retryAnswersTheStoredPost() {
    User a = kith.register();
    String clientId = UUID.randomUUID().toString();
    JsonObject first = kith.post("/posts", a, post("only once", clientId)).expect(201);

    JsonObject again = kith.post("/posts", a, post("only once", clientId)).expect(201);

    assertEquals(first.getLong("id"), again.getLong("id"), again.encode());
    assertEquals(first.getLong("created"), again.getLong("created"), again.encode());
    assertEquals("only once", again.getString("text"));
    assertEquals(List.of(first.getLong("id")), ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
  }

  @Test
  @DisplayName("tries sent at once with one client_id all answer the same post, and one is stored")
  void concurrentTriesStoreOne() {
    User a = kith.register();
    String clientId = UUID.randomUUID().toString();
    List<Future<Reply>> tries = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      tries.add(kith.send(HttpMethod.POST, API + "/posts", a.access(), post("at once", clientId)));
    }
    Await.result(Future.join(tries));

    List<Long> answered = tries.stream().map(t -> t.result().expect(201).getLong("id")).distinct().toList();
    assertEquals(1, answered.size(), "one post for every try: " + answered);
    assertEquals(answered, ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
  }

  @Test
  @DisplayName("another client_id, or the same one from another user, is a new post")
  void clientIdsBelongToTheirAuthor() {
    User a = kith.register();
    User b = kith.register();
    String clientId = UUID.randomUUID().toString();
    long first = kith.post("/posts", a, post("one", clientId)).expect(201).getLong("id");

    long second = kith.post("/posts", a, post("two", UUID.randomUUID().toString())).expect(201).getLong("id");
    long others = kith.post("/posts", b, post("theirs", clientId)).expect(201).getLong("id");
    long plain = kith.publish(a, "no client id");

    assertNotEquals(first, second);
    assertEquals(b.id(), kith.get("/posts/" + others, b).expect(200).getJsonObject("author").getLong("id"));
    assertEquals(List.of(plain, second, first), ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
  }

  @Test
  @DisplayName("a retry of a post deleted since is 404 post_not_found and publishes nothing")
  void retryOfDeletedPost() {
    User a = kith.register();
    String clientId = UUID.randomUUID().toString();
    long id = kith.post("/posts", a, post("short-lived", clientId)).expect(201).getLong("id");
    kith.delete("/posts/" + id, a).expectNoContent();

    kith.post("/posts", a, post("short-lived", clientId)).problem(404, "post_not_found");

    assertEquals(List.of(), ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
  }

  @Test
  @DisplayName("a repost sent again with its client_id is one repost: the original counts one")
  void repostRetry() {
    User a = kith.register();
    User b = kith.register();
    long original = kith.publish(a, "worth sharing");
    String clientId = UUID.randomUUID().toString();
    JsonObject body = new JsonObject().put("text", "look").put("client_id", clientId);

    long first = kith.post("/posts/" + original + "/reposts", b, body).expect(201).getLong("id");
    long again = kith.post("/posts/" + original + "/reposts", b, body).expect(201).getLong("id");

    assertEquals(first, again);
    assertEquals(1, kith.get("/posts/" + original, a).expect(200).getJsonObject("counts").getInteger("reposts"));
    assertEquals(List.of(first), ids(kith.get("/users/" + b.path() + "/posts", b).expect(200)));
  }

  @Test
  @DisplayName("a client_id that is empty, blank, over 64 characters or not a string is 400 validation_failed "
      + "naming client_id, and nothing is published")
  void badClientIds() {
    User a = kith.register();
    kith.post("/posts", a, new JsonObject().put("text", "x").put("client_id", ""))
        .problem(400, "validation_failed", "client_id");
    kith.post("/posts", a, new JsonObject().put("text", "x").put("client_id", "   "))
        .problem(400, "validation_failed", "client_id");
    kith.post("/posts", a, new JsonObject().put("text", "x").put("client_id", "c".repeat(65)))
        .problem(400, "validation_failed", "client_id");
    kith.post("/posts", a, new JsonObject().put("text", "x").put("client_id", 7))
        .problem(400, "validation_failed", "client_id");

    assertEquals(List.of(), ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
    // the bound itself is accepted
    kith.post("/posts", a, new JsonObject().put("text", "x").put("client_id", "c".repeat(64))).expect(201);
  }
}
