package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Per-user rate limits on posts, comments and likes (set low here: 3 of each per window). */
class PostingLimitsTest extends FeedsTestBase {

  private static final int LIMIT = 3;

  @Override
  protected JsonObject feedsConfig() {
    return new JsonObject().put("posts-per-hour", LIMIT).put("comments-per-minute", LIMIT)
        .put("likes-per-minute", LIMIT);
  }

  private static void assertRateLimited(ServiceException e) {
    assertEquals(429, e.failureCode());
    JsonObject extra = e.getDebugInfo().getJsonObject("extra");
    if (extra != null && extra.containsKey("retry_after")) {
      assertTrue(extra.getLong("retry_after") >= 1, "retry_after: " + extra);
    }
  }

  @Test
  @DisplayName("publishing beyond feeds.posts-per-hour fails rate_limited (429) and stores nothing; others may still post")
  void postsPerHour() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long other = users.get(1);
    for (int i = 0; i < LIMIT; i++) {
      publishPublic(author);
    }
    assertRateLimited(failsWith("rate_limited", feeds.publish(author, body("public"))));
    assertRateLimited(failsWith("rate_limited", feeds.publish(author, body("public"))));
    assertEquals(LIMIT, userPosts(author, author).size());
    publishPublic(other);
  }

  @Test
  @DisplayName("commenting beyond feeds.comments-per-minute fails rate_limited (429)")
  void commentsPerMinute() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long talker = users.get(1);
    long post = publishPublic(author);
    for (int i = 0; i < LIMIT; i++) {
      await(feeds.comment(talker, post, new JsonObject().put("text", "c" + i)));
    }
    assertRateLimited(failsWith("rate_limited", feeds.comment(talker, post, new JsonObject().put("text", "more"))));
    assertEquals(LIMIT, ids(await(feeds.comments(author, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))).size());
    await(feeds.comment(author, post, new JsonObject().put("text", "mine")));
  }

  @Test
  @DisplayName("liking beyond feeds.likes-per-minute fails rate_limited (429)")
  void likesPerMinute() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long fan = users.get(1);
    long other = users.get(2);
    long[] posts = new long[LIMIT + 1];
    for (int i = 0; i < posts.length; i++) {
      posts[i] = await(feeds.publish(i < LIMIT - 1 ? author : other, body("public"))).getLong("id");
    }
    for (int i = 0; i < LIMIT; i++) {
      await(feeds.like(fan, posts[i]));
    }
    assertRateLimited(failsWith("rate_limited", feeds.like(fan, posts[LIMIT])));
    assertEquals(0L, await(feeds.post(author, posts[LIMIT])).getJsonObject("counts").getLong("likes"));
    await(feeds.like(author, posts[LIMIT]));
  }
}
