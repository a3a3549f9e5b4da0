package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Authors with more followers than {@code feeds.celebrity-threshold} (2 here) are not fanned out; their posts are
 * merged into each follower's home and moments when read.
 */
class CelebrityTimelinesTest extends FeedsTestBase {

  @Override
  protected JsonObject feedsConfig() {
    return new JsonObject().put("celebrity-threshold", 2);
  }

  /** A celebrity with three followers, the first of whom is also a friend. */
  private record Cast(long celebrity, long friend, long follower1, long follower2, long stranger) {
  }

  private Cast cast() throws Exception {
    List<Long> users = newUsers(5);
    Cast cast = new Cast(users.get(0), users.get(1), users.get(2), users.get(3), users.get(4));
    befriend(cast.celebrity(), cast.friend());
    follow(cast.follower1(), cast.celebrity());
    follow(cast.follower2(), cast.celebrity());
    return cast;
  }

  /** The raw members of the viewer's Redis home timeline, whatever its type (empty when the key does not exist). */
  private List<String> rawHome(long viewer) throws Exception {
    String key = Timelines.key(Timelines.HOME, viewer);
    String type = await(platform.redisApi().type(key)).toString();
    Response members = switch (type) {
      case "zset" -> await(platform.redisApi().zrange(List.of(key, "0", "-1")));
      case "list" -> await(platform.redisApi().lrange(key, "0", "-1"));
      case "none" -> null;
      default -> throw new AssertionError("unexpected type of " + key + ": " + type);
    };
    List<String> out = new ArrayList<>();
    if (members != null) {
      members.forEach(r -> out.add(r.toString()));
    }
    return out;
  }

  @Test
  @DisplayName("a celebrity's new post is not fanned out but appears in each follower's home, merged at read")
  void mergedAtRead() throws Exception {
    List<Long> users = newUsers(5);
    long celebrity = users.get(0);
    List<Long> followers = users.subList(1, 4);
    long stranger = users.get(4);
    // the followers' stored timelines exist before they follow; the celebrity's earlier post reaching them marks
    // the end of each follow's backfill, so that a later post found in them could only come from fan-out
    for (long viewer : followers) {
      assertTrue(home(viewer).isEmpty());
    }
    long earlier = publishPublic(celebrity);
    for (long viewer : followers) {
      follow(viewer, celebrity);
    }
    for (long viewer : followers) {
      pollUntil("backfill into the stored home of " + viewer, () -> vertx.executeBlocking(
          () -> rawHome(viewer).contains(Long.toString(earlier))));
    }
    Cast c = new Cast(celebrity, followers.get(0), followers.get(1), followers.get(2), stranger);
    long post = publishPublic(c.celebrity());
    for (long viewer : List.of(c.friend(), c.follower1(), c.follower2())) {
      awaitInHome(viewer, post);
      assertFalse(rawHome(viewer).stream().anyMatch(m -> m.contains(Long.toString(post))),
          "the celebrity's post was fanned out into the stored home of " + viewer);
    }
    long own = publishPublic(c.stranger());
    awaitInHome(c.stranger(), own);
    assertFalse(home(c.stranger()).contains(post), "a non-follower got the celebrity's post");
  }

  @Test
  @DisplayName("merged celebrity posts respect visibility: a friends-only post reaches the friend only")
  void mergedRespectsVisibility() throws Exception {
    Cast c = cast();
    long friendsOnly = publish(c.celebrity(), "friends");
    long secret = publish(c.celebrity(), "private");
    long marker = publishPublic(c.celebrity());
    awaitInHome(c.friend(), friendsOnly);
    awaitInMoments(c.friend(), friendsOnly);
    for (long viewer : List.of(c.follower1(), c.follower2())) {
      awaitInHome(viewer, marker);
      List<Long> home = home(viewer);
      assertFalse(home.contains(friendsOnly), "a follower who is not a friend got a friends-only post: " + home);
      assertFalse(home.contains(secret));
    }
    assertFalse(home(c.friend()).contains(secret));
    List<Long> own = home(c.celebrity());
    assertEquals(List.of(marker, secret, friendsOnly), own.subList(0, 3), "the celebrity's own home: " + own);
  }

  @Test
  @DisplayName("celebrity posts interleave with fanned-out posts in id order, across pages and since_id")
  void interleaving() throws Exception {
    Cast c = cast();
    long normal = c.stranger(); // one follower only: fanned out
    follow(c.follower1(), normal);
    long n1 = publishPublic(normal);
    long c1 = publishPublic(c.celebrity());
    long n2 = publishPublic(normal);
    long c2 = publishPublic(c.celebrity());
    awaitInHome(c.follower1(), n2);
    awaitInHome(c.follower1(), c2);
    List<Long> expected = List.of(c2, n2, c1, n1);
    assertEquals(expected, home(c.follower1()));
    assertEquals(expected,
        allPages((maxId, limit) -> feeds.home(c.follower1(), PageRequest.ids(maxId, 0, limit)).map(Page::toJson), 1,
            FeedsTestBase::ids));
    assertEquals(List.of(c2, n2), ids(await(feeds.home(c.follower1(), PageRequest.ids(0, c1, 100)).map(Page::toJson))));
    assertEquals(List.of(c1, n1), ids(await(feeds.home(c.follower1(), PageRequest.ids(n2, 0, 100)).map(Page::toJson))));
  }

