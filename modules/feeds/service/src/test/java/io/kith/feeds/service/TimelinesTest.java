package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Home, moments, profile and latest timelines; fan-out, backfill, removal and rebuild. */
class TimelinesTest extends FeedsTestBase {

  @Test
  @DisplayName("home pages newest first by next_max_id to the end, and newest_id as since_id returns only newer posts")
  void homePaging() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long viewer = users.get(1);
    follow(viewer, author);
    List<Long> made = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      made.add(publishPublic(author));
    }
    awaitInHome(viewer, made.get(6));
    awaitInHome(viewer, made.get(0));
    List<Long> newestFirst = new ArrayList<>(made);
    Collections.reverse(newestFirst);
    assertEquals(newestFirst, allPages((maxId, limit) -> feeds.home(viewer, PageRequest.ids(maxId, 0, limit))
        .map(Page::toJson), 3,
        FeedsTestBase::ids));

    JsonObject first = await(feeds.home(viewer, PageRequest.ids(0, 0, 3)).map(Page::toJson));
    assertEquals(newestFirst.subList(0, 3), ids(first));
    long newest = first.getLong("newest_id");
    assertEquals(newestFirst.get(0), newest);
    JsonObject last = await(feeds.home(viewer, PageRequest.ids(newestFirst.get(3), 0, 100)).map(Page::toJson));
    assertEquals(newestFirst.subList(4, 7), ids(last));
    assertNull(last.getValue("next_max_id"), "the last page has no next_max_id: " + last.encode());

    assertTrue(ids(await(feeds.home(viewer, PageRequest.ids(0, newest, 100)).map(Page::toJson))).isEmpty());
    long later1 = publishPublic(author);
    long later2 = publishPublic(author);
    awaitInHome(viewer, later2);
    awaitInHome(viewer, later1);
    assertEquals(List.of(later2, later1), ids(await(feeds.home(viewer, PageRequest.ids(0, newest, 100))
        .map(Page::toJson))));
  }

  @Test
  @DisplayName("every timeline rejects limit 0 and 101 with validation_failed and accepts 1 and 100")
  void limits() throws Exception {
    List<Long> users = newUsers(2);
    long viewer = users.get(0);
    long other = users.get(1);
    long post = publishPublic(other);
    List<java.util.function.IntFunction<Future<JsonObject>>> lists = List.of(
        l -> feeds.home(viewer, PageRequest.ids(0, 0, l)).map(Page::toJson),
        l -> feeds.moments(viewer, PageRequest.ids(0, 0, l)).map(Page::toJson),
        l -> feeds.userPosts(viewer, other, PageRequest.ids(0, 0, l)).map(Page::toJson),
        l -> feeds.latest(viewer, PageRequest.ids(0, 0, l)).map(Page::toJson),
        l -> feeds.likedPosts(viewer, PageRequest.ids(0, 0, l)).map(Page::toJson),
        l -> feeds.reposts(viewer, post, PageRequest.ids(0, 0, l)).map(Page::toJson),
        l -> feeds.comments(viewer, post, PageRequest.ids(0, 0, l)).map(Page::toJson),
        l -> feeds.likers(viewer, post, PageRequest.ids(0, 0, l)).map(Page::toJson));
    for (int i = 0; i < lists.size(); i++) {
      for (int bad : new int[] {0, 101, -1}) {
        int index = i;
        Throwable failure = failsWith("validation_failed", lists.get(i).apply(bad));
        assertEquals(400, ((io.vertx.serviceproxy.ServiceException) failure).failureCode(),
            "list " + index + " limit " + bad);
      }
      await(lists.get(i).apply(1));
      await(lists.get(i).apply(100));
    }
  }

  @Test
  @DisplayName("moments hold friends' posts and the viewer's own, not those of people merely followed")
  void momentsOnlyFriends() throws Exception {
    List<Long> users = newUsers(3);
    long viewer = users.get(0);
    long friend = users.get(1);
    long followed = users.get(2);
    befriend(viewer, friend);
    follow(viewer, followed);
    long fromFollowed = publishPublic(followed);
    long own = publishPublic(viewer);
    long fromFriend = publishPublic(friend);
    awaitInMoments(viewer, fromFriend);
    awaitInMoments(viewer, own);
    awaitInHome(viewer, fromFollowed);
    awaitInHome(viewer, fromFriend);
    awaitInHome(viewer, own);
    List<Long> moments = moments(viewer);
    assertFalse(moments.contains(fromFollowed), "moments show a post of someone merely followed: " + moments);
    assertEquals(List.of(fromFriend, own), moments);
  }

  @Test
  @DisplayName("following someone backfills their recent posts the follower may see into home, and only those")
  void followBackfills() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long viewer = users.get(1);
    long p1 = publishPublic(author);
    long followersOnly = publish(author, "followers");
    long friendsOnly = publish(author, "friends");
    long secret = publish(author, "private");
    long p2 = publishPublic(author);
    assertTrue(home(viewer).isEmpty());

    follow(viewer, author);
    awaitInHome(viewer, p1);
    awaitInHome(viewer, p2);
    awaitInHome(viewer, followersOnly);
    List<Long> home = home(viewer);
    assertFalse(home.contains(friendsOnly), "a friends-only post was backfilled to a follower: " + home);
    assertFalse(home.contains(secret), "a private post was backfilled: " + home);
    assertEquals(List.of(p2, followersOnly, p1), home);
  }

  @Test
  @DisplayName("an unfollow, or a block either way, removes the author's posts from home")
  void unfollowAndBlockRemove() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    long unfollower = users.get(1);
    long blockedViewer = users.get(2);
    long blockingViewer = users.get(3);
    for (long viewer : List.of(unfollower, blockedViewer, blockingViewer)) {
      follow(viewer, author);
    }
    long post = publishPublic(author);
    for (long viewer : List.of(unfollower, blockedViewer, blockingViewer)) {
      awaitInHome(viewer, post);
    }
    await(relations.unfollow(unfollower, author));
    block(author, blockedViewer);
    block(blockingViewer, author);
    for (long viewer : List.of(unfollower, blockedViewer, blockingViewer)) {
      awaitUnlisted("home of " + viewer, () -> feeds.home(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson), post);
    }
    // and a later post does not arrive
    long own = publishPublic(unfollower);
    long later = publishPublic(author);
    awaitInHome(unfollower, own);
    assertFalse(home(unfollower).contains(later));
  }

  @Test
  @DisplayName("a mute removes the author's posts from home, moments and latest but not from post()")
  void muteRemoves() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long viewer = users.get(1);
    befriend(viewer, author);
    long before = publishPublic(author);
    awaitInHome(viewer, before);
    awaitInMoments(viewer, before);
    mute(viewer, author);
    awaitUnlisted("home", () -> feeds.home(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson), before);
    awaitUnlisted("moments", () -> feeds.moments(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson), before);
    awaitUnlisted("latest", () -> feeds.latest(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson), before);
    long after = publishPublic(author);
    long own = publishPublic(viewer);
    awaitInHome(viewer, own);
    awaitInMoments(viewer, own);
    awaitListed("latest of the author", () -> feeds.latest(author, PageRequest.ids(0, 0, 100)).map(Page::toJson),
        after);
    awaitListed("latest of the muter", () -> feeds.latest(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson), own);
    assertFalse(home(viewer).contains(after));
    assertFalse(moments(viewer).contains(after));
    assertFalse(latest(viewer).contains(after));
    assertEquals(after, await(feeds.post(viewer, after)).getLong("id"));
    assertTrue(userPosts(viewer, author).contains(after));

    await(relations.unmute(viewer, author));
    awaitInHome(viewer, after);
  }

  @Test
  @DisplayName("after its Redis key is deleted, home is rebuilt from MongoDB on the next read with the same posts")
  void homeRebuilt() throws Exception {
    List<Long> users = newUsers(3);
    long viewer = users.get(0);
    long a = users.get(1);
    long b = users.get(2);
    follow(viewer, a);
    befriend(viewer, b);
    List<Long> posts = List.of(publishPublic(a), publish(b, "friends"), publishPublic(viewer),
        publish(a, "followers"), publishPublic(b));
    for (long post : posts) {
      awaitInHome(viewer, post);
    }
    List<Long> before = home(viewer);
    List<Long> expected = new ArrayList<>(posts);
    Collections.reverse(expected);
    assertEquals(expected, before);

    await(platform.redisApi().del(List.of(Timelines.key(Timelines.HOME, viewer))));
    assertEquals(before, home(viewer), "home rebuilt on the first read after the key was lost");
    assertEquals(before, allPages((maxId, limit) -> feeds.home(viewer, PageRequest.ids(maxId, 0, limit))
        .map(Page::toJson), 2, FeedsTestBase::ids));
    long after = publishPublic(a);
    awaitInHome(viewer, after);
    assertEquals(after, home(viewer).get(0));
  }

  @Test
  @DisplayName("userPosts shows what the viewer may see of one user, newest first")
  void userPostsTimeline() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long friend = users.get(1);
    long stranger = users.get(2);
    befriend(author, friend);
    long p1 = publishPublic(author);
    long f = publish(author, "friends");
    long s = publish(author, "private");
    long p2 = publishPublic(author);
    assertEquals(List.of(p2, s, f, p1), userPosts(author, author));
    assertEquals(List.of(p2, f, p1), userPosts(friend, author));
    assertEquals(List.of(p2, p1), userPosts(stranger, author));
    assertEquals(List.of(p2, p1), userPosts(0, author));
    assertEquals(List.of(p2, f, p1),
        allPages((maxId, limit) -> feeds.userPosts(friend, author, PageRequest.ids(maxId, 0, limit)).map(Page::toJson),
            1, FeedsTestBase::ids));
    assertEquals(List.of(p2), ids(await(feeds.userPosts(stranger, author, PageRequest.ids(0, p1, 100))
        .map(Page::toJson))));
  }

  @Test
  @DisplayName("latest shows public posts only, newest first")
  void latestPublicOnly() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long reader = users.get(1);
    befriend(author, reader);
    long p1 = publishPublic(author);
    long followers = publish(author, "followers");
    long friends = publish(author, "friends");
    long secret = publish(author, "private");
    long p2 = publishPublic(author);
    Supplier<Future<JsonObject>> latest = () -> feeds.latest(reader, PageRequest.ids(0, 0, 100)).map(Page::toJson);
    awaitListed("latest", latest, p2);
    awaitListed("latest", latest, p1);
    for (long viewer : List.of(reader, author, 0L)) {
      List<Long> items = latest(viewer);
      assertTrue(items.indexOf(p2) < items.indexOf(p1), "newest first: " + items);
      assertFalse(items.contains(followers) || items.contains(friends) || items.contains(secret),
          "latest shows a non-public post: " + items);
      List<Long> sorted = new ArrayList<>(items);
      sorted.sort(Collections.reverseOrder());
      assertEquals(sorted, items, "latest is not newest first");
    }
    assertEquals(List.of(p2), ids(await(feeds.latest(reader, PageRequest.ids(0, p1, 100)).map(Page::toJson))).stream()
        .filter(id -> id == p2 || id == p1).toList());
  }

  @Test
  @DisplayName("an anonymous reader gets public posts only from userPosts and latest")
  void anonymous() throws Exception {
    long author = newUser();
    long open = publishPublic(author);
    long followers = publish(author, "followers");
    assertEquals(List.of(open), userPosts(0, author));
    awaitListed("anonymous latest", () -> feeds.latest(0, PageRequest.ids(0, 0, 100)).map(Page::toJson), open);
    assertFalse(latest(0).contains(followers));
    assertEquals(List.of(open), visibleIds(await(feedsInternal.visiblePosts(0, List.of(open, followers)))));
  }

  @Test
  @DisplayName("a profile paged 10 at a time reaches an older public post behind 110 posts the viewer may not see")
  void sparseUserPosts() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long stranger = users.get(1);
    long open = publishPublic(author);
    publishMany(author, "friends", 110);
    List<Long> seen = allPages((maxId, limit) -> feeds.userPosts(stranger, author, PageRequest.ids(maxId, 0, limit))
        .map(Page::toJson), 10,
        FeedsTestBase::ids);
    assertEquals(List.of(open), seen, "what a stranger can page through of the profile");
  }

  @Test
  @DisplayName("home paged 10 at a time reaches an older post behind 110 posts of a muted author")
  void sparseHomeAfterMute() throws Exception {
    List<Long> users = newUsers(3);
    long viewer = users.get(0);
    long quiet = users.get(1);
    long loud = users.get(2);
    follow(viewer, quiet);
    follow(viewer, loud);
    assertTrue(home(viewer).isEmpty());
    long older = publishPublic(quiet);
    awaitInHome(viewer, older);
    List<Long> noise = publishMany(loud, "public", 110);
    awaitInHome(viewer, Collections.max(noise));
    mute(viewer, loud);
    List<Long> seen = allPages((maxId, limit) -> feeds.home(viewer, PageRequest.ids(maxId, 0, limit))
        .map(Page::toJson), 10, FeedsTestBase::ids);
    assertEquals(List.of(older), seen, "what the viewer can page through of home");
  }

  @Test
  @DisplayName("becoming friends brings the new friend's friends-only posts into home, as into moments")
  void friendshipBackfillsHome() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long reader = users.get(1);
    assertTrue(home(reader).isEmpty());
    assertTrue(moments(reader).isEmpty());
    long friendsOnly = publish(author, "friends");
    long open = publishPublic(author);
    follow(reader, author);
    awaitInHome(reader, open);
    follow(author, reader);
    awaitInMoments(reader, friendsOnly);
    assertEquals(friendsOnly, await(feeds.post(reader, friendsOnly)).getLong("id"));
    awaitInHome(reader, friendsOnly);
  }

  @Test
  @DisplayName("a post narrowed by an edit (public to private) leaves a friend's home and moments at once")
  void narrowedByEdit() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long friend = users.get(1);
    befriend(author, friend);
    long post = publishPublic(author);
    awaitInHome(friend, post);
    awaitInMoments(friend, post);
    await(feeds.edit(author, post, new JsonObject().put("visibility", "private")));
    assertFalse(home(friend).contains(post), "a post made private stays in a friend's home");
    assertFalse(moments(friend).contains(post), "a post made private stays in a friend's moments");
    assertTrue(home(author).contains(post));
  }

  @Test
  @DisplayName("a post widened by an edit (private to friends) reaches the friend's home and moments")
  void widenedByEdit() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long friend = users.get(1);
    befriend(author, friend);
    assertTrue(home(friend).isEmpty());
    assertTrue(moments(friend).isEmpty());
    long post = publish(author, "private");
    long marker = publishPublic(author);
    awaitInHome(friend, marker);
    assertFalse(home(friend).contains(post));

    await(feeds.edit(author, post, new JsonObject().put("visibility", "friends")));
    assertEquals(post, await(feeds.post(friend, post)).getLong("id"));
    assertTrue(userPosts(friend, author).contains(post));
    awaitInMoments(friend, post);
    awaitInHome(friend, post);
  }

  /** Publishes {@code n} posts of {@code visibility} by one author (in waves of 10); returns their ids. */
  private List<Long> publishMany(long author, String visibility, int n) throws Exception {
    List<Long> ids = new ArrayList<>();
    while (ids.size() < n) {
      List<Future<JsonObject>> wave = new ArrayList<>();
      for (int i = 0; i < Math.min(10, n - ids.size()); i++) {
        wave.add(feeds.publish(author, body(visibility)));
      }
      await(Future.all(wave));
      wave.forEach(f -> ids.add(f.result().getLong("id")));
    }
    return ids;
  }
}
