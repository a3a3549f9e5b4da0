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

import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Relationships in batch over HTTP: POST /api/v1/relationships")
class RelationshipsHttpTest {

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

  private static JsonObject rel(boolean following, boolean followedBy, boolean requested, boolean blocking,
                                boolean muting, JsonArray tags, JsonArray circles) {
    return new JsonObject().put("following", following).put("followed_by", followedBy)
        .put("friend", following && followedBy).put("requested", requested).put("blocking", blocking)
        .put("muting", muting).put("tags", tags).put("circles", circles);
  }

  @Test
  @DisplayName("each id maps to what that user is to the caller, with the caller's own tags and circles")
  void batch() {
    User me = kith.register();
    User friend = kith.register();
    User idol = kith.register();
    User fan = kith.register();
    User locked = kith.register();
    User pest = kith.register();
    User noisy = kith.register();
    User hider = kith.register();
    kith.befriend(me, friend);
    kith.follow(me, idol);
    kith.follow(fan, me);
    kith.requireApproval(locked);
    kith.follow(me, locked);
    kith.put("/me/blocks/" + pest.path(), me).expectNoContent();
    kith.put("/me/mutes/" + noisy.path(), me).expectNoContent();
    kith.put("/me/hides/" + me.path(), hider).expectNoContent();
    kith.put("/me/tags/school/users/" + friend.path(), me).expectNoContent();
    long group = kith.post("/me/circles", me, new JsonObject().put("name", "inner")).expect(201).getLong("id");
    kith.post("/me/circles/" + group + "/members", me, new JsonObject().put("ids", new JsonArray().add(friend.id())))
        .expect(200);
    long missing = RelationsKith.MAX_ID - 1;

    JsonArray ids = new JsonArray().add(friend.id()).add(idol.id()).add(fan.id()).add(locked.id()).add(pest.id())
        .add(noisy.id()).add(hider.id()).add(missing).add(friend.id());
    JsonObject all = kith.post("/relationships", me, new JsonObject().put("ids", ids)).expect(200);

    JsonArray none = new JsonArray();
    JsonObject expected = new JsonObject()
        .put(friend.path(), rel(true, true, false, false, false, new JsonArray().add("school"),
            new JsonArray().add(group)))
        .put(idol.path(), rel(true, false, false, false, false, none, none))
        .put(fan.path(), rel(false, true, false, false, false, none, none))
        .put(locked.path(), rel(false, false, true, false, false, none, none))
        .put(pest.path(), rel(false, false, false, true, false, none, none))
        .put(noisy.path(), rel(false, false, false, false, true, none, none))
        .put(hider.path(), rel(false, false, false, false, false, none, none))
        .put(Long.toString(missing), rel(false, false, false, false, false, none, none));
    assertEquals(expected, all);
  }

  @Test
  @DisplayName("the other side never learns of a block or a hide from the batch")
  void silentForTheOtherSide() {
    User blocker = kith.register();
    User blocked = kith.register();
    User hider = kith.register();
    kith.put("/me/blocks/" + blocked.path(), blocker).expectNoContent();
    kith.put("/me/hides/" + blocked.path(), hider).expectNoContent();

    JsonObject all = kith.post("/relationships", blocked, new JsonObject()
        .put("ids", new JsonArray().add(blocker.id()).add(hider.id()))).expect(200);

    JsonArray none = new JsonArray();
    assertEquals(new JsonObject()
        .put(blocker.path(), rel(false, false, false, false, false, none, none))
        .put(hider.path(), rel(false, false, false, false, false, none, none)), all);
  }

  @Test
  @DisplayName("the batch takes 1 to 1,000 valid ids and nothing else")
  void limits() {
    User me = kith.register();
    JsonArray thousand = new JsonArray();
    for (int i = 1; i <= 1000; i++) {
      thousand.add(RelationsKith.MAX_ID - i);
    }
    assertEquals(1000, kith.post("/relationships", me, new JsonObject().put("ids", thousand)).expect(200).size());

    thousand.add(1);
    kith.post("/relationships", me, new JsonObject().put("ids", thousand)).problem(400, "validation_failed", "ids");
    kith.post("/relationships", me, new JsonObject().put("ids", new JsonArray()))
        .problem(400, "validation_failed", "ids");
    kith.post("/relationships", me, new JsonObject()).problem(400, "validation_failed", "ids");
    kith.post("/relationships", me, new JsonObject().put("ids", new JsonArray().add(me.id()).add(-4)))
        .problem(400, "validation_failed", "ids.1");
    kith.post("/relationships", me, new JsonObject().put("ids", new JsonArray().add(RelationsKith.MAX_ID + 1)))
        .problem(400, "validation_failed", "ids.0");
    kith.post("/relationships", me, new JsonObject().put("ids", new JsonArray().add(1.5)))
        .problem(400, "validation_failed", "ids.0");
  }
}
