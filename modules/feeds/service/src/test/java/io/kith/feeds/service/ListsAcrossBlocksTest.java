package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Comment and liker lists as a viewer in a block with some of the commenters and likers: the page, `next_max_id` and
 * `newest_id` are those the list would give without them, so none of them points at a hidden comment or like.
 */
class ListsAcrossBlocksTest extends FeedsTestBase {

  private static JsonObject text(String text) {
    return new JsonObject().put("text", text);
  }

  @Test
  @DisplayName("a comment page is filled past hidden comments, and its cursors are comments the viewer sees")
  void commentCursorsSkipHidden() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    long viewer = users.get(1);
    long blocker = users.get(2);
    long other = users.get(3);
    long post = publishPublic(author);
    // oldest first: s1, h1, s2, h2
    long s1 = await(feeds.comment(other, post, text("s1"))).getLong("id");
    long h1 = await(feeds.comment(blocker, post, text("h1"))).getLong("id");
    long s2 = await(feeds.comment(other, post, text("s2"))).getLong("id");
    long h2 = await(feeds.comment(blocker, post, text("h2"))).getLong("id");
    block(blocker, viewer);

    JsonObject stranger = await(feeds.comments(other, post, PageRequest.ids(0, 0, 2)).map(Page::toJson));
    assertEquals(List.of(h2, s2), ids(stranger));
    assertEquals(h2, stranger.getLong("newest_id"));

    JsonObject first = await(feeds.comments(viewer, post, PageRequest.ids(0, 0, 2)).map(Page::toJson));
    assertEquals(List.of(s2, s1), ids(first), "filled past the hidden comments");
    assertEquals(s2, first.getLong("newest_id"));
    assertEquals(s1, first.getLong("next_max_id"));
    JsonObject end = await(feeds.comments(viewer, post, PageRequest.ids(s1, 0, 2)).map(Page::toJson));
    assertEquals(List.of(), ids(end));
    assertNull(end.getValue("next_max_id"));
    assertEquals(List.of(s2, s1), allPages((max, n) -> feeds.comments(viewer, post, PageRequest.ids(max, 0, n))
        .map(Page::toJson), 1, FeedsTestBase::ids));

