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
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Comments and replies on posts. */
class CommentsTest extends FeedsTestBase {

  private static JsonObject text(String text) {
    return new JsonObject().put("text", text);
  }

  private long commentCount(long viewer, long post) throws Exception {
    return await(feeds.post(viewer, post)).getJsonObject("counts").getLong("comments");
  }

  private void awaitCommentCount(long post, long count) throws Exception {
    long author = await(feeds.post(0, post)).getJsonObject("author").getLong("id");
    awaitView(author, post, "comment count " + count,
        v -> v.getJsonObject("counts").getLong("comments") == count);
  }

  @Test
  @DisplayName("a comment comes back as its view, is listed on the post and counted")
  void addComment() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long reader = users.get(1);
    long post = publishPublic(author);
    JsonObject comment = await(feeds.comment(reader, post, text("well said")));
    assertTrue(comment.getLong("id") > 0);
    assertEquals(post, comment.getLong("post"));
    assertEquals(reader, comment.getJsonObject("author").getLong("id"));
    assertEquals("well said", comment.getString("text"));
    assertNull(comment.getValue("reply_to"));
    assertTrue(comment.getLong("created") > 0);

    JsonObject page = await(feeds.comments(author, post, PageRequest.ids(0, 0, 100)).map(Page::toJson));
    assertEquals(List.of(comment.getLong("id")), ids(page));
    assertEquals("well said", page.getJsonArray("items").getJsonObject(0).getString("text"));
    assertEquals(List.of(comment.getLong("id")), ids(await(feeds.comments(0, post, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))));
    awaitCommentCount(post, 1);
  }

  @Test
  @DisplayName("comment text must be 1..2,000 characters")
  void textLength() throws Exception {
    long author = newUser();
    long post = publishPublic(author);
    failsWith("validation_failed", feeds.comment(author, post, text("")));
    failsWith("validation_failed", feeds.comment(author, post, new JsonObject()));
    failsWith("validation_failed", feeds.comment(author, post, text("c".repeat(2_001))));
    assertEquals("c".repeat(2_000), await(feeds.comment(author, post, text("c".repeat(2_000)))).getString("text"));
    assertEquals(1, ids(await(feeds.comments(author, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))).size());
  }

  @Test
  @DisplayName("a reply names the comment it answers and that comment's author")
  void reply() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long first = users.get(1);
    long second = users.get(2);
    long post = publishPublic(author);
    long original = await(feeds.comment(first, post, text("first!"))).getLong("id");
    JsonObject reply = await(feeds.comment(second, post, text("no, me").put("reply_to", original)));
    assertEquals(original, reply.getJsonObject("reply_to").getLong("id"));
    assertEquals(first, reply.getJsonObject("reply_to").getJsonObject("author").getLong("id"));
    JsonObject listed = await(feeds.comments(author, post, PageRequest.ids(0, 0, 100))
        .map(Page::toJson)).getJsonArray("items").getJsonObject(0);
    assertEquals(reply.getLong("id"), listed.getLong("id"));
    assertEquals(original, listed.getJsonObject("reply_to").getLong("id"));
  }

  @Test
  @DisplayName("replying to a comment of another post fails (validation_failed or comment_not_found)")
  void replyAcrossPosts() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long reader = users.get(1);
    long post = publishPublic(author);
    long otherPost = publishPublic(author);
    long elsewhere = await(feeds.comment(reader, otherPost, text("over here"))).getLong("id");
    failsWithOneOf(Set.of("validation_failed", "comment_not_found"),
        feeds.comment(reader, post, text("reply").put("reply_to", elsewhere)));
    failsWithOneOf(Set.of("validation_failed", "comment_not_found"),
        feeds.comment(reader, post, text("reply").put("reply_to", elsewhere + 1_000_000_000L)));
    assertTrue(ids(await(feeds.comments(reader, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))).isEmpty());
  }

  @Test
  @DisplayName("the commenter deletes their comment; it leaves the list and the count")
  void deleteByCommenter() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long reader = users.get(1);
    long post = publishPublic(author);
    long keep = await(feeds.comment(author, post, text("mine"))).getLong("id");
    long gone = await(feeds.comment(reader, post, text("oops"))).getLong("id");
    awaitCommentCount(post, 2);
    await(feeds.deleteComment(reader, gone));
    assertEquals(List.of(keep), ids(await(feeds.comments(reader, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))));
    awaitCommentCount(post, 1);
    // deleting again either succeeds (idempotent) or says the comment is gone; it never comes back
    try {
      await(feeds.deleteComment(reader, gone));
    } catch (java.util.concurrent.ExecutionException e) {
      assertEquals("comment_not_found", io.kith.platform.error.Failures.codeOf(e.getCause()), e.getCause().toString());
    }
    assertEquals(List.of(keep), ids(await(feeds.comments(reader, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))));
  }

  @Test
  @DisplayName("the post's author deletes someone else's comment on it")
  void deleteByPostAuthor() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long troll = users.get(1);
    long post = publishPublic(author);
    long rude = await(feeds.comment(troll, post, text("rude"))).getLong("id");
    await(feeds.deleteComment(author, rude));
    assertTrue(ids(await(feeds.comments(troll, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))).isEmpty());
    awaitCommentCount(post, 0);
  }

  @Test
  @DisplayName("a third user may not delete a comment: not_author, and the comment stays")
  void deleteByThirdUser() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long commenter = users.get(1);
    long third = users.get(2);
    long post = publishPublic(author);
    long comment = await(feeds.comment(commenter, post, text("hi"))).getLong("id");
    failsWith("not_author", feeds.deleteComment(third, comment));
    assertEquals(List.of(comment), ids(await(feeds.comments(third, post, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))));
    // the commenter's comment on another author's post cannot be removed by a commenter of the same post either
    long other = await(feeds.comment(third, post, text("me too"))).getLong("id");
    failsWith("not_author", feeds.deleteComment(commenter, other));
  }

  @Test
  @DisplayName("a comment on a post the actor cannot see fails post_not_found, and so does its deletion attempt")
  void invisiblePost() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long stranger = users.get(1);
    long post = publish(author, "private");
    long own = await(feeds.comment(author, post, text("note to self"))).getLong("id");
    failsWith("post_not_found", feeds.comment(stranger, post, text("peek")));
    failsWith("post_not_found", feeds.comments(stranger, post, PageRequest.ids(0, 0, 100)).map(Page::toJson));
    failsWithOneOf(Set.of("comment_not_found", "post_not_found"), feeds.deleteComment(stranger, own));
  }

  @Test
  @DisplayName("20 concurrent comments are all stored and counted exactly")
  void concurrentComments() throws Exception {
    List<Long> users = newUsers(5);
    long author = users.get(0);
    long post = publishPublic(author);
    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      all.add(feeds.comment(users.get(1 + i % 4), post, text("c" + i)));
    }
    await(Future.all(all));
    Set<Long> made = new HashSet<>();
    all.forEach(f -> made.add(f.result().getLong("id")));
    assertEquals(20, made.size());
    assertEquals(made, new HashSet<>(ids(await(feeds.comments(author, post, PageRequest.ids(0, 0, 100))
        .map(Page::toJson)))));
    awaitCommentCount(post, 20);
    assertEquals(20, commentCount(users.get(1), post));
  }

  @Test
  @DisplayName("comments page newest first by max_id, and since_id returns only newer ones")
  void paging() throws Exception {
    long author = newUser();
    long post = publishPublic(author);
    List<Long> made = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      made.add(await(feeds.comment(author, post, text("c" + i))).getLong("id"));
    }
    List<Long> newestFirst = new ArrayList<>(made);
    Collections.reverse(newestFirst);
    assertEquals(newestFirst, allPages((maxId, limit) -> feeds.comments(author, post, PageRequest.ids(maxId, 0,
        limit)).map(Page::toJson), 3,
        FeedsTestBase::ids));

    JsonObject first = await(feeds.comments(author, post, PageRequest.ids(0, 0, 3)).map(Page::toJson));
    assertEquals(newestFirst.subList(0, 3), ids(first));
    long newest = first.getLong("newest_id");
    assertTrue(ids(await(feeds.comments(author, post, PageRequest.ids(0, newest, 100)).map(Page::toJson))).isEmpty());
    long later1 = await(feeds.comment(author, post, text("later 1"))).getLong("id");
    long later2 = await(feeds.comment(author, post, text("later 2"))).getLong("id");
    assertEquals(List.of(later2, later1), ids(await(feeds.comments(author, post, PageRequest.ids(0, newest, 100))
        .map(Page::toJson))));
    // max_id is exclusive: older than the given id
    assertEquals(newestFirst.subList(4, 7), ids(await(feeds.comments(author, post, PageRequest.ids(newestFirst.get(3),
        0, 100)).map(Page::toJson))));
    failsWith("validation_failed", feeds.comments(author, post, PageRequest.ids(0, 0, 0)).map(Page::toJson));
    failsWith("validation_failed", feeds.comments(author, post, PageRequest.ids(0, 0, 101)).map(Page::toJson));
  }

  @Test
  @DisplayName("a deleted comment's reply keeps working and the deleted one stays gone")
  void deletedCommentInList() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long reader = users.get(1);
    long post = publishPublic(author);
    long parent = await(feeds.comment(reader, post, text("parent"))).getLong("id");
    long child = await(feeds.comment(author, post, text("child").put("reply_to", parent))).getLong("id");
    await(feeds.deleteComment(reader, parent));
    List<Long> listed = ids(await(feeds.comments(author, post, PageRequest.ids(0, 0, 100)).map(Page::toJson)));
    assertEquals(List.of(child), listed);
    assertFalse(listed.contains(parent));
    failsWithOneOf(Set.of("validation_failed", "comment_not_found"),
        feeds.comment(author, post, text("to a ghost").put("reply_to", parent)));
  }
}
