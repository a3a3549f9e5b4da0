package io.kith.app.feeds;

import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
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
import java.util.UUID;

import static io.kith.app.feeds.FeedsKith.API;
import static io.kith.app.feeds.FeedsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Posts over HTTP: publish, read (also anonymously), edit and delete, who may do what, and retries")
class PostsHttpTest {

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

  @Test
  @DisplayName("publishing answers 201 with the post view; reading it back gives the same post")
  void publishAndRead() {
    User a = kith.register();
    JsonObject body = new JsonObject().put("text", "hello world")
        .put("place", new JsonObject().put("name", "Lisbon").put("lat", 38.72).put("lon", -9.14));

    JsonObject post = kith.post("/posts", a, body).expect(201);

    long id = post.getLong("id");
    assertTrue(id > 0, post.encode());
    assertEquals(a.id(), post.getJsonObject("author").getLong("id"), post.encode());
    assertEquals(a.username(), post.getJsonObject("author").getString("username"), post.encode());
    assertEquals("hello world", post.getString("text"));
    assertEquals("public", post.getString("visibility"), "public is the default");
    assertEquals("Lisbon", post.getJsonObject("place").getString("name"));
    assertNotNull(post.getLong("created"), post.encode());
    assertNull(post.getValue("edited"), post.encode());
    assertNull(post.getValue("repost_of"), post.encode());
    assertEquals(new JsonObject().put("likes", 0).put("comments", 0).put("reposts", 0).put("reposts_total", 0),
        post.getJsonObject("counts"));
    assertEquals(false, post.getJsonObject("viewer").getBoolean("liked"), post.encode());

    JsonObject read = kith.get("/posts/" + id, a).expect(200);
    assertEquals(id, read.getLong("id"));
    assertEquals("hello world", read.getString("text"));
    assertEquals(post.getLong("created"), read.getLong("created"));
  }

  @Test
  @DisplayName("an anonymous reader (no token) reads a public post but gets 404 for a friends-only one")
  void anonymousRead() {
    User a = kith.register();
    long open = kith.publish(a, "for everyone");
    long closed = kith.publish(a, "for friends", "friends").getLong("id");

    JsonObject read = kith.get("/posts/" + open, null).expect(200);
    assertEquals("for everyone", read.getString("text"));
    assertEquals(new JsonObject().put("liked", false).put("reposted", false).put("following", false),
        read.getJsonObject("viewer"));
    assertFalse(read.containsKey("audience"), "the audience is the author's only: " + read.encode());

    kith.get("/posts/" + closed, null).problem(404, "post_not_found");
    kith.get("/posts/" + (FeedsKith.MAX_ID - 3), null).problem(404, "post_not_found");
    assertEquals("for friends", kith.get("/posts/" + closed, a).expect(200).getString("text"));
  }

  @Test
  @DisplayName("on an optional-token read a bad, missing or revoked token is 401, not an anonymous read")
  void badTokenOnOptionalRoute() {
    User a = kith.register();
    long id = kith.publish(a, "public");

    kith.call(HttpMethod.GET, API + "/posts/" + id, "not-a-token", null).problem(401, "token_invalid");
    kith.call(HttpMethod.GET, API + "/timelines/latest", "not-a-token", null).problem(401, "token_invalid");
    kith.call(HttpMethod.GET, API + "/users/" + a.path() + "/posts", "x.y.z", null).problem(401, "token_invalid");
    // "Authorization: Bearer" with no token is a header that is present: refused, not read anonymously
    kith.call(HttpMethod.GET, API + "/posts/" + id + "/comments", "", null).problem(401, "token_invalid");

    User b = kith.register();
    kith.post("/auth/logout", b, null).expectNoContent();
    kith.get("/posts/" + id, b).problem(401, "session_revoked");
  }