  @Test
  @DisplayName("unfollowing, muting or being blocked by a celebrity removes their posts from the follower's home")
  void leavingACelebrity() throws Exception {
    List<Long> users = newUsers(5);
    long celebrity = users.get(0);
    List<Long> followers = users.subList(1, 4);
    long stranger = users.get(4);
    // the followers' stored timelines exist before they follow; the celebrity's earlier post reaching them marks
    // the end of each follow's backfill, so that a later post found in them could only come from fan-out
    for (long viewer : followers) {
      assertTrue(home(viewer).isEmpty());
    }
    long earlier = publishPublic(celebrity);
    for (long viewer : followers) {
      follow(viewer, celebrity);
    }
    for (long viewer : followers) {
      pollUntil("backfill into the stored home of " + viewer, () -> vertx.executeBlocking(
          () -> rawHome(viewer).contains(Long.toString(earlier))));
    }
    Cast c = new Cast(celebrity, followers.get(0), followers.get(1), followers.get(2), stranger);
    long post = publishPublic(c.celebrity());
    for (long viewer : List.of(c.friend(), c.follower1(), c.follower2())) {
      awaitInHome(viewer, post);
    }
    await(relations.unfollow(c.follower1(), c.celebrity()));
    mute(c.follower2(), c.celebrity());
    block(c.celebrity(), c.friend());
    for (long viewer : List.of(c.friend(), c.follower1(), c.follower2())) {
      awaitUnlisted("home of " + viewer, () -> feeds.home(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson), post);
    }
    assertFalse(moments(c.friend()).contains(post));
  }

  @Test
  @DisplayName("a celebrity's hide keeps their merged posts from that follower")
  void hiddenFromCelebrity() throws Exception {
    Cast c = cast();
    hide(c.celebrity(), c.follower1());
    long post = publishPublic(c.celebrity());
    awaitInHome(c.follower2(), post);
    long own = publishPublic(c.follower1());
    awaitInHome(c.follower1(), own);
    assertFalse(home(c.follower1()).contains(post));
    failsWith("post_not_found", feeds.post(c.follower1(), post));
  }

  @Test
  @DisplayName("an author who rises above the threshold keeps their earlier posts in followers' homes, once each")
  void risingAboveThreshold() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long first = users.get(1);
    long second = users.get(2);
    follow(first, author);
    assertTrue(home(first).isEmpty());
    long before = publishPublic(author);
    awaitInHome(first, before);
    follow(second, author);
    long after = publishPublic(author);
    awaitInHome(first, after);
    awaitInHome(second, after);
    assertEquals(List.of(after, before), home(first));
    assertEquals(List.of(after, before), home(second));
  }

  @Test
  @DisplayName("an author who drops to the threshold keeps the posts of the celebrity period in followers' homes")
  void droppingToThreshold() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    List<Long> followers = users.subList(1, 4);
    for (long viewer : followers) {
      assertTrue(home(viewer).isEmpty()); // their stored timelines exist, so fan-out reaches them
      follow(viewer, author);
    }
    long during = publishPublic(author);
    long friendsOnly = publish(author, "friends");
    for (long viewer : followers) {
      awaitInHome(viewer, during);
    }
    assertFalse(rawHome(followers.get(0)).contains(Long.toString(during)), "a celebrity's post was fanned out");

    // one follower leaves: two followers, not more than the threshold; the next post is fanned out
    await(relations.unfollow(followers.get(2), author));
    long after = publishPublic(author);
    for (long viewer : followers.subList(0, 2)) {
      pollUntil("the celebrity-period post in the stored home of " + viewer, () -> vertx.executeBlocking(
          () -> rawHome(viewer).containsAll(List.of(Long.toString(after), Long.toString(during)))));
    }
    pollUntil("the author unmarked", () -> vertx.executeBlocking(() -> await(platform.redisApi()
        .sismember(Timelines.CELEBRITIES, Long.toString(author))).toInteger() == 0));
    for (long viewer : followers.subList(0, 2)) {
      assertEquals(List.of(after, during), home(viewer), "home of " + viewer);
      assertFalse(rawHome(viewer).contains(Long.toString(friendsOnly)), "a friends-only post reached a follower");
    }
    List<Long> left = home(followers.get(2));
    assertFalse(left.contains(during) || left.contains(after), "the follower who left: " + left);
  }
}
