package io.kith.app.feeds;

import io.kith.app.support.Contract;
import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.SecurityRequirement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The feeds operations' contract: every operation mounted, authentication, paging and input refusals")
class FeedsContractHttpTest {

  /** The feeds operations and whether a token is optional on them (stable ids: clients generate code from them). */
  private static final Map<String, Boolean> OPERATIONS = Map.ofEntries(
      Map.entry("publishPost", false), Map.entry("getPost", true), Map.entry("editPost", false),
      Map.entry("deletePost", false), Map.entry("repostPost", false), Map.entry("listReposts", true),
      Map.entry("getHomeTimeline", false), Map.entry("getMomentsTimeline", false),
      Map.entry("getLatestTimeline", true), Map.entry("listUserPosts", true), Map.entry("listLikedPosts", false),
      Map.entry("addComment", false), Map.entry("listComments", true), Map.entry("deleteComment", false),
      Map.entry("likePost", false), Map.entry("unlikePost", false), Map.entry("listLikers", true));

  /** Valid bodies of the operations that require one. */
  private static final Map<String, JsonObject> BODIES = Map.of(
      "publishPost", new JsonObject().put("text", "contract"),
      "editPost", new JsonObject().put("text", "contract"),
      "addComment", new JsonObject().put("text", "contract"));

  /** Paged lists ({id} is a placeholder for a real post or user) and whether they take since_id. */
  private static final Map<String, Boolean> LISTS = Map.of(
      "/timelines/home", true, "/timelines/moments", true, "/timelines/latest", true, "/users/{user}/posts", true,
      "/posts/{post}/comments", true, "/me/likes", false, "/posts/{post}/likes", false,
      "/posts/{post}/reposts", false);

  private FeedsKith kith;
  private List<Operation> feedsOps;

  @BeforeAll
  void start() {
    kith = FeedsKith.start();
    feedsOps = Contract.operations("feeds");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private static String concrete(Operation op, long id) {
    return op.getOpenAPIPath().replaceAll("\\{[A-Za-z]+}", Long.toString(id));
  }

  @Test
  @DisplayName("the contract's feeds operations are exactly the known ids, each with bearerAuth, optional only on reads")
  void operationIds() {
    Set<String> ids = feedsOps.stream().map(Operation::getOperationId).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(OPERATIONS.keySet()), ids);
    for (Operation op : feedsOps) {
      List<SecurityRequirement> security = op.getSecurityRequirements();
      assertTrue(security.stream().anyMatch(r -> r.getNames().equals(Set.of("bearerAuth"))), op.getOperationId());
      boolean optional = security.stream().anyMatch(SecurityRequirement::isEmpty);
      assertEquals(OPERATIONS.get(op.getOperationId()), optional, "optional token on " + op.getOperationId());
      assertTrue(!optional || op.getHttpMethod() == HttpMethod.GET, "only reads take an optional token");
    }
  }

  @Test
  @DisplayName("every feeds operation is mounted: with a token it reaches the service (never 501 or 5xx)")
  void everyOperationMounted() {
    User me = kith.register();
    for (Operation op : feedsOps) {
      long post = kith.publish(me, "target of " + op.getOperationId());
      long id = post;
      if (op.getOperationId().equals("deleteComment")) {
        id = kith.post("/posts/" + post + "/comments", me, new JsonObject().put("text", "c")).expect(201)
            .getLong("id");
      } else if (op.getOperationId().equals("listUserPosts")) {
        id = me.id();
      }
      String path = concrete(op, id);
      Reply reply = kith.call(op.getHttpMethod(), path, me.access(), BODIES.get(op.getOperationId()));
      assertNotEquals(501, reply.status(), op.getOperationId() + " is not mounted: " + reply.text());
      assertTrue(reply.status() >= 200 && reply.status() < 300, op.getOperationId() + " " + path + " answered "
          + reply.status() + " " + reply.text());
    }
  }

  @Test
  @DisplayName("without a token the required operations are 401 (even with invalid input); optional ones answer")
  void tokens() {
    User me = kith.register();
    long post = kith.publish(me, "anonymous target");
    for (Operation op : feedsOps) {
      String path = concrete(op, post);
      JsonObject body = BODIES.get(op.getOperationId());
      if (OPERATIONS.get(op.getOperationId())) {
        String userPath = op.getOperationId().equals("listUserPosts") ? concrete(op, me.id()) : path;
        assertEquals(200, kith.call(op.getHttpMethod(), userPath, null, null).status(), op.getOperationId());
        kith.call(op.getHttpMethod(), userPath, "not-a-token", null).problem(401, "token_invalid");
      } else {
        kith.call(op.getHttpMethod(), path, null, body).problem(401, "unauthenticated");
        kith.call(op.getHttpMethod(), concrete(op, 0), null, body == null ? null : new JsonObject().put("x", 1))
            .problem(401, "unauthenticated");
        kith.call(op.getHttpMethod(), path, "not-a-token", body).problem(401, "token_invalid");
      }
    }
  }