  @Test
  @DisplayName("friends-only posts are visible to friends and hidden (404) from mere followers and strangers")
  void friendsOnly() {
    User a = kith.register();
    User friend = kith.register();
    User follower = kith.register();
    User stranger = kith.register();
    kith.befriend(a, friend);
    kith.follow(follower, a);
    long id = kith.publish(a, "close ones", "friends").getLong("id");

    assertEquals(id, kith.get("/posts/" + id, friend).expect(200).getLong("id"));
    kith.get("/posts/" + id, follower).problem(404, "post_not_found");
    kith.get("/posts/" + id, stranger).problem(404, "post_not_found");
    long priv = kith.publish(a, "note to self", "private").getLong("id");
    kith.get("/posts/" + priv, friend).problem(404, "post_not_found");
    assertEquals(priv, kith.get("/posts/" + priv, a).expect(200).getLong("id"));
  }

  @Test
  @DisplayName("the author edits text, place and visibility; the view shows the change and when it was edited")
  void edit() {
    User a = kith.register();
    User b = kith.register();
    long id = kith.post("/posts", a, new JsonObject().put("text", "first")
        .put("place", new JsonObject().put("name", "Home"))).expect(201).getLong("id");

    JsonObject edited = kith.patch("/posts/" + id, a, new JsonObject().put("text", "second")).expect(200);
    assertEquals("second", edited.getString("text"));
    assertEquals("Home", edited.getJsonObject("place").getString("name"), "untouched members stay");
    assertNotNull(edited.getLong("edited"), edited.encode());
    assertEquals("second", kith.get("/posts/" + id, b).expect(200).getString("text"));

    kith.patch("/posts/" + id, a, new JsonObject().put("visibility", "private")).expect(200);
    kith.get("/posts/" + id, b).problem(404, "post_not_found");
    kith.get("/posts/" + id, null).problem(404, "post_not_found");
    JsonObject cleared = kith.patch("/posts/" + id, a, new JsonObject().putNull("place")
        .put("visibility", "public")).expect(200);
    assertNull(cleared.getValue("place"), cleared.encode());
    assertEquals("second", kith.get("/posts/" + id, null).expect(200).getString("text"));
  }

  @Test
  @DisplayName("editing or deleting another user's post is 403 not_author when visible, 404 when not")
  void notTheAuthor() {
    User a = kith.register();
    User b = kith.register();
    long open = kith.publish(a, "public");
    long closed = kith.publish(a, "friends", "friends").getLong("id");
    JsonObject change = new JsonObject().put("text", "hijacked");

    kith.patch("/posts/" + open, b, change).problem(403, "not_author");
    kith.delete("/posts/" + open, b).problem(403, "not_author");
    kith.patch("/posts/" + closed, b, change).problem(404, "post_not_found");
    kith.delete("/posts/" + closed, b).problem(404, "post_not_found");
    kith.patch("/posts/" + (FeedsKith.MAX_ID - 5), b, change).problem(404, "post_not_found");

    assertEquals("public", kith.get("/posts/" + open, a).expect(200).getString("text"));
    assertEquals("friends", kith.get("/posts/" + closed, a).expect(200).getString("text"));
  }

  @Test
  @DisplayName("deleting is 204 and idempotent for the author; the post is then gone for everyone")
  void delete() {
    User a = kith.register();
    User b = kith.register();
    long id = kith.publish(a, "short-lived");

    kith.delete("/posts/" + id, a).expectNoContent();
    kith.delete("/posts/" + id, a).expectNoContent();

    kith.get("/posts/" + id, a).problem(404, "post_not_found");
    kith.get("/posts/" + id, b).problem(404, "post_not_found");
    kith.get("/posts/" + id, null).problem(404, "post_not_found");
    kith.patch("/posts/" + id, a, new JsonObject().put("text", "back?")).problem(404, "post_not_found");
    kith.delete("/posts/" + id, b).problem(404, "post_not_found");
    assertFalse(kith.get("/users/" + a.path() + "/posts", a).expect(200).getJsonArray("items").stream()
        .anyMatch(p -> ((JsonObject) p).getLong("id") == id), "gone from the author's posts");
  }

