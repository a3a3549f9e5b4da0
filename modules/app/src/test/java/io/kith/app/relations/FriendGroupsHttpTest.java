package io.kith.app.relations;

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

import static io.kith.app.relations.RelationsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Circles (the relations service's friend groups) over HTTP: /api/v1/me/circles")
class FriendGroupsHttpTest {

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

  private JsonObject create(User owner, String name) {
    return kith.post("/me/circles", owner, new JsonObject().put("name", name)).expect(201);
  }

  private List<JsonObject> groups(User owner) {
    return kith.get("/me/circles", owner).expect(200).getJsonArray("items").stream().map(o -> (JsonObject) o).toList();
  }

  private static JsonObject ids(long... ids) {
    JsonArray array = new JsonArray();
    for (long id : ids) {
      array.add(id);
    }
    return new JsonObject().put("ids", array);
  }

  @Test
  @DisplayName("a circle is created (201), listed, renamed and deleted by its owner")
  void lifecycle() {
    User owner = kith.register();

    JsonObject family = create(owner, "family");
    assertEquals("family", family.getString("name"), family.encode());
    assertEquals(0, family.getInteger("size"), family.encode());
    assertNotNull(family.getLong("created"), family.encode());
    long id = family.getLong("id");
    JsonObject work = create(owner, "colleagues");

    assertEquals(java.util.Set.of(family, work), java.util.Set.copyOf(groups(owner)));

    JsonObject renamed = kith.patch("/me/circles/" + id, owner, new JsonObject().put("name", "relatives")).expect(200);
    assertEquals("relatives", renamed.getString("name"), renamed.encode());
    assertEquals(id, renamed.getLong("id"));

    kith.delete("/me/circles/" + id, owner).expectNoContent();
    JsonArray left = kith.get("/me/circles", owner).expect(200).getJsonArray("items");
    assertEquals(1, left.size(), left.encode());
    assertEquals(work.getLong("id"), left.getJsonObject(0).getLong("id"));
    kith.delete("/me/circles/" + id, owner).problem(404, "circle_not_found");
  }

  @Test
  @DisplayName("circle names are unique per owner whatever their case (409 circle_name_taken), and 1 to 40 characters")
  void names() {
    User owner = kith.register();
    User other = kith.register();
    JsonObject first = create(owner, "Family");
    JsonObject second = create(owner, "Friends");

    kith.post("/me/circles", owner, new JsonObject().put("name", "family")).problem(409, "circle_name_taken");
    kith.patch("/me/circles/" + second.getLong("id"), owner, new JsonObject().put("name", "FAMILY"))
        .problem(409, "circle_name_taken");
    create(other, "family");

    kith.post("/me/circles", owner, new JsonObject().put("name", "")).problem(400, "validation_failed", "name");
    kith.post("/me/circles", owner, new JsonObject().put("name", "x".repeat(41)))
        .problem(400, "validation_failed", "name");
    kith.post("/me/circles", owner, new JsonObject().put("name", "   ")).problem(400, "validation_failed", "name");
    kith.post("/me/circles", owner, new JsonObject()).problem(400, "validation_failed", "name");
    // NUL and other controls, and an unpaired surrogate sent as a JSON escape, are refused as well
    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "two\\nlines")) {
      kith.post("/me/circles", owner, "{\"name\": \"" + escaped + "\"}").problem(400, "validation_failed", "name");
      kith.patch("/me/circles/" + second.getLong("id"), owner, "{\"name\": \"" + escaped + "\"}")
          .problem(400, "validation_failed", "name");
    }
    assertEquals(java.util.Set.of(first, second), java.util.Set.copyOf(groups(owner)));
  }

  @Test
  @DisplayName("only friends can be added: a non-friend fails the whole call with 400 not_friends naming them")
  void onlyFriends() {
    User owner = kith.register();
    User friend = kith.register();
    User follower = kith.register();
    User stranger = kith.register();
    kith.befriend(owner, friend);
    kith.follow(follower, owner);
    long group = create(owner, "close").getLong("id");

    JsonObject problem = kith.post("/me/circles/" + group + "/members", owner,
        ids(friend.id(), follower.id(), stranger.id())).problem(400, "not_friends");
    assertEquals(new JsonArray().add(follower.id()).add(stranger.id()), problem.getJsonArray("not_friends"),
        problem.encode());
    assertEquals(List.of(), RelationsKith.ids(kith.get("/me/circles/" + group + "/members", owner).expect(200)));

    JsonObject after = kith.post("/me/circles/" + group + "/members", owner, ids(friend.id())).expect(200);
    assertEquals(1, after.getInteger("size"), after.encode());
    assertEquals(List.of(friend.id()),
        RelationsKith.ids(kith.get("/me/circles/" + group + "/members", owner).expect(200)));
  }

  @Test
  @DisplayName("members are added, listed newest first, removed; a friendship ending removes the member")
  void members() {
    User owner = kith.register();
    List<User> friends = kith.register(3);
    friends.forEach(f -> kith.befriend(owner, f));
    long group = create(owner, "team").getLong("id");
    String members = "/me/circles/" + group + "/members";

    kith.post(members, owner, ids(friends.get(0).id())).expect(200);
    JsonObject all = kith.post(members, owner, ids(friends.get(1).id(), friends.get(2).id(), friends.get(0).id()))
        .expect(200);
    assertEquals(3, all.getInteger("size"), all.encode());
    List<Long> listed = kith.allIds(members, owner, 2);
    assertEquals(3, listed.size(), listed.toString());
    assertEquals(friends.get(0).id(), listed.get(2));
    assertTrue(listed.containsAll(friends.stream().map(User::id).toList()), listed.toString());

    JsonObject removed = kith.post(members + "/remove", owner, ids(friends.get(1).id())).expect(200);
    assertEquals(2, removed.getInteger("size"), removed.encode());
    assertEquals(2, RelationsKith.ids(kith.get(members, owner).expect(200)).size());

    kith.delete("/following/" + owner.path(), friends.get(2)).expectNoContent();
    assertEquals(List.of(friends.get(0).id()), RelationsKith.ids(kith.get(members, owner).expect(200)));
    assertEquals(1, kith.get("/me/circles", owner).expect(200).getJsonArray("items").getJsonObject(0)
        .getInteger("size"));
  }

  @Test
  @DisplayName("another user's circle is 404 circle_not_found for every operation, like a missing one")
  void othersGroupsArePrivate() {
    User owner = kith.register();
    User friend = kith.register();
    User intruder = kith.register();
    kith.befriend(owner, friend);
    kith.befriend(intruder, friend);
    long group = create(owner, "secret").getLong("id");
    kith.post("/me/circles/" + group + "/members", owner, ids(friend.id())).expect(200);
    String path = "/me/circles/" + group;

    kith.get(path + "/members", intruder).problem(404, "circle_not_found");
    kith.patch(path, intruder, new JsonObject().put("name", "mine")).problem(404, "circle_not_found");
    kith.delete(path, intruder).problem(404, "circle_not_found");
    kith.post(path + "/members", intruder, ids(friend.id())).problem(404, "circle_not_found");
    kith.post(path + "/members/remove", intruder, ids(friend.id())).problem(404, "circle_not_found");
    kith.get("/me/circles/" + (RelationsKith.MAX_ID - 3) + "/members", owner).problem(404, "circle_not_found");
    assertEquals(List.of(), kith.get("/me/circles", intruder).expect(200).getJsonArray("items").getList());

    JsonObject mine = kith.get("/me/circles", owner).expect(200).getJsonArray("items").getJsonObject(0);
    assertEquals("secret", mine.getString("name"));
    assertEquals(1, mine.getInteger("size"));
  }

  @Test
  @DisplayName("member lists are bounded: no ids, more than 500 ids or a bad id is 400 naming the field")
  void memberLimits() {
    User owner = kith.register();
    long group = create(owner, "big").getLong("id");
    String members = "/me/circles/" + group + "/members";

    kith.post(members, owner, new JsonObject().put("ids", new JsonArray())).problem(400, "validation_failed", "ids");
    JsonArray tooMany = new JsonArray();
    for (int i = 1; i <= 501; i++) {
      tooMany.add(i);
    }
    kith.post(members, owner, new JsonObject().put("ids", tooMany)).problem(400, "validation_failed", "ids");
    kith.post(members + "/remove", owner, new JsonObject().put("ids", tooMany))
        .problem(400, "validation_failed", "ids");
    kith.post(members, owner, new JsonObject().put("ids", new JsonArray().add(0)))
        .problem(400, "validation_failed", "ids.0");
    kith.post(members, owner, new JsonObject().put("ids", new JsonArray().add("12")))
        .problem(400, "validation_failed", "ids.0");
  }
}
