package io.kith.app.relations;

import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.kith.app.relations.RelationsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Follows over HTTP: /api/v1/following, followers and following lists, counts, friends")
class FollowHttpTest {

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
  @DisplayName("follows and unfollows past relations.follows-per-minute are 429 rate_limited with Retry-After and "
      + "change nothing; another user is not affected")
  void followsLimited() {
    try (RelationsKith limited = RelationsKith.start(new JsonObject().put("follows-per-minute", 3))) {
      User fan = limited.register();
      User other = limited.register();
      List<User> stars = limited.register(3);
      assertEquals("following", limited.follow(fan, stars.get(0)));
      limited.delete("/following/" + stars.get(0).path(), fan).expectNoContent();
      assertEquals("following", limited.follow(fan, stars.get(1)));

      limited.put("/following/" + stars.get(2).path(), fan).throttled("rate_limited", 60);
      limited.delete("/following/" + stars.get(1).path(), fan).throttled("rate_limited", 60);

      assertEquals(List.of(stars.get(1).id()), ids(limited.get("/users/" + fan.path() + "/following", fan)
          .expect(200)));
      assertEquals("following", limited.follow(other, stars.get(2)));
      assertEquals(List.of(other.id()), ids(limited.get("/users/" + stars.get(2).path() + "/followers", other)
          .expect(200)));
    }
  }

  @Test
  @DisplayName("following is idempotent, shows in both lists with the user's summary, and is counted once")
  void followAndLists() {
    User a = kith.register();
    User b = kith.register();

    assertEquals("following", kith.follow(a, b));
    assertEquals("following", kith.follow(a, b));

    JsonObject followers = kith.get("/users/" + b.path() + "/followers", a).expect(200);
    assertEquals(List.of(a.id()), ids(followers));
    JsonObject item = followers.getJsonArray("items").getJsonObject(0);
    assertEquals(a.username(), item.getJsonObject("user").getString("username"), item.encode());
    assertNotNull(item.getLong("since"), item.encode());
    assertTrue(followers.containsKey("next_cursor") && followers.getValue("next_cursor") == null, followers.encode());
    assertEquals(List.of(b.id()), ids(kith.get("/users/" + a.path() + "/following", b).expect(200)));

    assertEquals(new JsonObject().put("following_count", 1).put("follower_count", 0).put("friend_count", 0),
        kith.counts(a, b));
    assertEquals(new JsonObject().put("following_count", 0).put("follower_count", 1).put("friend_count", 0),
        kith.counts(b, a));
  }

  @Test
  @DisplayName("unfollowing is 204, idempotent, and empties lists and counts")
  void unfollow() {
    User a = kith.register();
    User b = kith.register();
    kith.follow(a, b);

    kith.delete("/following/" + b.path(), a).expectNoContent();
    kith.delete("/following/" + b.path(), a).expectNoContent();

    assertEquals(List.of(), ids(kith.get("/users/" + b.path() + "/followers", b).expect(200)));
    assertEquals(List.of(), ids(kith.get("/users/" + a.path() + "/following", a).expect(200)));
    assertEquals(0, kith.counts(b, a).getInteger("follower_count"));
    assertEquals(0, kith.counts(a, a).getInteger("following_count"));
  }

  @Test
  @DisplayName("mutual follows make friends in /me/friends and friend_count; an unfollow ends the friendship")
  void friends() {
    User a = kith.register();
    User b = kith.register();
    kith.befriend(a, b);

    assertEquals(List.of(b.id()), ids(kith.get("/me/friends", a).expect(200)));
    assertEquals(List.of(a.id()), ids(kith.get("/me/friends", b).expect(200)));
    assertEquals(1, kith.counts(a, b).getInteger("friend_count"));

    kith.delete("/following/" + a.path(), b).expectNoContent();

    assertEquals(List.of(), ids(kith.get("/me/friends", a).expect(200)));
    assertEquals(0, kith.counts(a, a).getInteger("friend_count"));
    assertEquals(0, kith.counts(b, b).getInteger("friend_count"));
  }

  @Test
  @DisplayName("followers page newest first through limit and cursor, each follower exactly once")
  void paging() {
    User star = kith.register();
    List<User> fans = kith.register(7);
    for (User fan : fans) {
      kith.follow(fan, star);
    }
    List<Long> newestFirst = new ArrayList<>(fans.stream().map(User::id).toList());
    Collections.reverse(newestFirst);

    JsonObject first = kith.get("/users/" + star.path() + "/followers?limit=3", fans.get(0)).expect(200);
    assertEquals(newestFirst.subList(0, 3), ids(first));
    assertNotNull(first.getString("next_cursor"), first.encode());

    assertEquals(newestFirst, kith.allIds("/users/" + star.path() + "/followers", fans.get(0), 3));
    assertEquals(newestFirst, kith.allIds("/users/" + star.path() + "/followers", star, 100));
    assertEquals(7, kith.counts(star, star).getInteger("follower_count"));
  }

  @Test
  @DisplayName("following yourself is 400 self_relation; a missing user is 404 user_not_found")
  void refusals() {
    User a = kith.register();

    kith.put("/following/" + a.path(), a).problem(400, "self_relation");
    kith.delete("/following/" + a.path(), a).problem(400, "self_relation");
    long missing = RelationsKith.MAX_ID - 7;
    kith.put("/following/" + missing, a).problem(404, "user_not_found");
    kith.get("/users/" + missing + "/followers", a).problem(404, "user_not_found");
    kith.get("/users/" + missing + "/following", a).problem(404, "user_not_found");
  }

  @Test
  @DisplayName("the sub-paths of /users (relations' followers, following, counts, tags; feeds' posts) do not shadow "
      + "/users/by-username/{username}")
  void byUsernameStillFound() {
    User viewer = kith.register();
    for (String name : List.of("followers", "following", "counts", "tags", "posts")) {
      int status = kith.registerRaw(name).status();
      assertTrue(status == 201 || status == 409, name + " registered or already taken: " + status);
      JsonObject found = kith.get("/users/by-username/" + name, viewer).expect(200);
      assertEquals(name, found.getString("username"), found.encode());
    }
  }
}