  @Test
  @DisplayName("bad post bodies are 400 problem+json naming the field, and nothing is published")
  void badBodies() {
    User a = kith.register();
    JsonArray tenMedia = new JsonArray();
    for (int i = 1; i <= 10; i++) {
      tenMedia.add(i);
    }

    kith.post("/posts", a, new JsonObject().put("text", "x".repeat(5001))).problem(400, "validation_failed", "text");
    kith.post("/posts", a, new JsonObject().put("text", "x").put("visibility", "everyone"))
        .problem(400, "validation_failed", "visibility");
    kith.post("/posts", a, new JsonObject().put("text", "x").put("media", tenMedia))
        .problem(400, "validation_failed", "media");
    kith.post("/posts", a, new JsonObject().put("text", "x").put("author", 1))
        .problem(400, "validation_failed");
    kith.post("/posts", a, new JsonObject().put("text", "x")
        .put("place", new JsonObject().put("name", "Pole").put("lat", 90.5).put("lon", 0)))
        .problem(400, "validation_failed", "place.lat");
    kith.call(HttpMethod.POST, API + "/posts", a.access(), "{\"text\":").problem(400, "malformed_json");
    kith.patch("/posts/1", a, new JsonObject()).problem(400, "validation_failed");
    kith.patch("/posts/1", a, new JsonObject().put("visibility", "everyone"))
        .problem(400, "validation_failed", "visibility");

    assertEquals(new JsonArray(), kith.get("/users/" + a.path() + "/posts", a).expect(200).getJsonArray("items"));
    // the bound itself is accepted
    assertEquals(5000, kith.post("/posts", a, new JsonObject().put("text", "y".repeat(5000))).expect(201)
        .getString("text").length());
  }

