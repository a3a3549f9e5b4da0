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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.kith.app.relations.RelationsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Blocks, mutes and hides over HTTP: /api/v1/me/blocks, /me/mutes, /me/hides")
class BlocksMutesHidesHttpTest {

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

  private JsonObject relationship(User viewer, User other) {
    return kith.post("/relationships", viewer, new JsonObject().put("ids", new JsonArray().add(other.id())))
        .expect(200).getJsonObject(other.path());
  }

  @Test
  @DisplayName("blocks and unblocks past relations.blocks-per-minute are 429 rate_limited with Retry-After and change "
      + "nothing; another user is not affected")
  void blocksLimited() {
    try (RelationsKith limited = RelationsKith.start(new JsonObject().put("blocks-per-minute", 3))) {
      User blocker = limited.register();
      User other = limited.register();
      List<User> targets = limited.register(3);
      limited.put("/me/blocks/" + targets.get(0).path(), blocker).expectNoContent();
      limited.delete("/me/blocks/" + targets.get(0).path(), blocker).expectNoContent();
      limited.put("/me/blocks/" + targets.get(1).path(), blocker).expectNoContent();

      limited.put("/me/blocks/" + targets.get(2).path(), blocker).throttled("rate_limited", 60);
      limited.delete("/me/blocks/" + targets.get(1).path(), blocker).throttled("rate_limited", 60);

      assertEquals(List.of(targets.get(1).id()), ids(limited.get("/me/blocks", blocker).expect(200)));
      limited.put("/me/blocks/" + targets.get(2).path(), other).expectNoContent();
      assertEquals(List.of(targets.get(2).id()), ids(limited.get("/me/blocks", other).expect(200)));
    }
  }

  @Test
  @DisplayName("blocking ends follows both ways and the friendship, and lists the blocked user")
  void blockEndsEdges() {
    User blocker = kith.register();
    User blocked = kith.register();
    kith.befriend(blocker, blocked);

    kith.put("/me/blocks/" + blocked.path(), blocker).expectNoContent();
    kith.put("/me/blocks/" + blocked.path(), blocker).expectNoContent();

    assertEquals(List.of(blocked.id()), ids(kith.get("/me/blocks", blocker).expect(200)));
    assertEquals(new JsonObject().put("following_count", 0).put("follower_count", 0).put("friend_count", 0),
        kith.counts(blocker, blocker));
    assertEquals(new JsonObject().put("following_count", 0).put("follower_count", 0).put("friend_count", 0),
        kith.counts(blocked, blocked));
    assertEquals(List.of(), ids(kith.get("/me/friends", blocker).expect(200)));
    JsonObject rel = relationship(blocker, blocked);
    assertTrue(rel.getBoolean("blocking"), rel.encode());
    assertFalse(rel.getBoolean("following") || rel.getBoolean("followed_by") || rel.getBoolean("friend"),
        rel.encode());
  }

  @Test
  @DisplayName("a blocked user's follow answers as for a missing user and changes nothing; nothing reveals the block")
  void silentBlock() {
    User blocker = kith.register();
    User blocked = kith.register();
    User bystander = kith.register();
    kith.put("/me/blocks/" + blocked.path(), blocker).expectNoContent();

    JsonObject refused = kith.put("/following/" + blocker.path(), blocked).problem(404, "user_not_found");
    long missing = blocker.id() + 1_000_000_000_000L;
    JsonObject absent = kith.put("/following/" + missing, blocked).problem(404, "user_not_found");
    assertEquals(absent.copy().put("instance", null), refused.copy().put("instance", null));

    assertEquals(0, kith.counts(blocker, blocker).getInteger("follower_count"));
    assertEquals(List.of(), ids(kith.get("/users/" + blocker.path() + "/followers", blocker).expect(200)));
    assertEquals(List.of(), ids(kith.get("/me/follow-requests/incoming", blocker).expect(200)));
    JsonObject seen = relationship(blocked, blocker);
    assertFalse(seen.containsKey("blocked_by"), "the relationship never shows being blocked: " + seen.encode());
    assertFalse(seen.containsKey("hidden_from"), seen.encode());
    assertFalse(seen.getBoolean("following"), seen.encode());

    // the two look absent to each other, not to others
    kith.get("/users/" + blocker.path() + "/followers", blocked).problem(404, "user_not_found");
    kith.get("/users/" + blocker.path() + "/following", blocked).problem(404, "user_not_found");
    kith.get("/users/" + blocked.path() + "/followers", blocker).problem(404, "user_not_found");
    kith.get("/users/" + blocker.path() + "/followers", bystander).expect(200);
  }

