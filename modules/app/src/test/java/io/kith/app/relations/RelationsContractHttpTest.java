package io.kith.app.relations;

import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
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

import static io.kith.app.relations.RelationsKith.API;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The relations operations' contract: authentication and input refusals")
class RelationsContractHttpTest {

  /** One request of every relations operation (ids and names are placeholders; bodies are valid). */
  private static final List<Object[]> OPERATIONS = List.of(
      new Object[] {HttpMethod.PUT, "/following/2", null},
      new Object[] {HttpMethod.DELETE, "/following/2", null},
      new Object[] {HttpMethod.GET, "/users/2/followers", null},
      new Object[] {HttpMethod.GET, "/users/2/following", null},
      new Object[] {HttpMethod.GET, "/users/2/counts", null},
      new Object[] {HttpMethod.GET, "/users/2/tags", null},
      new Object[] {HttpMethod.GET, "/me/friends", null},
      new Object[] {HttpMethod.GET, "/me/follow-requests/incoming", null},
      new Object[] {HttpMethod.GET, "/me/follow-requests/outgoing", null},
      new Object[] {HttpMethod.POST, "/me/follow-requests/2/accept", null},
      new Object[] {HttpMethod.POST, "/me/follow-requests/2/reject", null},
      new Object[] {HttpMethod.GET, "/me/circles", null},
      new Object[] {HttpMethod.POST, "/me/circles", new JsonObject().put("name", "g")},
      new Object[] {HttpMethod.PATCH, "/me/circles/2", new JsonObject().put("name", "g")},
      new Object[] {HttpMethod.DELETE, "/me/circles/2", null},
      new Object[] {HttpMethod.GET, "/me/circles/2/members", null},
      new Object[] {HttpMethod.POST, "/me/circles/2/members", new JsonObject().put("ids", new JsonArray().add(3))},
      new Object[] {HttpMethod.POST, "/me/circles/2/members/remove",
          new JsonObject().put("ids", new JsonArray().add(3))},
      new Object[] {HttpMethod.GET, "/me/tags", null},
      new Object[] {HttpMethod.GET, "/me/tags/t/users", null},
      new Object[] {HttpMethod.PUT, "/me/tags/t/users/2", null},
      new Object[] {HttpMethod.DELETE, "/me/tags/t/users/2", null},
      new Object[] {HttpMethod.GET, "/me/blocks", null},
      new Object[] {HttpMethod.PUT, "/me/blocks/2", null},
      new Object[] {HttpMethod.DELETE, "/me/blocks/2", null},
      new Object[] {HttpMethod.GET, "/me/mutes", null},
      new Object[] {HttpMethod.PUT, "/me/mutes/2", null},
      new Object[] {HttpMethod.DELETE, "/me/mutes/2", null},
      new Object[] {HttpMethod.GET, "/me/hides", null},
      new Object[] {HttpMethod.PUT, "/me/hides/2", null},
      new Object[] {HttpMethod.DELETE, "/me/hides/2", null},
      new Object[] {HttpMethod.POST, "/relationships", new JsonObject().put("ids", new JsonArray().add(3))});

  /** Paths of the paged lists (userId placeholders are replaced by a real user). */
  private static final List<String> LISTS = List.of("/users/{id}/followers", "/users/{id}/following", "/me/friends",
      "/me/follow-requests/incoming", "/me/follow-requests/outgoing", "/me/blocks", "/me/mutes", "/me/hides",
      "/me/tags/t/users");

  private RelationsKith kith;

