package io.kith.feeds.service;

import io.kith.feeds.api.FeedsEvents;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The domain events feeds appends to {@code events:feeds}. */
class FeedsEventsTest extends FeedsTestBase {

  @Test
  @DisplayName("publishing appends PostPublished with the post, author, visibility, repost_of 0 and mentions")
  void postPublished() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long mentioned = users.get(1);
    try (EventRecorder events = recordEvents()) {
      long post = await(feeds.publish(author, body("followers").put("mentions", new JsonArray().add(mentioned))))
          .getLong("id");
      DomainEvent e = events.await(FeedsEvents.POST_PUBLISHED, "post", post);
      assertEquals(FeedsEvents.DOMAIN, e.domain());
      assertTrue(e.id() > 0 && e.time() > 0);
      JsonObject p = e.payload();
      assertEquals(author, p.getLong("author"));
      assertEquals("followers", p.getString("visibility"));
      assertEquals(0L, p.getLong("repost_of"));
      assertEquals(new JsonArray().add(mentioned), p.getJsonArray("mentions"));
    }
  }

  @Test
  @DisplayName("a repost appends PostPublished with repost_of and PostReposted; a delete appends PostDeleted")
  void repostedAndDeleted() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long reposter = users.get(1);
    long original = publishPublic(author);
    try (EventRecorder events = recordEvents()) {
      long repost = await(feeds.repost(reposter, original, body("public"))).getLong("id");
      assertEquals(original, events.await(FeedsEvents.POST_PUBLISHED, "post", repost).payload().getLong("repost_of"));
      JsonObject reposted = events.await(FeedsEvents.POST_REPOSTED, "post", repost).payload();
      assertEquals(original, reposted.getLong("original"));
      assertEquals(author, reposted.getLong("original_author"));
      assertEquals(reposter, reposted.getLong("from"));

      await(feeds.delete(reposter, repost));
      JsonObject deleted = events.await(FeedsEvents.POST_DELETED, "post", repost).payload();
      assertEquals(reposter, deleted.getLong("author"));
      assertEquals(original, deleted.getLong("repost_of"));
    }
  }

  @Test
  @DisplayName("a comment appends CommentAdded; a reply names the comment and its author")
  void commentAdded() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long first = users.get(1);
    long second = users.get(2);
    long post = publishPublic(author);
    try (EventRecorder events = recordEvents()) {
      long comment = await(feeds.comment(first, post, new JsonObject().put("text", "hi"))).getLong("id");
      JsonObject added = events.await(FeedsEvents.COMMENT_ADDED, "comment", comment).payload();
      assertFields(new JsonObject().put("comment", comment).put("post", post).put("post_author", author)
          .put("from", first).put("reply_to", 0L).put("reply_to_author", 0L), added);

      long reply = await(feeds.comment(second, post, new JsonObject().put("text", "hey").put("reply_to", comment)))
          .getLong("id");
      JsonObject replied = events.await(FeedsEvents.COMMENT_ADDED, "comment", reply).payload();
      assertEquals(comment, replied.getLong("reply_to"));
      assertEquals(first, replied.getLong("reply_to_author"));
      assertEquals(second, replied.getLong("from"));

      await(feeds.deleteComment(author, reply));
      JsonObject deleted = events.await(FeedsEvents.COMMENT_DELETED, "comment", reply).payload();
      assertEquals(author, deleted.getLong("by"));
      assertEquals(second, deleted.getLong("from"));
    }
  }

  @Test
  @DisplayName("a post liked twice appends one PostLiked; unliked twice, one PostUnliked")
  void likedOnce() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long fan = users.get(1);
    long marker = users.get(2);
    long post = publishPublic(author);
    try (EventRecorder events = recordEvents()) {
      await(feeds.like(fan, post));
      await(feeds.like(fan, post));
      JsonObject liked = events.await(FeedsEvents.POST_LIKED, "from", fan).payload();
      assertFields(new JsonObject().put("post", post).put("post_author", author).put("from", fan), liked);
      await(feeds.unlike(fan, post));
      await(feeds.unlike(fan, post));
      events.await(FeedsEvents.POST_UNLIKED, "from", fan);
      // a later event from someone else: once it is seen, everything before it has been read
      await(feeds.like(marker, post));
      events.await(FeedsEvents.POST_LIKED, "from", marker);
      assertEquals(1, events.of(FeedsEvents.POST_LIKED, "from", fan).size());
      assertEquals(1, events.of(FeedsEvents.POST_UNLIKED, "from", fan).size());
    }
  }

  @Test
  @DisplayName("UserMentioned goes to each mentioned user who may see the post, and to no one else")
  void mentions() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long friend = users.get(1);
    long stranger = users.get(2);
    befriend(author, friend);
    try (EventRecorder events = recordEvents()) {
      long post = await(feeds.publish(author, body("friends")
          .put("mentions", new JsonArray().add(friend).add(stranger)))).getLong("id");
      JsonObject mentioned = events.await(FeedsEvents.USER_MENTIONED, "to", friend).payload();
      assertFields(new JsonObject().put("post", post).put("from", author).put("to", friend), mentioned);
      long later = await(feeds.publish(author, body("public").put("mentions", new JsonArray().add(stranger))))
          .getLong("id");
      pollUntil("UserMentioned of the later post", () -> io.vertx.core.Future.succeededFuture(
          events.of(FeedsEvents.USER_MENTIONED, "post", later).size() == 1));
      assertEquals(List.of(later), events.of(FeedsEvents.USER_MENTIONED, "to", stranger).stream()
          .map(e -> e.payload().getLong("post")).toList(), "the stranger was told of a post they cannot see");
    }
  }

  /** Asserts that {@code payload} carries each field of {@code expected} (numbers compared as longs). */
  private static void assertFields(JsonObject expected, JsonObject payload) {
    expected.forEach(e -> {
      Object actual = payload.getValue(e.getKey());
      if (actual instanceof Number n) {
        actual = n.longValue();
      }
      assertEquals(e.getValue(), actual, e.getKey() + " of " + payload.encode());
    });
  }
}