  @Test
  @DisplayName("across a block either way a profile by id and by username is the problem a missing account gives")
  void blockedProfileLooksMissing() {
    User blocker = kith.register();
    User blocked = kith.register();
    User bystander = kith.register();
    kith.put("/me/blocks/" + blocked.path(), blocker).expectNoContent();
    long missing = blocker.id() + 1_000_000_000_000L;

    JsonObject absentById = kith.get("/users/" + missing, blocked).problem(404, "user_not_found");
    JsonObject absentByName = kith.get("/users/by-username/" + RelationsKith.unique("nobody"), blocked)
        .problem(404, "user_not_found");
    for (User[] pair : new User[][] {{blocked, blocker}, {blocker, blocked}}) {
      User viewer = pair[0];
      User other = pair[1];
      assertEquals(absentById.copy().put("instance", null),
          kith.get("/users/" + other.path(), viewer).problem(404, "user_not_found").put("instance", null));
      assertEquals(absentByName.copy().put("instance", null),
          kith.get("/users/by-username/" + other.username(), viewer).problem(404, "user_not_found")
              .put("instance", null));
    }
    JsonObject seen = kith.get("/users/" + blocker.path(), bystander).expect(200);
    assertEquals(blocker.username(), seen.getString("username"));
    assertTrue(seen.containsKey("follower_count"), seen.encode());
  }

  @Test
  @DisplayName("following a user you block is 409 blocking_user; unblocking allows it again and restores nothing")
  void unblock() {
    User blocker = kith.register();
    User blocked = kith.register();
    kith.befriend(blocker, blocked);
    kith.put("/me/blocks/" + blocked.path(), blocker).expectNoContent();

    kith.put("/following/" + blocked.path(), blocker).problem(409, "blocking_user");

    kith.delete("/me/blocks/" + blocked.path(), blocker).expectNoContent();
    kith.delete("/me/blocks/" + blocked.path(), blocker).expectNoContent();
    assertEquals(List.of(), ids(kith.get("/me/blocks", blocker).expect(200)));
    assertEquals(0, kith.counts(blocker, blocker).getInteger("follower_count"));
    assertEquals("following", kith.follow(blocker, blocked));
    assertEquals("following", kith.follow(blocked, blocker));
    assertEquals(List.of(blocked.id()), ids(kith.get("/me/friends", blocker).expect(200)));
  }

  @Test
  @DisplayName("blocking drops a pending follow request to the blocker")
  void blockDropsRequest() {
    User owner = kith.register();
    User fan = kith.register();
    kith.requireApproval(owner);
    assertEquals("requested", kith.follow(fan, owner));

    kith.put("/me/blocks/" + fan.path(), owner).expectNoContent();

    assertEquals(List.of(), ids(kith.get("/me/follow-requests/incoming", owner).expect(200)));
    kith.post("/me/follow-requests/" + fan.path() + "/accept", owner, null).problem(404, "request_not_found");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"mutes", "hides"})
  @DisplayName("mutes and hides: set (idempotent), listed newest first, cleared; follows unchanged; invisible to the other")
  void mutesAndHides(String kind) {
    User me = kith.register();
    User first = kith.register();
    User second = kith.register();
    kith.befriend(me, first);

    kith.put("/me/" + kind + "/" + first.path(), me).expectNoContent();
    kith.put("/me/" + kind + "/" + first.path(), me).expectNoContent();
    kith.put("/me/" + kind + "/" + second.path(), me).expectNoContent();

    assertEquals(List.of(second.id(), first.id()), ids(kith.get("/me/" + kind, me).expect(200)));
    assertEquals(List.of(second.id(), first.id()), kith.allIds("/me/" + kind, me, 1));
    assertEquals(List.of(first.id()), ids(kith.get("/me/friends", me).expect(200)));
    assertEquals(List.of(), ids(kith.get("/me/" + kind, first).expect(200)));
    JsonObject theirs = relationship(first, me);
    assertTrue(theirs.getBoolean("friend"), theirs.encode());
    assertFalse(theirs.containsKey("hidden_from"), theirs.encode());
    assertFalse(theirs.getBoolean("muting"), theirs.encode());
    if (kind.equals("mutes")) {
      assertTrue(relationship(me, first).getBoolean("muting"));
    }

    kith.delete("/me/" + kind + "/" + first.path(), me).expectNoContent();
    kith.delete("/me/" + kind + "/" + first.path(), me).expectNoContent();
    assertEquals(List.of(second.id()), ids(kith.get("/me/" + kind, me).expect(200)));

    kith.put("/me/" + kind + "/" + me.path(), me).problem(400, "self_relation");
    kith.put("/me/" + kind + "/" + (RelationsKith.MAX_ID - 5), me).problem(404, "user_not_found");
  }

  @Test
  @DisplayName("blocking yourself is 400 self_relation; blocking a missing user is 404 user_not_found")
  void blockRefusals() {
    User me = kith.register();
    kith.put("/me/blocks/" + me.path(), me).problem(400, "self_relation");
    kith.put("/me/blocks/" + (RelationsKith.MAX_ID - 5), me).problem(404, "user_not_found");
  }
}
