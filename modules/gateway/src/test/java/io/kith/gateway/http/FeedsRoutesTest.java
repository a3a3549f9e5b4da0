package io.kith.gateway.http;

import io.kith.feeds.api.FeedsService;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static io.vertx.core.Future.succeededFuture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feeds routes over a recording stand-in for the feeds service: which service method each operation calls with
 * which arguments (the acting user from the token, viewer 0 for anonymous readers, cursors and defaults), and what
 * the contract refuses before the service is reached.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Feeds routes: operation to service mapping, optional tokens, cursors and contract refusals")
class FeedsRoutesTest {

  private TestGateway gateway;
  private final Recorder feeds = new Recorder();

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  private void start(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject(), platform -> { },
        platform -> List.of(new SystemRoutes(), TestGateway.authRoutes(platform), new FeedsRoutes(feeds)));
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, String token, JsonObject body) {
    var request = gateway.request(method, API + path, token);
    return io.kith.platform.testkit.Await.result(body == null ? request.send() : request.sendJsonObject(body));
  }

  /** The single service call the last request made: {@code [method, args...]}. */
  private JsonArray lastCall() {
    assertEquals(1, feeds.calls.size(), "one service call: " + feeds.calls);
    return feeds.calls.remove(0);
  }

  @Test
  @DisplayName("each operation calls its service method with the token's user, path ids, cursors and the status it documents")
  void mapping(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    String t = me.accessToken();
    long u = me.userId();
    JsonObject post = new JsonObject().put("text", "hi");

    assertEquals(201, send(HttpMethod.POST, "/posts", t, post).statusCode());
    assertEquals(new JsonArray().add("publish").add(u).add(post), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/posts/5", t, null).statusCode());
    assertEquals(new JsonArray().add("post").add(u).add(5L), lastCall());
    assertEquals(200, send(HttpMethod.PATCH, "/posts/5", t, post).statusCode());
    assertEquals(new JsonArray().add("edit").add(u).add(5L).add(post), lastCall());
    assertEquals(204, send(HttpMethod.DELETE, "/posts/5", t, null).statusCode());
    assertEquals(new JsonArray().add("delete").add(u).add(5L), lastCall());
    assertEquals(201, send(HttpMethod.POST, "/posts/5/reposts", t, null).statusCode());
    assertEquals(new JsonArray().add("repost").add(u).add(5L).add(new JsonObject()), lastCall());
    assertEquals(201, send(HttpMethod.POST, "/posts/5/reposts", t, post).statusCode());
    assertEquals(new JsonArray().add("repost").add(u).add(5L).add(post), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/posts/5/reposts?cursor=9&limit=3", t, null).statusCode());
    assertEquals(new JsonArray().add("reposts").add(u).add(5L).add(9L).add(3), lastCall());

    assertEquals(200, send(HttpMethod.GET, "/timelines/home", t, null).statusCode());
    assertEquals(new JsonArray().add("home").add(u).add(0L).add(0L).add(20), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/timelines/home?cursor=7&since_id=3&limit=100", t, null).statusCode());
    assertEquals(new JsonArray().add("home").add(u).add(7L).add(3L).add(100), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/timelines/moments?since_id=4&limit=1", t, null).statusCode());
    assertEquals(new JsonArray().add("moments").add(u).add(0L).add(4L).add(1), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/users/8/posts?cursor=6", t, null).statusCode());
    assertEquals(new JsonArray().add("userPosts").add(u).add(8L).add(6L).add(0L).add(20), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/timelines/latest?since_id=2", t, null).statusCode());
    assertEquals(new JsonArray().add("latest").add(u).add(0L).add(2L).add(20), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/me/likes?cursor=11&limit=2", t, null).statusCode());
    assertEquals(new JsonArray().add("likedPosts").add(u).add(11L).add(2), lastCall());

    JsonObject comment = new JsonObject().put("text", "nice").put("reply_to", 12);
    assertEquals(201, send(HttpMethod.POST, "/posts/5/comments", t, comment).statusCode());
    assertEquals(new JsonArray().add("comment").add(u).add(5L).add(comment), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/posts/5/comments?cursor=30&since_id=10&limit=5", t, null)
        .statusCode());
    assertEquals(new JsonArray().add("comments").add(u).add(5L).add(30L).add(10L).add(5), lastCall());
    assertEquals(204, send(HttpMethod.DELETE, "/comments/12", t, null).statusCode());
    assertEquals(new JsonArray().add("deleteComment").add(u).add(12L), lastCall());

    assertEquals(200, send(HttpMethod.PUT, "/posts/5/like", t, null).statusCode());
    assertEquals(new JsonArray().add("like").add(u).add(5L), lastCall());
    assertEquals(200, send(HttpMethod.DELETE, "/posts/5/like", t, null).statusCode());
    assertEquals(new JsonArray().add("unlike").add(u).add(5L), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/posts/5/likes?cursor=40", t, null).statusCode());
    assertEquals(new JsonArray().add("likers").add(u).add(5L).add(40L).add(20), lastCall());
  }

  @Test
  @DisplayName("optional-token reads serve anonymous readers as viewer 0; a sent token must verify (401)")
  void optionalToken(Vertx vertx) {
    start(vertx);
    List<String> reads = List.of("/posts/5", "/posts/5/reposts", "/users/8/posts", "/timelines/latest",
        "/posts/5/comments", "/posts/5/likes");
    for (String path : reads) {
      assertEquals(200, send(HttpMethod.GET, path, null, null).statusCode(), path);
      assertEquals(0L, lastCall().getLong(1), "anonymous viewer of " + path);
      assertProblem(send(HttpMethod.GET, path, "not-a-token", null), 401, "token_invalid");
      HttpResponse<Buffer> empty = io.kith.platform.testkit.Await.result(
          gateway.client().get(API + path).putHeader("Authorization", "").send());
      assertProblem(empty, 401, "unauthenticated");
      HttpResponse<Buffer> basic = io.kith.platform.testkit.Await.result(
          gateway.client().get(API + path).putHeader("Authorization", "Basic dTpw").send());
      assertProblem(basic, 401, "token_invalid");
    }
    TokenPair me = gateway.newSession();
    gateway.call(HttpMethod.POST, API + "/auth/logout", me.accessToken());
    assertProblem(send(HttpMethod.GET, "/posts/5", me.accessToken(), null), 401, "session_revoked");
    assertTrue(feeds.calls.isEmpty(), "refused requests never reach the service: " + feeds.calls);
  }

  @Test
  @DisplayName("every other feeds operation needs a token, and says 401 before judging the input")
  void requiredToken(Vertx vertx) {
    start(vertx);
    List<Object[]> ops = List.of(
        new Object[] {HttpMethod.POST, "/posts", new JsonObject().put("text", "x")},
        new Object[] {HttpMethod.PATCH, "/posts/5", new JsonObject().put("text", "x")},
        new Object[] {HttpMethod.DELETE, "/posts/5", null},
        new Object[] {HttpMethod.POST, "/posts/5/reposts", null},
        new Object[] {HttpMethod.GET, "/timelines/home", null},
        new Object[] {HttpMethod.GET, "/timelines/moments", null},
        new Object[] {HttpMethod.GET, "/me/likes", null},
        new Object[] {HttpMethod.POST, "/posts/5/comments", new JsonObject().put("text", "x")},
        new Object[] {HttpMethod.DELETE, "/comments/5", null},
        new Object[] {HttpMethod.PUT, "/posts/5/like", null},
        new Object[] {HttpMethod.DELETE, "/posts/5/like", null});
    for (Object[] op : ops) {
      String path = (String) op[1];
      assertProblem(send((HttpMethod) op[0], path, null, (JsonObject) op[2]), 401, "unauthenticated");
      assertProblem(send((HttpMethod) op[0], path.replace("/5", "/0"), null,
          op[2] == null ? null : new JsonObject().put("bogus", true)), 401, "unauthenticated");
    }
    assertTrue(feeds.calls.isEmpty(), "refused requests never reach the service: " + feeds.calls);
  }

  @Test
  @DisplayName("latest_time pages to posts strictly older than that time; with a cursor it is refused")
  void latestTime(Vertx vertx) {
    start(vertx);
    long at = IdGenerator.EPOCH + 86_400_000L;

    assertEquals(200, send(HttpMethod.GET, "/timelines/latest?latest_time=" + at, null, null).statusCode());
    long maxId = lastCall().getLong(2);
    assertEquals(IdGenerator.minIdAt(at), maxId);
    assertEquals(at, IdGenerator.timeOf(maxId), "the cursor is the first id of that millisecond");
    assertTrue(IdGenerator.timeOf(maxId - 1) < at, "every id below it is older");

    assertEquals(200, send(HttpMethod.GET, "/timelines/latest?latest_time=" + IdGenerator.EPOCH, null, null)
        .statusCode());
    assertEquals(1L, lastCall().getLong(2), "nothing is older than the id epoch: an empty page, not the newest");
    assertEquals(200, send(HttpMethod.GET, "/timelines/latest?latest_time=0", null, null).statusCode());
    assertEquals(1L, lastCall().getLong(2));
    assertEquals(200, send(HttpMethod.GET, "/timelines/latest?latest_time=9007199254740991", null, null)
        .statusCode());
    assertEquals(0L, lastCall().getLong(2), "a time past the id space bounds nothing");

    assertEquals("latest_time", assertProblem(send(HttpMethod.GET, "/timelines/latest?latest_time=" + at
        + "&cursor=5", null, null), 400, "validation_failed").getString("field"));
    assertEquals("latest_time", assertProblem(send(HttpMethod.GET, "/timelines/latest?latest_time=-1", null, null),
        400, "validation_failed").getString("field"));
    assertEquals("latest_time", assertProblem(send(HttpMethod.GET, "/timelines/latest?latest_time=soon", null, null),
        400, "validation_failed").getString("field"));
    assertTrue(feeds.calls.isEmpty(), "refused requests never reach the service: " + feeds.calls);
  }

  @Test
  @DisplayName("paging parameters and ids are bounded: a limit out of range or a cursor the list never returns is 400 validation_failed naming it")
  void paging(Vertx vertx) {
    start(vertx);
    String t = gateway.newSession().accessToken();
    for (String list : List.of("/timelines/home", "/timelines/moments", "/timelines/latest", "/users/8/posts",
        "/me/likes", "/posts/5/comments", "/posts/5/likes", "/posts/5/reposts")) {
      for (String bad : List.of("limit=0", "limit=101", "limit=x", "cursor=0", "cursor=-3",
          "cursor=9007199254740992", "cursor=x1", "cursor=007", "cursor=a.b", "cursor=")) {
        String name = bad.substring(0, bad.indexOf('='));
        assertEquals(name, assertProblem(send(HttpMethod.GET, list + "?" + bad, t, null), 400, "validation_failed")
            .getString("field"), list + "?" + bad);
      }
    }
    for (String list : List.of("/timelines/home", "/timelines/moments", "/timelines/latest", "/users/8/posts",
        "/posts/5/comments")) {
      assertEquals("since_id", assertProblem(send(HttpMethod.GET, list + "?since_id=0", t, null), 400,
          "validation_failed").getString("field"));
    }
    for (String bad : List.of("0", "-1", "x", "9007199254740992")) {
      assertEquals("postId", assertProblem(send(HttpMethod.GET, "/posts/" + bad, t, null), 400,
          "validation_failed").getString("field"));
      assertEquals("commentId", assertProblem(send(HttpMethod.DELETE, "/comments/" + bad, t, null), 400,
          "validation_failed").getString("field"));
      assertEquals("userId", assertProblem(send(HttpMethod.GET, "/users/" + bad + "/posts", null, null), 400,
          "validation_failed").getString("field"));
    }
    assertTrue(feeds.calls.isEmpty(), "refused requests never reach the service: " + feeds.calls);
  }

  @Test
  @DisplayName("post, edit and comment bodies are bounded: sizes, counts, enums, coordinates, unknown members")
  void bodies(Vertx vertx) {
    start(vertx);
    String t = gateway.newSession().accessToken();
    JsonArray tenIds = new JsonArray();
    JsonArray manyUsers = new JsonArray();
    for (int i = 1; i <= 1001; i++) {
      if (i <= 10) {
        tenIds.add(i);
      }
      manyUsers.add(i);
    }
    JsonArray mentions = new JsonArray();
    for (int i = 1; i <= 21; i++) {
      mentions.add(i);
    }
    List<Object[]> badPosts = List.of(
        new Object[] {new JsonObject().put("text", "x".repeat(5001)), "text"},
        new Object[] {new JsonObject().put("text", 5), "text"},
        new Object[] {new JsonObject().put("visibility", "everyone"), "visibility"},
        new Object[] {new JsonObject().put("media", tenIds), "media"},
        new Object[] {new JsonObject().put("media", new JsonArray().add(0)), "media.0"},
        new Object[] {new JsonObject().put("mentions", mentions), "mentions"},
        new Object[] {new JsonObject().put("audience", new JsonObject().put("users", manyUsers)), "audience.users"},
        new Object[] {new JsonObject().put("audience", new JsonObject().put("everyone", true)), "audience"},
        new Object[] {new JsonObject().put("place", new JsonObject().put("name", "n").put("lat", 91)), "place.lat"},
        new Object[] {new JsonObject().put("place", new JsonObject().put("name", "n").put("lon", -181)),
            "place.lon"},
        new Object[] {new JsonObject().put("place", new JsonObject().put("name", "n".repeat(101))), "place.name"},
        new Object[] {new JsonObject().put("author", 9), "author"});
    for (Object[] bad : badPosts) {
      JsonObject body = (JsonObject) bad[0];
      String field = (String) bad[1];
      JsonObject problem = assertProblem(send(HttpMethod.POST, "/posts", t, body), 400, "validation_failed");
      String named = problem.getString("field", "") + " " + problem.getString("detail", "");
      assertTrue(named.contains(field), "names " + field + ": " + problem.encode());
      assertProblem(send(HttpMethod.POST, "/posts/5/reposts", t, body), 400, "validation_failed");
    }
    assertProblem(send(HttpMethod.PATCH, "/posts/5", t, new JsonObject()), 400, "validation_failed");
    assertProblem(send(HttpMethod.PATCH, "/posts/5", t, new JsonObject().put("media", new JsonArray().add(1))), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.PATCH, "/posts/5", t, new JsonObject().put("visibility", "nobody")), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.POST, "/posts/5/comments", t, new JsonObject().put("text", "")), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.POST, "/posts/5/comments", t, new JsonObject().put("text", "x".repeat(2001))), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.POST, "/posts/5/comments", t, new JsonObject()), 400, "validation_failed");
    assertProblem(send(HttpMethod.POST, "/posts/5/comments", t,
        new JsonObject().put("text", "x").put("reply_to", 0)), 400, "validation_failed");
    assertTrue(feeds.calls.isEmpty(), "refused requests never reach the service: " + feeds.calls);

    // the bounds themselves are accepted
    JsonArray nine = new JsonArray(new ArrayList<>(tenIds.getList().subList(0, 9)));
    JsonObject full = new JsonObject().put("text", "x".repeat(5000)).put("media", nine)
        .put("mentions", new JsonArray(new ArrayList<>(mentions.getList().subList(0, 20))))
        .put("visibility", "except")
        .put("place", new JsonObject().put("name", "n".repeat(100)).put("lat", -90).put("lon", 180))
        .put("audience", new JsonObject().put("users", new JsonArray(new ArrayList<>(manyUsers.getList()
            .subList(0, 1000)))).put("groups", new JsonArray().add(1)).put("tags", new JsonArray().add("family")));
    assertEquals(201, send(HttpMethod.POST, "/posts", t, full).statusCode());
    assertEquals(full, lastCall().getJsonObject(2));
    assertEquals(201, send(HttpMethod.POST, "/posts/5/comments", t, new JsonObject().put("text", "x".repeat(2000)))
        .statusCode());
    lastCall();
  }

  /** Records each call as {@code [method, args...]} and answers with an empty object. */
  static final class Recorder implements FeedsService {
    final List<JsonArray> calls = new CopyOnWriteArrayList<>();

    private Future<JsonObject> record(Object... call) {
      JsonArray entry = new JsonArray();
      for (Object o : call) {
        entry.add(o);
      }
      calls.add(entry);
      return succeededFuture(new JsonObject().put("items", new JsonArray()));
    }

    private static Future<Page> page(Future<JsonObject> body) {
      return body.map(json -> Page.of("items", json));
    }

    @Override
    public Future<JsonObject> publish(long actor, JsonObject post) {
      return record("publish", actor, post);
    }

    @Override
    public Future<JsonObject> repost(long actor, long postId, JsonObject post) {
      return record("repost", actor, postId, post);
    }

    @Override
    public Future<JsonObject> edit(long actor, long postId, JsonObject changes) {
      return record("edit", actor, postId, changes);
    }

    @Override
    public Future<Void> delete(long actor, long postId) {
      return record("delete", actor, postId).mapEmpty();
    }

    @Override
    public Future<JsonObject> post(long viewer, long postId) {
      return record("post", viewer, postId);
    }

    @Override
    public Future<Page> home(long viewer, PageRequest page) {
      return page(record("home", viewer, page.maxId(), page.sinceId(), page.limitOrDefault()));
    }

    @Override
    public Future<Page> moments(long viewer, PageRequest page) {
      return page(record("moments", viewer, page.maxId(), page.sinceId(), page.limitOrDefault()));
    }

    @Override
    public Future<Page> userPosts(long viewer, long userId, PageRequest page) {
      return page(record("userPosts", viewer, userId, page.maxId(), page.sinceId(), page.limitOrDefault()));
    }

    @Override
    public Future<Page> latest(long viewer, PageRequest page) {
      return page(record("latest", viewer, page.maxId(), page.sinceId(), page.limitOrDefault()));
    }

    @Override
    public Future<Page> likedPosts(long viewer, PageRequest page) {
      return page(record("likedPosts", viewer, page.maxId(), page.limitOrDefault()));
    }

    @Override
    public Future<Page> reposts(long viewer, long postId, PageRequest page) {
      return page(record("reposts", viewer, postId, page.maxId(), page.limitOrDefault()));
    }

    @Override
    public Future<JsonObject> comment(long actor, long postId, JsonObject comment) {
      return record("comment", actor, postId, comment);
    }

    @Override
    public Future<Void> deleteComment(long actor, long commentId) {
      return record("deleteComment", actor, commentId).mapEmpty();
    }

    @Override
    public Future<Page> comments(long viewer, long postId, PageRequest page) {
      return page(record("comments", viewer, postId, page.maxId(), page.sinceId(), page.limitOrDefault()));
    }

    @Override
    public Future<JsonObject> like(long actor, long postId) {
      return record("like", actor, postId);
    }

    @Override
    public Future<JsonObject> unlike(long actor, long postId) {
      return record("unlike", actor, postId);
    }

    @Override
    public Future<Page> likers(long viewer, long postId, PageRequest page) {
      return page(record("likers", viewer, postId, page.maxId(), page.limitOrDefault()));
    }

    @Override
    public Future<JsonObject> authorCounts(long viewer, List<Long> userIds) {
      return record("authorCounts", viewer, new JsonArray(userIds));
    }
  }
}
