package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Edges of privacy and of the viewer's flags: cursors never point at hidden posts, a block empties a profile without a
 * cursor, likes can be taken back from posts no longer visible, reply authors in a block are not shown, and the
 * viewer-flag sets in Redis agree with the record after being lost.
 */
class PrivacyEdgesTest extends FeedsTestBase {

  @Test
  @DisplayName("a profile page's cursor is always a post shown to the viewer, never a hidden one")
  void cursorNeverHidden() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long stranger = users.get(1);
    long older = publishPublic(author);
    long newer = publishPublic(author);
    for (int i = 0; i < 15; i++) {
      publish(author, "friends");
    }
    JsonObject page = await(feeds.userPosts(stranger, author, PageRequest.ids(0, 0, 1)).map(Page::toJson));
    assertEquals(List.of(newer), ids(page));
    assertEquals(newer, page.getLong("next_max_id"));
    JsonObject next = await(feeds.userPosts(stranger, author, PageRequest.ids(newer, 0, 1)).map(Page::toJson));
    assertEquals(List.of(older), ids(next));
    assertNull(next.getValue("next_max_id"), "the list is known to end: 15 hidden posts are no reason to go on");
    JsonObject end = await(feeds.userPosts(stranger, author, PageRequest.ids(older, 0, 1)).map(Page::toJson));
    assertEquals(List.of(), ids(end));
    assertNull(end.getValue("next_max_id"));
  }

  @Test
  @DisplayName("a viewer blocked by the author gets an empty profile with no cursor, whatever the author posted")
  void blockedProfileHasNoCursor() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long blocked = users.get(1);
    for (int i = 0; i < 5; i++) {
      publishPublic(author);
    }
    block(author, blocked);
    JsonObject page = await(feeds.userPosts(blocked, author, PageRequest.ids(0, 0, 3)).map(Page::toJson));
    assertEquals(List.of(), ids(page));
    assertNull(page.getValue("next_max_id"));
    assertNull(page.getValue("newest_id"));
    assertEquals(3, ids(await(feeds.userPosts(0, author, PageRequest.ids(0, 0, 3)).map(Page::toJson))).size(),
        "anonymous readers still see them");
  }

  @Test
  @DisplayName("polling the profile of an author who blocks the viewer answers as an author with only friends-only posts")
  void blockedProfilePollLooksOrdinary() throws Exception {
    List<Long> users = newUsers(4);
    long blocker = users.get(0);
    long blocked = users.get(1);
    long quiet = users.get(2);
    long stranger = users.get(3);
    long since = publishPublic(quiet);
    publish(quiet, "friends");
    publishPublic(blocker);
    block(blocker, blocked);
    JsonObject ordinary = await(feeds.userPosts(stranger, quiet, PageRequest.ids(0, since, 3)).map(Page::toJson));
    assertEquals(List.of(), ids(ordinary));
    assertEquals(since, ordinary.getLong("newest_id"));
    assertEquals(ordinary, await(feeds.userPosts(blocked, blocker, PageRequest.ids(0, since, 3)).map(Page::toJson)));
    assertEquals(await(feeds.userPosts(stranger, quiet, PageRequest.ids(since, 0, 3)).map(Page::toJson)),
        await(feeds.userPosts(blocked, blocker, PageRequest.ids(since, 0, 3)).map(Page::toJson)));
  }

  @Test
  @DisplayName("a like can be taken back from a post the liker can no longer see, without learning about the post")
  void unlikeAfterLosingSight() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long liker = users.get(1);
    long post = publishPublic(author);
    assertEquals(1L, await(feeds.like(liker, post)).getLong("like_count"));
    block(author, liker);
    failsWith("post_not_found", feeds.like(liker, post));
    JsonObject answer = await(feeds.unlike(liker, post));
    assertEquals(new JsonObject().put("liked", false), answer);
    assertEquals(0L, await(feeds.post(author, post)).getJsonObject("counts").getLong("likes"));
    assertEquals(List.of(), likerIds(await(feeds.likers(author, post, PageRequest.ids(0, 0, 20)).map(Page::toJson))));
    failsWith("post_not_found", feeds.unlike(liker, 9_000_000_000_000L));
    // with no like to take back, an invisible post answers like a missing one
    failsWith("post_not_found", feeds.unlike(liker, post));
  }

  @Test
  @DisplayName("a reply to the comment of a user in a block with the viewer reads as a plain comment, answering nobody")
  void replyAuthorHiddenAcrossBlock() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long blocked = users.get(1);
    long viewer = users.get(2);
    long post = publishPublic(author);
    long parent = await(feeds.comment(blocked, post, new JsonObject().put("text", "first"))).getLong("id");
    await(feeds.comment(author, post, new JsonObject().put("text", "reply").put("reply_to", parent)));
    long plain = await(feeds.comment(author, post, new JsonObject().put("text", "plain"))).getLong("id");
    block(viewer, blocked);
    JsonArray items = await(feeds.comments(viewer, post, PageRequest.ids(0, 0, 20))
        .map(Page::toJson)).getJsonArray("items");
    assertEquals(2, items.size(), items.encode());
    JsonObject reply = items.getJsonObject(1);
    assertEquals(plain, items.getJsonObject(0).getLong("id"));
    assertNull(reply.getValue("reply_to"), "no answer to a comment the viewer cannot see: " + reply);
    assertEquals(items.getJsonObject(0).fieldNames(), reply.fieldNames(), "shaped as a plain comment");
    JsonObject seenByAuthor = await(feeds.comments(author, post, PageRequest.ids(0, 0, 20))
        .map(Page::toJson)).getJsonArray("items").getJsonObject(1);
    assertEquals(blocked, seenByAuthor.getJsonObject("reply_to").getJsonObject("author").getLong("id"));
  }

  @Test
  @DisplayName("replying to the comment of a user in a block with the replier is comment_not_found, as for a missing one")
  void replyToHiddenCommentRefused() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long blocker = users.get(1);
    long replier = users.get(2);
    long post = publishPublic(author);
    long parent = await(feeds.comment(blocker, post, new JsonObject().put("text", "first"))).getLong("id");
    block(blocker, replier);
    failsWith("comment_not_found", feeds.comment(replier, post, new JsonObject().put("text", "hi")
        .put("reply_to", parent)));
    failsWith("comment_not_found", feeds.comment(replier, post, new JsonObject().put("text", "hi")
        .put("reply_to", parent + 1_000_000_000L)));
    assertEquals(1L, await(feeds.post(author, post)).getJsonObject("counts").getLong("comments"), "nothing was added");
    assertEquals(parent, await(feeds.comment(author, post, new JsonObject().put("text", "hi")
        .put("reply_to", parent))).getJsonObject("reply_to").getLong("id"), "others may still reply");
  }

  @Test
  @DisplayName("the liked and reposted flags come back right after their Redis sets are lost, and follow writes")
  void flagsSurviveLosingRedis() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long viewer = users.get(1);
    long post = publishPublic(author);
    await(feeds.like(viewer, post));
    long first = await(feeds.repost(viewer, post, new JsonObject())).getLong("id");
    long second = await(feeds.repost(viewer, post, new JsonObject().put("text", "again"))).getLong("id");
    assertFlags(viewer, post, true, true);
    await(platform.redisApi().del(List.of(ViewerFlags.key(ViewerFlags.LIKED, viewer),
        ViewerFlags.key(ViewerFlags.REPOSTED, viewer))));
    assertFlags(viewer, post, true, true);
    await(feeds.delete(viewer, first));
    assertFlags(viewer, post, true, true);
    await(feeds.delete(viewer, second));
    await(feeds.unlike(viewer, post));
    assertFlags(viewer, post, false, false);
    await(platform.redisApi().del(List.of(ViewerFlags.key(ViewerFlags.LIKED, viewer),
        ViewerFlags.key(ViewerFlags.REPOSTED, viewer))));
    assertFlags(viewer, post, false, false);
  }

  @Test
  @DisplayName("a home page shows the right flags on posts and embedded originals with the flag sets and post copies "
      + "lost, and leaves out a newer post of an author who blocked the viewer meanwhile")
  void homePageFlagsAndVisibility() throws Exception {
    List<Long> users = newUsers(4);
    long viewer = users.get(0);
    long friend = users.get(1);
    long author = users.get(2);
    long blocker = users.get(3);
    follow(viewer, friend);
    follow(viewer, author);
    follow(viewer, blocker);
    long original = publishPublic(author);
    long plain = publishPublic(author);
    await(feeds.like(viewer, original));
    long repost = await(feeds.repost(friend, original, new JsonObject().put("text", "look"))).getLong("id");
    long mine = await(feeds.repost(viewer, plain, new JsonObject())).getLong("id");
    long hidden = publishPublic(blocker);
    awaitInHome(viewer, hidden);
    awaitInHome(viewer, repost);
    block(blocker, viewer);

    for (int attempt = 0; attempt < 2; attempt++) {
      JsonObject page = await(feeds.home(viewer, PageRequest.ids(0, 0, 3)).map(Page::toJson));
      assertEquals(List.of(mine, repost, plain), ids(page), "the blocker's newer post is left out");
      assertEquals(plain, page.getLong("next_max_id"), "the cursor is the last post shown");
      JsonObject byFriend = page.getJsonArray("items").getJsonObject(1);
      assertEquals(friend, byFriend.getJsonObject("author").getLong("id"));
      assertFalse(byFriend.getJsonObject("viewer").getBoolean("liked"));
      JsonObject embedded = byFriend.getJsonObject("repost_of");
      assertEquals("visible", embedded.getString("state"));
      assertEquals(original, embedded.getJsonObject("post").getLong("id"));
      assertEquals(author, embedded.getJsonObject("post").getJsonObject("author").getLong("id"));
      assertTrue(embedded.getJsonObject("post").getJsonObject("viewer").getBoolean("liked"), "liked original");
      assertTrue(embedded.getJsonObject("post").getJsonObject("viewer").getBoolean("following"));
      JsonObject plainView = page.getJsonArray("items").getJsonObject(2);
      assertTrue(plainView.getJsonObject("viewer").getBoolean("reposted"), "reposted by the viewer");
      assertFalse(plainView.getJsonObject("viewer").getBoolean("liked"));
      // the second time round every Redis copy the page read is gone: it must come out the same
      await(platform.redisApi().del(List.of(ViewerFlags.key(ViewerFlags.LIKED, viewer),
          ViewerFlags.key(ViewerFlags.REPOSTED, viewer))));
      for (long id : List.of(original, plain, repost, mine, hidden)) {
        await(platform.redisApi().del(List.of(PostCache.key(id))));
      }
    }
  }

  private void assertFlags(long viewer, long post, boolean liked, boolean reposted) throws Exception {
    JsonObject flags = await(feeds.post(viewer, post)).getJsonObject("viewer");
    assertEquals(liked, flags.getBoolean("liked"), "liked");
    assertEquals(reposted, flags.getBoolean("reposted"), "reposted");
    assertFalse(flags.getBoolean("following"));
    assertTrue(flags.containsKey("following"));
  }
}
