package io.kith.app.feeds;

import io.kith.app.support.Conformance;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One vocabulary for circles (issue 18): a post's audience names them {@code circles} ({@code groups} is a deprecated
 * alias for a while), and circle operations answer {@code circle_*} codes while chat groups keep {@code group_*}.
 * Chat groups run here too, so both kinds of group answer side by side.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Circles by their own name over HTTP: a post's audience.circles, the deprecated groups alias, circle codes")
class PostCirclesHttpTest {

  private TestKith kith;

  @BeforeAll
  void start() {
    kith = TestKith.node("pc", "accounts", "relations", "feeds", "messaging", "gateway");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** An author with two friends, one of them ({@code inside}) in the author's circle. */
  private record Cast(User author, User inside, User outside, User stranger, long circle) {
  }

  private Cast cast() {
    List<User> u = kith.register(4);
    kith.befriend(u.get(0), u.get(1));
    kith.befriend(u.get(0), u.get(2));
    long circle = kith.post("/me/circles", u.get(0), new JsonObject().put("name", "close")).expect(201).getLong("id");
    kith.post("/me/circles/" + circle + "/members", u.get(0),
        new JsonObject().put("ids", new JsonArray().add(u.get(1).id()))).expect(200);
    return new Cast(u.get(0), u.get(1), u.get(2), u.get(3), circle);
  }

  private static JsonObject post(String visibility, JsonObject audience) {
    return new JsonObject().put("text", "for some").put("visibility", visibility).put("audience", audience);
  }

  private static JsonObject circles(String member, long... ids) {
    JsonArray array = new JsonArray();
    for (long id : ids) {
      array.add(id);
    }
    return new JsonObject().put(member, array);
  }

  /** The post is readable by exactly {@code readers} among the cast's other users. */
  private void readableBy(Cast c, long post, List<User> readers) {
    for (User u : List.of(c.inside(), c.outside(), c.stranger())) {
      if (readers.contains(u)) {
        kith.get("/posts/" + post, u).expect(200);
      } else {
        kith.get("/posts/" + post, u).problem(404, "post_not_found");
      }
    }
  }

  @Test
  @DisplayName("a post for audience.circles reaches exactly the circle, and its author reads the audience as circles, "
      + "as the document declares it")
  void circlesAudience() {
    Cast c = cast();
    JsonObject created = kith.post("/posts", c.author(), post("only", circles("circles", c.circle()))).expect(201);
    long id = created.getLong("id");
    JsonObject audience = new JsonObject().put("users", new JsonArray())
        .put("circles", new JsonArray().add(c.circle())).put("tags", new JsonArray());
    assertEquals(audience, created.getJsonObject("audience"), created.encode());
    assertEquals(List.of(), Conformance.load().problems("publishPost", 201, created), "the view is the document's");
    assertEquals(audience, kith.get("/posts/" + id, c.author()).expect(200).getJsonObject("audience"));

    readableBy(c, id, List.of(c.inside()));
    JsonObject home = kith.awaitPage("/timelines/home", c.inside(), "the circle post in the member's home",
        page -> TestKith.ids(page).contains(id));
    assertFalse(TestKith.item(home, id).containsKey("audience"), "the audience is the author's only");

    // except: the author's friends but the circle
    long except = kith.post("/posts", c.author(), post("except", circles("circles", c.circle()))).expect(201)
        .getLong("id");
    readableBy(c, except, List.of(c.outside()));
  }

  @Test
  @DisplayName("the deprecated audience.groups is still read as circles on publish and edit, and answered as circles")
  void groupsAlias() {
    Cast c = cast();
    JsonObject created = kith.post("/posts", c.author(), post("only", circles("groups", c.circle()))).expect(201);
    long id = created.getLong("id");
    JsonObject audience = created.getJsonObject("audience");
    assertEquals(new JsonArray().add(c.circle()), audience.getJsonArray("circles"), created.encode());
    assertFalse(audience.containsKey("groups"), "views answer circles only: " + created.encode());
    readableBy(c, id, List.of(c.inside()));

    JsonObject edited = kith.patch("/posts/" + id, c.author(), new JsonObject().put("visibility", "except")
        .put("audience", circles("groups", c.circle()))).expect(200);
    assertEquals(new JsonArray().add(c.circle()), edited.getJsonObject("audience").getJsonArray("circles"));
    readableBy(c, id, List.of(c.outside()));
  }

  @Test
  @DisplayName("circles and groups together, or a circle that is not the author's, is 400 validation_failed")
  void refusals() {
    Cast c = cast();
    JsonObject both = circles("circles", c.circle()).put("groups", new JsonArray().add(c.circle()));
    for (JsonObject problem : List.of(
        kith.post("/posts", c.author(), post("only", both)).problem(400, "validation_failed"),
        kith.post("/posts", c.author(), post("only", both.copy().put("groups", new JsonArray())))
            .problem(400, "validation_failed"))) {
      String named = problem.getString("field", "") + " " + problem.getString("detail", "");
      assertTrue(named.contains("audience"), "names the audience: " + problem.encode());
    }
    long id = kith.post("/posts", c.author(), post("only", circles("circles", c.circle()))).expect(201).getLong("id");
    kith.patch("/posts/" + id, c.author(), new JsonObject().put("audience", both)).problem(400, "validation_failed");

    Cast other = cast();
    kith.post("/posts", c.author(), post("only", circles("circles", other.circle())))
        .problem(400, "validation_failed", "audience.circles");
    kith.post("/posts", c.author(), post("except", circles("groups", c.circle() + 1_000_000L)))
        .problem(400, "validation_failed", "audience.circles");
    kith.patch("/posts/" + id, c.author(), new JsonObject().put("audience", circles("circles", other.circle())))
        .problem(400, "validation_failed", "audience.circles");
    readableBy(c, id, List.of(c.inside()));
  }

  @Test
  @DisplayName("an unknown circle is 404 circle_not_found and a taken circle name 409 circle_name_taken, while a chat "
      + "group's unknown id stays 404 group_not_found")
  void codes() {
    Cast c = cast();
    String unknown = "/me/circles/" + (TestKith.MAX_ID - 5);
    kith.get(unknown + "/members", c.author()).problem(404, "circle_not_found");
    kith.patch(unknown, c.author(), new JsonObject().put("name", "x")).problem(404, "circle_not_found");
    kith.delete(unknown, c.author()).problem(404, "circle_not_found");
    kith.get("/me/circles/" + c.circle() + "/members", c.outside()).problem(404, "circle_not_found");

    kith.post("/me/circles", c.author(), new JsonObject().put("name", "CLOSE")).problem(409, "circle_name_taken");
    long work = kith.post("/me/circles", c.author(), new JsonObject().put("name", "work")).expect(201).getLong("id");
    kith.patch("/me/circles/" + work, c.author(), new JsonObject().put("name", "Close"))
        .problem(409, "circle_name_taken");

    kith.get("/groups/" + (TestKith.MAX_ID - 5), c.author()).problem(404, "group_not_found");
    // a circle's id is no chat group either
    kith.get("/groups/" + c.circle(), c.author()).problem(404, "group_not_found");
  }
}
