package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Likes, likers and the liked-posts timeline. */
class LikesTest extends FeedsTestBase {

  @Test
  @DisplayName("like and unlike are idempotent and the post view shows the count and the viewer's like")
  void idempotent() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long fan = users.get(1);
    long post = publishPublic(author);

    assertEquals(new JsonObject().put("liked", true).put("like_count", 1), likeState(await(feeds.like(fan, post))));
    assertEquals(new JsonObject().put("liked", true).put("like_count", 1), likeState(await(feeds.like(fan, post))));
    JsonObject view = awaitView(fan, post, "like count 1", v -> v.getJsonObject("counts").getLong("likes") == 1);
    assertEquals(true, view.getJsonObject("viewer").getBoolean("liked"));
    assertEquals(false, await(feeds.post(author, post)).getJsonObject("viewer").getBoolean("liked"));
    assertEquals(List.of(fan), likerIds(await(feeds.likers(author, post, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))));

    assertEquals(new JsonObject().put("liked", false).put("like_count", 0), likeState(await(feeds.unlike(fan, post))));
    assertEquals(new JsonObject().put("liked", false).put("like_count", 0), likeState(await(feeds.unlike(fan, post))));
    view = awaitView(fan, post, "like count 0", v -> v.getJsonObject("counts").getLong("likes") == 0);
    assertEquals(false, view.getJsonObject("viewer").getBoolean("liked"));
    assertTrue(likerIds(await(feeds.likers(author, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))).isEmpty());
    // an unlike without a like changes nothing
    assertEquals(0L, await(feeds.unlike(author, post)).getLong("like_count"));
  }

  private static JsonObject likeState(JsonObject reply) {
    return new JsonObject().put("liked", reply.getBoolean("liked")).put("like_count", reply.getLong("like_count"));
  }

  @Test
  @DisplayName("50 concurrent likes, then 50 concurrent like/unlike from different users, leave the exact count")
  void concurrentLikes() throws Exception {
    List<Long> users = newUsers(51);
    long author = users.get(0);
    List<Long> fans = users.subList(1, 51);
    long post = publishPublic(author);

    List<Future<JsonObject>> likes = new ArrayList<>();
    fans.forEach(fan -> likes.add(feeds.like(fan, post)));
    await(Future.all(likes));
    likes.forEach(f -> assertTrue(f.result().getLong("like_count") >= 1 && f.result().getLong("like_count") <= 50));
    awaitView(author, post, "like count 50", v -> v.getJsonObject("counts").getLong("likes") == 50);

    // even-indexed fans like again (no change), odd-indexed fans unlike, all at once
    List<Future<JsonObject>> mixed = new ArrayList<>();
    List<Long> stay = new ArrayList<>();
    for (int i = 0; i < fans.size(); i++) {
      long fan = fans.get(i);
      if (i % 2 == 0) {
        stay.add(fan);
        mixed.add(feeds.like(fan, post));
      } else {
        mixed.add(feeds.unlike(fan, post));
      }
    }
    await(Future.all(mixed));
    awaitView(author, post, "like count 25", v -> v.getJsonObject("counts").getLong("likes") == 25);
    List<Long> likers = allPages((maxId, limit) -> feeds.likers(author, post, PageRequest.ids(maxId, 0, limit))
        .map(Page::toJson), 100,
        FeedsTestBase::likerIds);
    assertEquals(new HashSet<>(stay), new HashSet<>(likers));
    assertEquals(25, likers.size());
    assertEquals(25L, await(feeds.like(stay.get(0), post)).getLong("like_count"));
  }

  @Test
  @DisplayName("likers page most recent first through next_max_id")
  void likersPaging() throws Exception {
    List<Long> users = newUsers(8);
    long author = users.get(0);
    long post = publishPublic(author);
    List<Long> fans = users.subList(1, 8);
    for (long fan : fans) {
      await(feeds.like(fan, post));
    }
    List<Long> expected = new ArrayList<>(fans);
    Collections.reverse(expected);
    assertEquals(expected, allPages((maxId, limit) -> feeds.likers(author, post, PageRequest.ids(maxId, 0, limit))
        .map(Page::toJson), 3,
        FeedsTestBase::likerIds));
    JsonObject first = await(feeds.likers(author, post, PageRequest.ids(0, 0, 2)).map(Page::toJson));
    assertEquals(expected.subList(0, 2), likerIds(first));
    assertTrue(first.getJsonArray("items").getJsonObject(0).getLong("at") > 0);
    failsWith("validation_failed", feeds.likers(author, post, PageRequest.ids(0, 0, 0)).map(Page::toJson));
    failsWith("validation_failed", feeds.likers(author, post, PageRequest.ids(0, 0, 101)).map(Page::toJson));
  }

  @Test
  @DisplayName("liking a post the actor cannot see, or one that does not exist, fails post_not_found")
  void invisible() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long stranger = users.get(1);
    long friendsOnly = publish(author, "friends");
    failsWith("post_not_found", feeds.like(stranger, friendsOnly));
    failsWith("post_not_found", feeds.like(stranger, friendsOnly + 1_000_000_000L));
    assertEquals(0L, await(feeds.post(author, friendsOnly)).getJsonObject("counts").getLong("likes"));
    assertTrue(likerIds(await(feeds.likers(author, friendsOnly, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))).isEmpty());
  }

  @Test
  @DisplayName("liked posts list the most recent like first, page by like, and drop posts no longer visible")
  void likedPosts() throws Exception {
    List<Long> users = newUsers(4);
    long fan = users.get(0);
    long a = users.get(1);
    long b = users.get(2);
    long c = users.get(3);
    befriend(fan, b);
    long pc = publishPublic(c);
    long pa = publishPublic(a);
    long pb = publish(b, "friends");
    long pc2 = publishPublic(c);
    // liked in an order unlike publication order
    await(feeds.like(fan, pa));
    await(feeds.like(fan, pc));
    await(feeds.like(fan, pb));
    await(feeds.like(fan, pc2));
    await(feeds.like(fan, pa)); // idempotent: does not move pa up
    assertEquals(List.of(pc2, pb, pc, pa), ids(await(feeds.likedPosts(fan, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))));

    JsonObject first = await(feeds.likedPosts(fan, PageRequest.ids(0, 0, 3)).map(Page::toJson));
    assertEquals(List.of(pc2, pb, pc), ids(first));
    assertEquals(List.of(pa), ids(await(feeds.likedPosts(fan, PageRequest.ids(first.getLong("next_max_id"), 0, 3))
        .map(Page::toJson))));
    assertEquals(List.of(pc2, pb, pc, pa),
        allPages((maxId, limit) -> feeds.likedPosts(fan, PageRequest.ids(maxId, 0, limit)).map(Page::toJson), 2,
            FeedsTestBase::ids));

    // unliked, made private, blocked, deleted: each drops out
    await(feeds.unlike(fan, pc2));
    await(feeds.edit(b, pb, new JsonObject().put("visibility", "private")));
    block(a, fan);
    assertEquals(List.of(pc), ids(await(feeds.likedPosts(fan, PageRequest.ids(0, 0, 100)).map(Page::toJson))));
    await(feeds.delete(c, pc));
    assertTrue(ids(await(feeds.likedPosts(fan, PageRequest.ids(0, 0, 100)).map(Page::toJson))).isEmpty());
    failsWith("validation_failed", feeds.likedPosts(fan, PageRequest.ids(0, 0, 0)).map(Page::toJson));
    failsWith("validation_failed", feeds.likedPosts(fan, PageRequest.ids(0, 0, 101)).map(Page::toJson));

  }
}