  @Test
  @DisplayName("limit must be 1 to 100, a cursor one the list returns and since_id an id from 1 to 2^53-1, on every list (400 naming them)")
  void paging() {
    User me = kith.register();
    long post = kith.publish(me, "paged");
    for (Map.Entry<String, Boolean> list : LISTS.entrySet()) {
      String path = list.getKey().replace("{user}", me.path()).replace("{post}", Long.toString(post));
      kith.get(path + "?limit=100", me).expect(200);
      kith.get(path + "?limit=1&cursor=" + FeedsKith.MAX_ID, me).expect(200);
      kith.get(path + "?limit=0", me).problem(400, "validation_failed", "limit");
      kith.get(path + "?limit=101", me).problem(400, "validation_failed", "limit");
      kith.get(path + "?limit=ten", me).problem(400, "validation_failed", "limit");
      kith.get(path + "?cursor=0", me).problem(400, "validation_failed", "cursor");
      kith.get(path + "?cursor=-1", me).problem(400, "validation_failed", "cursor");
      kith.get(path + "?cursor=9007199254740992", me).problem(400, "validation_failed", "cursor");
      kith.get(path + "?cursor=abc", me).problem(400, "validation_failed", "cursor");
      if (list.getValue()) {
        kith.get(path + "?since_id=" + FeedsKith.MAX_ID, me).expect(200);
        kith.get(path + "?since_id=0", me).problem(400, "validation_failed", "since_id");
        kith.get(path + "?since_id=abc", me).problem(400, "validation_failed", "since_id");
      }
    }
  }

  @Test
  @DisplayName("post, comment and user ids in the path must be integers from 1 to 2^53-1 (400 naming them)")
  void badIds() {
    User me = kith.register();
    for (String bad : List.of("0", "-1", "abc", "1.5", "9007199254740992")) {
      kith.get("/posts/" + bad, null).problem(400, "validation_failed", "postId");
      kith.get("/posts/" + bad, me).problem(400, "validation_failed", "postId");
      kith.put("/posts/" + bad + "/like", me).problem(400, "validation_failed", "postId");
      kith.get("/posts/" + bad + "/comments", null).problem(400, "validation_failed", "postId");
      kith.delete("/comments/" + bad, me).problem(400, "validation_failed", "commentId");
      kith.get("/users/" + bad + "/posts", null).problem(400, "validation_failed", "userId");
    }
  }

  @Test
  @DisplayName("bodies are bounded by the contract: text, media, mentions, audience, place, unknown members")
  void bodies() {
    User me = kith.register();
    JsonArray many = new JsonArray();
    for (int i = 1; i <= 1001; i++) {
      many.add(i);
    }
    JsonArray tags = new JsonArray();
    for (int i = 0; i < 101; i++) {
      tags.add("t" + i);
    }
    Map<String, JsonObject> bad = Map.of(
        "media", new JsonObject().put("text", "x").put("media", new JsonArray(many.getList().subList(0, 10))),
        "mentions", new JsonObject().put("text", "x").put("mentions", new JsonArray(many.getList().subList(0, 21))),
        "audience.users", new JsonObject().put("text", "x").put("visibility", "only")
            .put("audience", new JsonObject().put("users", many)),
        "audience.circles", new JsonObject().put("text", "x").put("visibility", "only")
            .put("audience", new JsonObject().put("circles", new JsonArray(many.getList().subList(0, 101)))),
        "audience.tags", new JsonObject().put("text", "x").put("visibility", "only")
            .put("audience", new JsonObject().put("tags", tags)),
        "place.lon", new JsonObject().put("text", "x").put("place", new JsonObject().put("name", "n")
            .put("lat", 0).put("lon", 180.5)),
        "place.name", new JsonObject().put("text", "x").put("place", new JsonObject().put("name", "n".repeat(101))),
        "visibility", new JsonObject().put("text", "x").put("visibility", "PUBLIC"),
        "text", new JsonObject().put("text", "x".repeat(5001)));
    for (Map.Entry<String, JsonObject> entry : bad.entrySet()) {
      JsonObject problem = kith.post("/posts", me, entry.getValue()).problem(400, "validation_failed");
      assertTrue(problem.getString("field", "").startsWith(entry.getKey())
          || problem.getString("detail", "").contains(entry.getKey()), entry.getKey() + ": " + problem.encode());
    }
    kith.post("/posts", me, new JsonObject().put("text", "x").put("id", 5)).problem(400, "validation_failed");
    kith.post("/posts", me, new JsonObject().put("text", "x").put("place", new JsonObject().put("name", "n")
        .put("alt", 3))).problem(400, "validation_failed");
    assertEquals(List.of(), FeedsKith.ids(kith.get("/users/" + me.path() + "/posts", me).expect(200)));
  }
}
