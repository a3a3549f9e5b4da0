package io.kith.feeds.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fan-out worker over several follower pages (3 followers a page) and several script calls per page (2 timelines a
 * call), looked at in the raw Redis timelines: a read would rebuild a missing timeline and hide what the worker did.
 */
class FanOutPagesTest extends FeedsTestBase {

  private static final int THRESHOLD = 10;

  @Override
  protected JsonObject feedsConfig() {
    return new JsonObject().put("fanout-page", 3).put("fanout-timelines-per-call", 2)
        .put("celebrity-threshold", THRESHOLD);
  }

  private Future<Boolean> holds(String kind, long user, long post) {
    return platform.redisApi().lpos(List.of(Timelines.key(kind, user), Long.toString(post))).map(r -> r != null);
  }

  private boolean exists(String kind, long user) throws Exception {
    return await(platform.redisApi().exists(List.of(Timelines.key(kind, user)))).toInteger() == 1;
  }

  /** Waits until each of these users' timelines of {@code kind} holds the post. */
  private void awaitHeld(String kind, List<Long> users, long post) throws Exception {
    for (long user : users) {
      pollUntil(kind + " of " + user + " holds " + post, () -> holds(kind, user, post));
    }
  }

  @Test
  @DisplayName("a post reaches every active eligible follower across follower pages and script calls, and no one else")
  void acrossPages() throws Exception {
    List<Long> users = newUsers(10);
    long author = users.get(0);
    List<Long> f = users.subList(1, 10);
    // f0 follows first: the oldest follower, on the last page of the worker's stream
    befriend(f.get(0), author);
    befriend(f.get(1), author);
    follow(f.get(2), author);
    follow(f.get(3), author);
    follow(f.get(4), author);
    follow(f.get(5), author);
    follow(f.get(6), author);
    befriend(f.get(7), author);
    follow(f.get(8), author);
    hide(author, f.get(3));
    // f5 and f6 never read: their timelines do not exist (inactive)
    List<Long> active = List.of(f.get(0), f.get(1), f.get(2), f.get(3), f.get(4), f.get(7), f.get(8));
    for (long user : active) {
      home(user);
      moments(user);
    }
    List<Long> reached = List.of(f.get(0), f.get(1), f.get(2), f.get(4), f.get(7), f.get(8));
    List<Long> friends = List.of(f.get(0), f.get(1), f.get(7));

    long post = publishPublic(author);
    awaitHeld(Timelines.HOME, reached, post);
    awaitHeld(Timelines.MOMENTS, friends, post);
    assertFalse(await(holds(Timelines.HOME, f.get(3), post)), "the author hides from f3");
    for (long user : List.of(f.get(2), f.get(4), f.get(8))) {
      assertFalse(await(holds(Timelines.MOMENTS, user, post)), "moments of a follower who is no friend");
    }
    assertFalse(exists(Timelines.HOME, f.get(5)), "an inactive follower's home stays missing");
    assertFalse(exists(Timelines.HOME, f.get(6)), "an inactive follower's home stays missing");

    long friendsOnly = publish(author, "friends");
    awaitHeld(Timelines.HOME, friends, friendsOnly);
    awaitHeld(Timelines.MOMENTS, friends, friendsOnly);
    for (long user : List.of(f.get(2), f.get(4), f.get(8))) {
      assertFalse(await(holds(Timelines.HOME, user, friendsOnly)), "a friends-only post in a follower's home");
    }
    assertFalse(exists(Timelines.HOME, f.get(5)));
  }

  @Test
  @DisplayName("an author with as many followers as the threshold is fanned out, one more makes a celebrity")
  void celebrityBoundary() throws Exception {
    List<Long> users = newUsers(THRESHOLD + 4);
    long atThreshold = users.get(0);
    long celebrity = users.get(1);
    long small = users.get(2);
    List<Long> followers = users.subList(3, THRESHOLD + 4);
    List<Future<JsonObject>> follows = new ArrayList<>();
    for (int i = 0; i < followers.size(); i++) {
      long follower = followers.get(i);
      if (i < THRESHOLD) {
        follows.add(relations.follow(follower, atThreshold));
      }
      if (i < 2) {
        follows.add(relations.follow(follower, small));
      }
      follows.add(relations.follow(follower, celebrity));
    }
    await(Future.all(follows));
    for (long follower : followers) {
      home(follower);
    }

    long fanned = publishPublic(atThreshold);
    long fromSmall = publishPublic(small);
    long merged = publishPublic(celebrity);
    awaitHeld(Timelines.HOME, followers.subList(0, THRESHOLD), fanned);
    awaitHeld(Timelines.HOME, followers.subList(0, 2), fromSmall);
    // the celebrity's post is listed in home (merged at read) but was never written into a follower's timeline
    awaitInHome(followers.get(0), merged);
    for (long follower : followers) {
      assertFalse(await(holds(Timelines.HOME, follower, merged)), "a celebrity's post was fanned out");
    }
    assertTrue(home(followers.get(THRESHOLD)).contains(merged));
    assertEquals(3, home(followers.get(0)).size());
  }
}
