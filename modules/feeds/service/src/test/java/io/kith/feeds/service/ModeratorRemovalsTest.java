package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Feeds' moderation operations: commentSeenBy, removeByModerator and contentForModerator")
class ModeratorRemovalsTest extends FeedsTestBase {

  private static JsonObject removal(long moderator) {
    return new JsonObject().put("by", moderator).put("reason", "rules").put("report_id", 42L)
        .put("at", System.currentTimeMillis());
  }

  private JsonObject comments(long viewer, long post) throws Exception {
    return await(feeds.comments(viewer, post, PageRequest.ids(0, 0, 100)).map(Page::toJson));
  }

  @Test
  @DisplayName("a removed post is post_not_found to everyone, leaves a follower's home, reads as removed in a repost, "
      + "and stays in the moderators' view; removing it again changes nothing")
  void post() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    long follower = users.get(1);
    long reposter = users.get(2);
    long moderator = users.get(3);
    follow(follower, author);
    long post = publishPublic(author);
    long repost = await(feeds.repost(reposter, post, body("public"))).getLong("id");
    awaitInHome(follower, post);

    assertEquals(author, await(feedsInternal.removeByModerator("post", post, removal(moderator))).getLong("owner"));
    failsWith("post_not_found", feeds.post(author, post));
    failsWith("post_not_found", feeds.post(follower, post));
    awaitUnlisted("home of " + follower, () -> feeds.home(follower, PageRequest.ids(0, 0, 100)).map(Page::toJson),
        post);
    assertFalse(userPosts(follower, author).contains(post));
    assertEquals("removed", await(feeds.post(follower, repost)).getJsonObject("repost_of").getString("state"));

    JsonObject review = await(feedsInternal.contentForModerator("post", post));
    assertEquals(post, review.getLong("id"));
    assertEquals(moderator, review.getJsonObject("removed").getLong("by"));
    assertTrue(review.getString("text").length() > 0, "the removed post keeps its text for review");
    assertEquals(author, await(feedsInternal.removeByModerator("post", post, removal(moderator))).getLong("owner"));
  }

  @Test
  @DisplayName("a removed repost leaves its original's repost count exact")
  void repostCounter() throws Exception {
    List<Long> users = newUsers(3);
    long original = publishPublic(users.get(0));
    long repost = await(feeds.repost(users.get(1), original, body("public"))).getLong("id");
    await(feedsInternal.removeByModerator("post", repost, removal(users.get(2))));
    JsonObject counts = await(feeds.post(users.get(0), original)).getJsonObject("counts");
    assertEquals(0, counts.getLong("reposts"));
    failsWith("post_not_found", feeds.post(users.get(1), repost));
  }

  @Test
  @DisplayName("releaseHeld of a post or comment no filter held changes nothing and answers its owner; a missing one "
      + "is not found, another type validation_failed")
  void releaseNotHeld() throws Exception {
    List<Long> users = newUsers(2);
    long post = publishPublic(users.get(0));
    long comment = await(feeds.comment(users.get(1), post, new JsonObject().put("text", "fine"))).getLong("id");
    assertEquals(users.get(0), await(feedsInternal.releaseHeld("post", post)).getLong("owner"));
    assertEquals(users.get(1), await(feedsInternal.releaseHeld("comment", comment)).getLong("owner"));
    assertEquals(1, await(feeds.post(users.get(1), post)).getJsonObject("counts").getLong("comments"),
        "a shown comment is not counted twice");
    failsWith("post_not_found", feedsInternal.releaseHeld("post", post + 1_000_000));
    failsWith("comment_not_found", feedsInternal.releaseHeld("comment", post + 1_000_000));
    failsWith("validation_failed", feedsInternal.releaseHeld("like", post));
  }

  @Test
  @DisplayName("refusals: a missing or deleted post, a missing comment, an unknown type")
  void refusals() throws Exception {
    long author = newUser();
    long post = publishPublic(author);
    failsWith("post_not_found", feedsInternal.removeByModerator("post", post + 1_000_000, removal(author)));
    await(feeds.delete(author, post));
    failsWith("post_not_found", feedsInternal.removeByModerator("post", post, removal(author)));
    failsWith("comment_not_found", feedsInternal.removeByModerator("comment", post + 1_000_000, removal(author)));
    failsWith("comment_not_found", feedsInternal.contentForModerator("comment", post + 1_000_000));
    failsWith("validation_failed", feedsInternal.removeByModerator("like", post, removal(author)));
    failsWith("validation_failed", feedsInternal.contentForModerator("like", post));
  }

  @Test
  @DisplayName("commentSeenBy answers a visible comment's author and post, and comment_not_found for a comment on a "
      + "post the viewer cannot see, a missing one and a removed one")
  void seenBy() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long commenter = users.get(1);
    long stranger = users.get(2);
    long open = publishPublic(author);
    long hidden = publish(author, "private");
    long comment = await(feeds.comment(commenter, open, new JsonObject().put("text", "hi"))).getLong("id");
    long onHidden = await(feeds.comment(author, hidden, new JsonObject().put("text", "me"))).getLong("id");

    JsonObject seen = await(feedsInternal.commentSeenBy(stranger, comment));
    assertEquals(commenter, seen.getLong("author"));
    assertEquals(open, seen.getLong("post"));
    failsWith("comment_not_found", feedsInternal.commentSeenBy(stranger, onHidden));
    failsWith("comment_not_found", feedsInternal.commentSeenBy(stranger, comment + 1_000_000));
    await(feedsInternal.removeByModerator("comment", comment, removal(stranger)));
    failsWith("comment_not_found", feedsInternal.commentSeenBy(stranger, comment));
  }

  @Test
  @DisplayName("a removed comment leaves its post's list and count, its replies show a removed parent, its "
      + "commenter cannot delete it again, and the moderators' view keeps its text")
  void comment() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long commenter = users.get(1);
    long replier = users.get(2);
    long post = publishPublic(author);
    long bad = await(feeds.comment(commenter, post, new JsonObject().put("text", "insult"))).getLong("id");
    long reply = await(feeds.comment(replier, post, new JsonObject().put("text", "no").put("reply_to", bad)))
        .getLong("id");

    assertEquals(commenter, await(feedsInternal.removeByModerator("comment", bad, removal(author))).getLong("owner"));
    JsonObject page = comments(author, post);
    assertEquals(List.of(reply), ids(page));
    JsonObject parent = page.getJsonArray("items").getJsonObject(0).getJsonObject("reply_to");
    assertEquals(new JsonObject().put("id", bad).put("removed", true), parent);
    assertEquals(1, await(feeds.post(author, post)).getJsonObject("counts").getLong("comments"));
    failsWith("comment_not_found", feeds.deleteComment(commenter, bad));
    assertEquals(1, await(feeds.post(author, post)).getJsonObject("counts").getLong("comments"));
    assertEquals("insult", await(feedsInternal.contentForModerator("comment", bad)).getString("text"));
    // again: nothing changes, the count stays
    await(feedsInternal.removeByModerator("comment", bad, removal(author)));
    assertEquals(1, await(feeds.post(author, post)).getJsonObject("counts").getLong("comments"));
  }
}