  @Test
  @DisplayName("post text and place names with NUL or an unpaired surrogate (sent as a JSON escape) are 400 "
      + "validation_failed naming the field, on publish and edit, and nothing is stored; line breaks and emoji pass")
  void controlsAndLoneSurrogatesRefused() {
    User a = kith.register();
    long post = kith.publish(a, "before");

    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "esc\\u001B[2J")) {
      kith.call(HttpMethod.POST, API + "/posts", a.access(), "{\"text\": \"" + escaped + "\"}")
          .problem(400, "validation_failed", "text");
      kith.call(HttpMethod.POST, API + "/posts", a.access(),
          "{\"text\": \"x\", \"place\": {\"name\": \"" + escaped + "\"}}")
          .problem(400, "validation_failed", "place.name");
      kith.call(HttpMethod.PATCH, API + "/posts/" + post, a.access(), "{\"text\": \"" + escaped + "\"}")
          .problem(400, "validation_failed", "text");
    }

    assertEquals(List.of(post), ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
    assertEquals("before", kith.get("/posts/" + post, a).expect(200).getString("text"));
    JsonObject multiline = kith.call(HttpMethod.POST, API + "/posts", a.access(),
        "{\"text\": \"one\\ntwo\\t\\uD83C\\uDF89\"}").expect(201);
    assertEquals("one\ntwo\t\uD83C\uDF89", multiline.getString("text"));
  }

  @Test
  @DisplayName("a post needs text or media; mentions must name existing users")
  void serviceRefusals() {
    User a = kith.register();
    User b = kith.register();

    kith.post("/posts", a, new JsonObject()).problem(400, "validation_failed");
    kith.post("/posts", a, new JsonObject().put("text", "hi")
        .put("mentions", new JsonArray().add(FeedsKith.MAX_ID - 11))).problem(400, "validation_failed", "mentions");
    JsonObject ok = kith.post("/posts", a, new JsonObject().put("text", "hi @b")
        .put("mentions", new JsonArray().add(b.id()))).expect(201);
    assertEquals(List.of(b.id()), ok.getJsonArray("mentions").stream().map(m -> ((Number) m).longValue()).toList());
  }

  @Test
  @DisplayName("/users/{userId}/posts does not shadow /users/by-username/{username} for a user named posts")
  void byUsernameStillFound() {
    User viewer = kith.register();
    int status = kith.registerRaw("posts").status();
    assertTrue(status == 201 || status == 409, "registered or already taken: " + status);
    assertEquals("posts", kith.get("/users/by-username/posts", viewer).expect(200).getString("username"));
  }

  // ---------------------------------------------------------------- retries (client_id): issue 19, no duplicate

  private static JsonObject clientPost(String text, String clientId) {
    return new JsonObject().put("text", text).put("client_id", clientId);
  }

  @Test
  @DisplayName("a publish sent again with its client_id answers 201 with the stored post, and the author has it once")
  void retryAnswersTheStoredPost() {
    User a = kith.register();
    String clientId = UUID.randomUUID().toString();
    JsonObject first = kith.post("/posts", a, clientPost("only once", clientId)).expect(201);

    JsonObject again = kith.post("/posts", a, clientPost("only once", clientId)).expect(201);

    assertEquals(first.getLong("id"), again.getLong("id"), again.encode());
    assertEquals(first.getLong("created"), again.getLong("created"), again.encode());
    assertEquals("only once", again.getString("text"));
    assertEquals(List.of(first.getLong("id")), ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
  }

  @Test
  @DisplayName("tries sent at once with one client_id and one image all answer the same post, and one is stored, "
      + "with the image")
  void concurrentTriesStoreOne() {
    User a = kith.register();
    String clientId = UUID.randomUUID().toString();
    long image = kith.uploadImage(a);
    JsonObject body = clientPost("at once", clientId).put("media", new JsonArray().add(image));
    List<Future<Reply>> tries = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      tries.add(kith.send(HttpMethod.POST, API + "/posts", a.access(), body));
    }
    Await.result(Future.join(tries));

    List<Long> answered = tries.stream().map(t -> t.result().expect(201).getLong("id")).distinct().toList();
    assertEquals(1, answered.size(), "one post for every try: " + answered);
    assertEquals(answered, ids(kith.get("/users/" + a.path() + "/posts", a).expect(200)));
    assertEquals(image, kith.get("/posts/" + answered.get(0), a).expect(200).getJsonArray("media").getJsonObject(0)
        .getLong("id"), "the post keeps its image");
  }

  @Test
  @DisplayName("another client_id, or the same one from another user, is a new post")
  void clientIdsBelongToTheirAuthor() {
    User a = kith.register();
    User b = kith.register();
    String clientId = UUID.randomUUID().toString();
    long first = kith.post("/posts", a, clientPost("one", clientId)).expect(201).getLong("id");

    long second = kith.post("/posts", a, clientPost("two", UUID.randomUUID().toString())).expect(201).getLong("id");
    long others = kith.post("/posts", b, clientPost("theirs", clientId)).expect(201).getLong("id");
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
    long id = kith.post("/posts", a, clientPost("short-lived", clientId)).expect(201).getLong("id");
    kith.delete("/posts/" + id, a).expectNoContent();

    kith.post("/posts", a, clientPost("short-lived", clientId)).problem(404, "post_not_found");

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
  @DisplayName("a client_id sent with another request than the one it stored is 409 client_id_reused: a post's on a "
      + "repost, a repost's on a publish or on a repost of another post; the same repost asked through a repost of "
      + "its original is the retry it is")
  void clientIdReused() {
    User a = kith.register();
    User b = kith.register();
    long original = kith.publish(a, "worth sharing");
    long other = kith.publish(a, "also worth it");
    String postId = UUID.randomUUID().toString();
    String repostId = UUID.randomUUID().toString();
    kith.post("/posts", b, clientPost("mine", postId)).expect(201);
    long repost = kith.post("/posts/" + original + "/reposts", b, new JsonObject().put("client_id", repostId))
        .expect(201).getLong("id");

    kith.post("/posts/" + original + "/reposts", b, new JsonObject().put("client_id", postId))
        .problem(409, "client_id_reused");
    kith.post("/posts", b, clientPost("mine", repostId)).problem(409, "client_id_reused");
    kith.post("/posts/" + other + "/reposts", b, new JsonObject().put("client_id", repostId))
        .problem(409, "client_id_reused");
    // a repost of a repost reposts its original: the same request, so the stored repost answers
    long viaRepost = kith.post("/posts/" + repost + "/reposts", b, new JsonObject().put("client_id", repostId))
        .expect(201).getLong("id");
    assertEquals(repost, viaRepost);
    assertEquals(1, kith.get("/posts/" + original, a).expect(200).getJsonObject("counts").getInteger("reposts"));
    assertEquals(0, kith.get("/posts/" + other, a).expect(200).getJsonObject("counts").getInteger("reposts"));
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
