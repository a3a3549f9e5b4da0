package io.kith.app.relations;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Removing a follower over HTTP: DELETE /api/v1/me/followers/{userId}, without a block")
class RemoveFollowerHttpTest {

  private TestKith kith;

  @BeforeAll
  void start() {
    kith = TestKith.node("rf", "accounts", "relations", "feeds", "gateway");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private JsonObject counts(User of, User as) {
    return kith.get("/users/" + of.path() + "/counts", as).expect(200);
  }

  @Test
  @DisplayName("a removed follower leaves both lists and every count exactly, ends the friendship, and may follow "
      + "again; removing twice is 204 and changes nothing")
  void listsAndCounts() {
    User owner = kith.register();
    User fan = kith.register();
    User stays = kith.register();
    kith.befriend(owner, fan);
    kith.follow(stays, owner);

    kith.delete("/me/followers/" + fan.path(), owner).expectNoContent();
    kith.delete("/me/followers/" + fan.path(), owner).expectNoContent();

    assertEquals(List.of(stays.id()), RelationsKith.ids(kith.get("/users/" + owner.path() + "/followers", owner)
        .expect(200)));
    assertEquals(List.of(), RelationsKith.ids(kith.get("/users/" + fan.path() + "/following", fan).expect(200)));
    assertEquals(new JsonObject().put("following_count", 1).put("follower_count", 1).put("friend_count", 0),
        counts(owner, owner));
    assertEquals(new JsonObject().put("following_count", 0).put("follower_count", 1).put("friend_count", 0),
        counts(fan, fan));
    assertEquals(List.of(), RelationsKith.ids(kith.get("/me/friends", owner).expect(200)));
    // the owner still follows the fan: only the fan's edge went
    assertEquals(List.of(owner.id()), RelationsKith.ids(kith.get("/users/" + fan.path() + "/followers", fan)
        .expect(200)));

    assertEquals("following", kith.follow(fan, owner));
    assertEquals(2, counts(owner, owner).getInteger("follower_count"));
  }

  @Test
  @DisplayName("a removed follower of an account that approves followers needs approval to follow again")
  void lockedAccount() {
    User owner = kith.register();
    User fan = kith.register();
    kith.follow(fan, owner);
    kith.patch("/me", owner, new JsonObject().put("settings", new JsonObject().put("follow_approval", true)))
        .expect(200);

    kith.delete("/me/followers/" + fan.path(), owner).expectNoContent();

    assertEquals("requested", kith.follow(fan, owner));
    assertEquals(0, counts(owner, owner).getInteger("follower_count"));
    assertEquals(List.of(fan.id()), RelationsKith.ids(kith.get("/me/follow-requests/incoming", owner).expect(200)));
  }

  @Test
  @DisplayName("the removed follower's home timeline stops holding the owner's followers-only post")
  void timeline() {
    User owner = kith.register();
    User fan = kith.register();
    kith.get("/timelines/home", fan).expect(200);
    kith.follow(fan, owner);
    long post = kith.publish(owner, "for my followers", "followers").getLong("id");
    kith.awaitPage("/timelines/home", fan, "the followers-only post in the follower's home",
        page -> TestKith.ids(page).contains(post));

    kith.delete("/me/followers/" + fan.path(), owner).expectNoContent();

    JsonObject home = kith.awaitPage("/timelines/home", fan, "the post gone from the removed follower's home",
        page -> !TestKith.ids(page).contains(post));
    assertTrue(!TestKith.ids(home).contains(post), home.encode());
    kith.get("/posts/" + post, fan).problem(404, "post_not_found");
  }

  @Test
  @DisplayName("removing a user who does not follow is 204 and changes no one's counts; oneself is 400 "
      + "self_relation; a bad id is 400; without a token 401")
  void refusals() {
    User owner = kith.register();
    User stranger = kith.register();
    kith.follow(owner, stranger);

    kith.delete("/me/followers/" + stranger.path(), owner).expectNoContent();
    assertEquals(1, counts(stranger, owner).getInteger("follower_count"));
    assertEquals(0, counts(owner, owner).getInteger("follower_count"));

    kith.delete("/me/followers/" + owner.path(), owner).problem(400, "self_relation");
    kith.delete("/me/followers/not-a-number", owner).problem(400, "validation_failed");
    kith.delete("/me/followers/" + stranger.path(), null).problem(401, "unauthenticated");
  }
}