    // the same pages once the hidden comments are really gone
    await(feeds.deleteComment(blocker, h1));
    await(feeds.deleteComment(blocker, h2));
    JsonObject without = await(feeds.comments(viewer, post, PageRequest.ids(0, 0, 2)).map(Page::toJson));
    assertEquals(first, without);
  }

  @Test
  @DisplayName("polling for newer comments: a hidden new comment leaves newest_id where it was, a stranger's moves on")
  void newestIdIgnoresHidden() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    long viewer = users.get(1);
    long blocked = users.get(2);
    long other = users.get(3);
    long post = publishPublic(author);
    long seen = await(feeds.comment(other, post, text("seen"))).getLong("id");
    block(viewer, blocked);
    long hidden = await(feeds.comment(blocked, post, text("hidden"))).getLong("id");

    JsonObject poll = await(feeds.comments(viewer, post, PageRequest.ids(0, seen, 20)).map(Page::toJson));
    assertEquals(List.of(), ids(poll));
    assertEquals(seen, poll.getLong("newest_id"));
    assertNull(poll.getValue("next_max_id"));
    assertEquals(hidden, await(feeds.comments(other, post, PageRequest.ids(0, seen, 20))
        .map(Page::toJson)).getLong("newest_id"));

    long later = await(feeds.comment(other, post, text("later"))).getLong("id");
    JsonObject next = await(feeds.comments(viewer, post, PageRequest.ids(0, seen, 20)).map(Page::toJson));
    assertEquals(List.of(later), ids(next));
    assertEquals(later, next.getLong("newest_id"));
  }

  @Test
  @DisplayName("a likers page is filled past users in a block with the viewer, its cursor a liker the viewer sees")
  void likerCursorSkipsHidden() throws Exception {
    List<Long> users = newUsers(6);
    long author = users.get(0);
    long viewer = users.get(1);
    long post = publishPublic(author);
    // likes oldest first: l1, b1, l2, b2 (b1 blocks the viewer, the viewer blocks b2)
    long l1 = users.get(2);
    long b1 = users.get(3);
    long l2 = users.get(4);
    long b2 = users.get(5);
    for (long u : List.of(l1, b1, l2, b2)) {
      await(feeds.like(u, post));
    }
    block(b1, viewer);
    block(viewer, b2);

    assertEquals(List.of(b2, l2, b1, l1), likerIds(await(feeds.likers(author, post, PageRequest.ids(0, 0, 10))
        .map(Page::toJson))));
    JsonObject first = await(feeds.likers(viewer, post, PageRequest.ids(0, 0, 2)).map(Page::toJson));
    assertEquals(List.of(l2, l1), likerIds(first));
    assertEquals(List.of(l2, l1), allPages((max, n) -> feeds.likers(viewer, post, PageRequest.ids(max, 0, n))
        .map(Page::toJson), 1, FeedsTestBase::likerIds));

    // the same page and cursor once the hidden likes are really gone
    await(feeds.unlike(b1, post));
    await(feeds.unlike(b2, post));
    assertEquals(first, await(feeds.likers(viewer, post, PageRequest.ids(0, 0, 2)).map(Page::toJson)));
  }

  @Test
  @DisplayName("a post's mentions leave out users in a block with the reader, on the post and on a profile page")
  void mentionsWithoutBlocks() throws Exception {
    List<Long> users = newUsers(5);
    long author = users.get(0);
    long reader = users.get(1);
    long blocker = users.get(2);
    long blockedByReader = users.get(3);
    long plain = users.get(4);
    long post = await(feeds.publish(author, body("public").put("mentions",
        new JsonArray().add(blocker).add(plain).add(blockedByReader)))).getLong("id");
    block(blocker, reader);
    block(reader, blockedByReader);
    JsonArray all = new JsonArray().add(blocker).add(plain).add(blockedByReader);
    assertEquals(all, await(feeds.post(author, post)).getJsonArray("mentions"));
    assertEquals(all, await(feeds.post(plain, post)).getJsonArray("mentions"));
    JsonArray shown = new JsonArray().add(plain);
    assertEquals(shown, await(feeds.post(reader, post)).getJsonArray("mentions"));
    JsonObject page = await(feeds.userPosts(reader, author, PageRequest.ids(0, 0, 10)).map(Page::toJson));
    assertEquals(shown, page.getJsonArray("items").getJsonObject(0).getJsonArray("mentions"));
  }

  @Test
  @DisplayName("mentioning a user in a block with the author is refused exactly as mentioning a missing user")
  void mentionAcrossBlockRefused() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    long blocker = users.get(1);
    long blockedByAuthor = users.get(2);
    long plain = users.get(3);
    block(blocker, author);
    block(author, blockedByAuthor);
    long missing = plain + 1_000_000_000_000L;
    for (long refused : List.of(blocker, blockedByAuthor, missing)) {
      var failure = failsWith("validation_failed", feeds.publish(author, body("public")
          .put("mentions", new JsonArray().add(plain).add(refused))));
      assertEquals("mentions", failure.getDebugInfo().getString("field"), failure.getDebugInfo().encode());
      assertEquals("unknown users mentioned: [" + refused + "]", failure.getMessage());
    }
    assertEquals(new JsonArray().add(plain), await(feeds.publish(author, body("public")
        .put("mentions", new JsonArray().add(plain)))).getJsonArray("mentions"));
  }

  @Test
  @DisplayName("a post's like and comment counts are its public totals, the same for a reader in a block with a liker")
  void postCountsArePublic() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    long viewer = users.get(1);
    long blocker = users.get(2);
    long other = users.get(3);
    long post = publishPublic(author);
    await(feeds.like(blocker, post));
    await(feeds.like(other, post));
    await(feeds.comment(blocker, post, text("hidden")));
    block(blocker, viewer);
    JsonObject counts = await(feeds.post(other, post)).getJsonObject("counts");
    assertEquals(2L, counts.getLong("likes"));
    assertEquals(1L, counts.getLong("comments"));
    assertEquals(counts, await(feeds.post(viewer, post)).getJsonObject("counts"));
    assertEquals(List.of(other), likerIds(await(feeds.likers(viewer, post, PageRequest.ids(0, 0, 10))
        .map(Page::toJson))));
    assertEquals(List.of(), ids(await(feeds.comments(viewer, post, PageRequest.ids(0, 0, 10)).map(Page::toJson))));
  }

  @Test
  @DisplayName("a post whose every comment and like is hidden from the viewer gives empty last pages, and bad pages are refused")
  void allHiddenAndRefusals() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long viewer = users.get(1);
    long blocker = users.get(2);
    long post = publishPublic(author);
    for (int i = 0; i < 3; i++) {
      await(feeds.comment(blocker, post, text("c" + i)));
    }
    await(feeds.like(blocker, post));
    block(blocker, viewer);
    JsonObject comments = await(feeds.comments(viewer, post, PageRequest.ids(0, 0, 2)).map(Page::toJson));
    assertEquals(new JsonObject().put("items", new JsonArray()).put("next_max_id", null)
        .put("newest_id", null), comments);
    JsonObject likers = await(feeds.likers(viewer, post, PageRequest.ids(0, 0, 2)).map(Page::toJson));
    assertEquals(List.of(), likerIds(likers));
    assertNull(likers.getValue("next_max_id"));
    failsWith("validation_failed", feeds.comments(viewer, post, PageRequest.ids(-1, 0, 2)).map(Page::toJson));
    failsWith("validation_failed", feeds.likers(viewer, post, PageRequest.ids(0, 0, 0)).map(Page::toJson));
    failsWith("post_not_found", feeds.comments(viewer, post + 1_000_000_000L, PageRequest.ids(0, 0, 2))
        .map(Page::toJson));
  }
}