  @BeforeAll
  void start() {
    kith = RelationsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("every relations operation without a token is 401 unauthenticated, even with invalid input")
  void needsToken() {
    for (Object[] op : OPERATIONS) {
      String path = API + op[1];
      kith.call((HttpMethod) op[0], path, null, op[2]).problem(401, "unauthenticated");
      String invalid = path.replace("/2", "/0");
      kith.call((HttpMethod) op[0], invalid, null, op[2] == null ? null : new JsonObject().put("nope", 1))
          .problem(401, "unauthenticated");
    }
    kith.call(HttpMethod.PUT, API + "/following/2", "not-a-token", null).problem(401, "token_invalid");
  }

  @Test
  @DisplayName("user and group ids in the path must be integers from 1 to 2^53-1 (400 naming the parameter)")
  void badIds() {
    User me = kith.register();
    for (String bad : List.of("0", "-1", "abc", "1.5", "9007199254740992", "99999999999999999999")) {
      kith.put("/following/" + bad, me).problem(400, "validation_failed", "userId");
      kith.get("/users/" + bad + "/followers", me).problem(400, "validation_failed", "userId");
      kith.get("/users/" + bad + "/counts", me).problem(400, "validation_failed", "userId");
      kith.post("/me/follow-requests/" + bad + "/accept", me, null).problem(400, "validation_failed", "userId");
      kith.put("/me/blocks/" + bad, me).problem(400, "validation_failed", "userId");
      kith.put("/me/tags/t/users/" + bad, me).problem(400, "validation_failed", "userId");
      kith.get("/me/circles/" + bad + "/members", me).problem(400, "validation_failed", "circleId");
      kith.delete("/me/circles/" + bad, me).problem(400, "validation_failed", "circleId");
    }
  }

  @Test
  @DisplayName("limit must be 1 to 100 and cursor a number of at most 40 digits, on every list")
  void paging() {
    User me = kith.register();
    for (String template : LISTS) {
      String path = template.replace("{id}", me.path());
      kith.get(path + "?limit=100", me).expect(200);
      kith.get(path + "?limit=1&cursor=123", me).expect(200);
      kith.get(path + "?limit=0", me).problem(400, "validation_failed", "limit");
      kith.get(path + "?limit=101", me).problem(400, "validation_failed", "limit");
      kith.get(path + "?limit=ten", me).problem(400, "validation_failed", "limit");
      kith.get(path + "?cursor=abc", me).problem(400, "validation_failed", "cursor");
      kith.get(path + "?cursor=-5", me).problem(400, "validation_failed", "cursor");
      kith.get(path + "?cursor=" + "1".repeat(41), me).problem(400, "validation_failed", "cursor");
    }
    long group = kith.post("/me/circles", me, new JsonObject().put("name", "paging")).expect(201).getLong("id");
    kith.get("/me/circles/" + group + "/members?limit=0", me).problem(400, "validation_failed", "limit");
    kith.get("/me/circles/" + group + "/members?cursor=x1", me).problem(400, "validation_failed", "cursor");
  }

  @Test
  @DisplayName("a cursor that never came from a page is refused (400 cursor) or ends the list, never a 500")
  void oddCursor() {
    User me = kith.register();
    kith.get("/me/friends?cursor=0", me).problem(400, "validation_failed", "cursor");
    kith.get("/me/friends?cursor=" + "9".repeat(40), me).problem(400, "validation_failed", "cursor");
    JsonObject page = kith.get("/me/friends?cursor=1", me).expect(200);
    assertEquals(new JsonObject().put("items", new JsonArray()).putNull("next_cursor"), page);
  }

  @Test
  @DisplayName("bodies with unknown members, wrong types or missing members are 400 naming the field")
  void bodies() {
    User me = kith.register();
    long group = kith.post("/me/circles", me, new JsonObject().put("name", "bodies")).expect(201).getLong("id");

    assertNamed(kith.post("/me/circles", me, new JsonObject().put("name", "x").put("owner", 5)), "owner");
    assertNamed(kith.patch("/me/circles/" + group, me, new JsonObject().put("name", "x").put("size", 5)), "size");
    assertNamed(kith.post("/me/circles/" + group + "/members", me,
        new JsonObject().put("ids", new JsonArray().add(2)).put("actor", 9)), "actor");
    assertNamed(kith.post("/relationships", me,
        new JsonObject().put("ids", new JsonArray().add(2)).put("viewer", 9)), "viewer");
    kith.post("/me/circles", me, new JsonObject().put("name", 7)).problem(400, "validation_failed", "name");
    kith.patch("/me/circles/" + group, me, new JsonObject()).problem(400, "validation_failed", "name");
    kith.post("/me/circles/" + group + "/members", me, new JsonObject().put("ids", 2))
        .problem(400, "validation_failed", "ids");
    kith.call(HttpMethod.POST, API + "/me/circles", me.access(), "{\"name\":").problem(400, "malformed_json");
    assertEquals("bodies", kith.get("/me/circles", me).expect(200).getJsonArray("items").getJsonObject(0)
        .getString("name"));
  }

  private static void assertNamed(Reply reply, String member) {
    JsonObject problem = reply.problem(400, "validation_failed");
    String named = problem.getString("field", "") + " " + problem.getString("detail", "");
    assertTrue(named.contains(member), "the problem names the unknown member: " + problem.encode());
  }
}
