package io.kith.app.messaging;

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

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.kith.app.messaging.MessagingKith.API;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Whiteboards over HTTP")
class BoardHttpTest {

  private MessagingKith kith;

  @BeforeAll
  void start() {
    kith = MessagingKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  static JsonObject stroke(int points) {
    JsonArray pts = new JsonArray();
    for (int i = 0; i < points; i++) {
      pts.add(new JsonArray().add(i * 1.5).add(-i));
    }
    return new JsonObject().put("tool", "pen").put("color", "#00ff00").put("width", 4).put("points", pts)
        .put("client_id", UUID.randomUUID().toString());
  }

  private void friends(User a, User b) {
    kith.follow(a, b);
    kith.follow(b, a);
  }

  private Reply delete(String path, User as) {
    return kith.call(HttpMethod.DELETE, API + path, as == null ? null : as.access(), null);
  }

  private static List<String> clientIds(JsonObject page) {
    List<String> out = new ArrayList<>();
    page.getJsonArray("items").forEach(i -> {
      JsonObject e = (JsonObject) i;
      out.add("clear".equals(e.getString("kind")) ? "clear" : e.getJsonObject("stroke").getString("client_id"));
    });
    return out;
  }

  @Test
  @DisplayName("create with a friend, draw, clear, page the strokes, add and remove members, delete: all as the "
      + "token's user")
  void boardFlow() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    friends(alice, bob);
    friends(alice, carol);
    JsonObject board = kith.post("/boards", alice, new JsonObject().put("title", "trip")
        .put("members", new JsonArray().add(bob.id()))).expect(201);
    String path = "/boards/" + board.getLong("id");
    assertEquals(List.of(alice.id(), bob.id()), board.getJsonArray("members").getList());
    assertEquals(board, kith.get(path, bob).expect(200));
    assertEquals(board.getLong("id"), kith.get("/boards", bob).expect(200).getJsonArray("items").getJsonObject(0)
        .getLong("id"));

    List<String> drawn = new ArrayList<>();
    long lastSeq = 0;
    for (User who : List.of(alice, bob, alice)) {
      JsonObject s = stroke(3);
      JsonObject stored = kith.post(path + "/strokes", who, s).expect(201);
      assertEquals(who.id(), stored.getLong("by"));
      assertTrue(stored.getLong("seq") > lastSeq);
      lastSeq = stored.getLong("seq");
      drawn.add(s.getString("client_id"));
    }
    JsonObject all = kith.get(path + "/strokes", bob).expect(200);
    assertTrue(all.getBoolean("reset"));
    assertEquals(drawn, clientIds(all));
    assertEquals(lastSeq, all.getLong("last_seq"));
    long firstSeq = all.getJsonArray("items").getJsonObject(0).getLong("seq");
    JsonObject rest = kith.get(path + "/strokes?after_seq=" + firstSeq + "&limit=1", bob).expect(200);
    assertFalse(rest.getBoolean("reset"));
    assertEquals(drawn.subList(1, 2), clientIds(rest));

    JsonObject cleared = kith.post(path + "/clear", bob, null).expect(200);
    assertEquals(lastSeq + 1, cleared.getLong("seq"));
    JsonObject afterClear = kith.get(path + "/strokes?after_seq=" + lastSeq, alice).expect(200);
    assertFalse(afterClear.getBoolean("reset"));
    assertEquals(List.of("clear"), clientIds(afterClear));
    assertEquals(bob.id(), kith.get(path, alice).expect(200).getLong("cleared_by"));

    assertEquals(List.of(alice.id(), bob.id(), carol.id()), kith.post(path + "/members", alice,
        new JsonObject().put("users", new JsonArray().add(carol.id()))).expect(200).getJsonArray("members").getList());
    delete(path + "/members/" + bob.path(), alice).expectNoContent();
    kith.get(path, bob).problem(404, "board_not_found");
    kith.post(path + "/strokes", bob, stroke(1)).problem(404, "board_not_found");
    delete(path + "/members/" + carol.path(), carol).expectNoContent();
    kith.get(path + "/strokes", carol).problem(404, "board_not_found");

    delete(path, alice).expectNoContent();
    kith.get(path, alice).problem(404, "board_not_found");
  }

  @Test
  @DisplayName("refusals: a non-member gets 404 on every operation, a stranger cannot be a member, only the owner "
      + "manages, invalid strokes are 400, no token is 401")
  void refusals() {
    User alice = kith.register();
    User bob = kith.register();
    User dave = kith.register();
    friends(alice, bob);
    kith.post("/boards", alice, new JsonObject().put("title", "x").put("members", new JsonArray().add(dave.id())))
        .problem(403, "board_member_not_friend");
    // NUL and other controls, and an unpaired surrogate sent as a JSON escape, in a title
    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "two\\nlines")) {
      kith.post("/boards", alice, "{\"title\": \"" + escaped + "\"}").problem(400, "validation_failed", "title");
    }
    assertEquals(0, kith.get("/boards", alice).expect(200).getJsonArray("items").size());
    JsonObject board = kith.post("/boards", alice, new JsonObject().put("title", "x")
        .put("members", new JsonArray().add(bob.id()))).expect(201);
    String path = "/boards/" + board.getLong("id");
    kith.get(path, dave).problem(404, "board_not_found");
    kith.get(path + "/strokes", dave).problem(404, "board_not_found");
    kith.post(path + "/strokes", dave, stroke(2)).problem(404, "board_not_found");
    kith.post(path + "/clear", dave, null).problem(404, "board_not_found");
    kith.post(path + "/members", dave, new JsonObject().put("users", new JsonArray().add(dave.id())))
        .problem(404, "board_not_found");
    delete(path + "/members/" + bob.path(), dave).problem(404, "board_not_found");
    delete(path, dave).problem(404, "board_not_found");
    kith.get("/boards/123456789", alice).problem(404, "board_not_found");

    delete(path, bob).problem(403, "not_board_owner");
    kith.post(path + "/members", bob, new JsonObject().put("users", new JsonArray().add(alice.id())))
        .problem(403, "not_board_owner");
    delete(path + "/members/" + alice.path(), alice).problem(409, "board_owner_cannot_leave");

    kith.post(path + "/strokes", bob, stroke(2).put("color", "green")).problem(400, "validation_failed");
    kith.post(path + "/strokes", bob, stroke(2).put("width", 51)).problem(400, "validation_failed");
    kith.post(path + "/strokes", bob, stroke(2).put("points", new JsonArray().add(new JsonArray().add(1))))
        .problem(400, "validation_failed");
    kith.post(path + "/strokes", bob, stroke(2).put("points", new JsonArray().add(new JsonArray().add(1)
        .add(200_000)))).problem(400, "validation_failed");
    kith.post(path + "/strokes", bob, stroke(1001)).problem(400, "validation_failed");
    kith.post(path + "/strokes", bob, stroke(1).put("pressure", 1)).problem(400, "validation_failed");
    // a pen needs a colour (the service's rule; the contract cannot say it)
    JsonObject noColour = stroke(1);
    noColour.remove("color");
    kith.post(path + "/strokes", bob, noColour).problem(400, "validation_failed", "color");
    kith.post(path + "/strokes", null, stroke(1)).problem(401, "unauthenticated");
    assertEquals(0L, kith.get(path + "/strokes", alice).expect(200).getLong("last_seq"), "nothing was drawn");
    kith.get("/boards?group=" + board.getLong("id"), alice).problem(404, "group_not_found");
  }
}
