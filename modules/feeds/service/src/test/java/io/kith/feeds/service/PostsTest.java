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

/** Publishing, editing and deleting posts. */
class PostsTest extends FeedsTestBase {

  @Test
  @DisplayName("a published post comes back as a full view, public by default, and reads the same through post()")
  void publishReturnsView() throws Exception {
    long author = newUser();
    JsonObject view = await(feeds.publish(author, new JsonObject().put("text", "hello world")
        .put("place", new JsonObject().put("name", "Cafe").put("lat", 48.85).put("lon", 2.35))));
    long id = view.getLong("id");
    assertTrue(id > 0);
    assertEquals(author, view.getJsonObject("author").getLong("id"));
    assertEquals("hello world", view.getString("text"));
    assertEquals("public", view.getString("visibility"));
    assertEquals("Cafe", view.getJsonObject("place").getString("name"));
    assertTrue(view.getLong("created") > 0);
    assertFalse(edited(view), "a new post is not edited: " + view.encode());
    assertNull(view.getValue("repost_of"));
    JsonObject counts = view.getJsonObject("counts");
    assertEquals(0L, counts.getLong("likes"));
    assertEquals(0L, counts.getLong("comments"));
    assertEquals(0L, counts.getLong("reposts"));
    assertEquals(0L, counts.getLong("reposts_total"));

    long reader = newUser();
    JsonObject read = await(feeds.post(reader, id));
    assertEquals(id, read.getLong("id"));
    assertEquals("hello world", read.getString("text"));
    assertEquals(false, read.getJsonObject("viewer").getBoolean("liked"));
    assertEquals(false, read.getJsonObject("viewer").getBoolean("following"));
    assertEquals(id, await(feeds.post(0, id)).getLong("id"));
  }

  @Test
  @DisplayName("text of 5,000 characters is accepted and 5,001 fails validation_failed")
  void textLength() throws Exception {
    long author = newUser();
    String max = "x".repeat(5_000);
    assertEquals(max, await(feeds.publish(author, new JsonObject().put("text", max))).getString("text"));
    failsWith("validation_failed", feeds.publish(author, new JsonObject().put("text", max + "y")));
    assertEquals(1, userPosts(author, author).size(), "the rejected post must not exist");
  }

  @Test
  @DisplayName("an unknown visibility fails validation_failed")
  void badVisibility() throws Exception {
    long author = newUser();
    failsWith("validation_failed", feeds.publish(author, body("secret")));
    failsWith("validation_failed", feeds.publish(author, body("PUBLICX")));
    assertTrue(userPosts(author, author).isEmpty());
  }

  @Test
  @DisplayName("an audience naming an unknown group, or another user's group, fails validation_failed")
  void unknownGroup() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long friend = users.get(1);
    long other = users.get(2);
    befriend(author, friend);
    befriend(other, friend);
    long othersGroup = group(other, friend);
    long ownGroup = group(author, friend);
    failsWith("validation_failed", feeds.publish(author,
        body("only").put("audience", audience(List.of(), List.of(ownGroup + 1_000_000L), List.of()))));
    failsWith("validation_failed", feeds.publish(author,
        body("only").put("audience", audience(List.of(), List.of(othersGroup), List.of()))));
    failsWith("validation_failed", feeds.publish(author,
        body("except").put("audience", audience(List.of(), List.of(othersGroup), List.of()))));
    long ok = publish(author, "only", audience(List.of(), List.of(ownGroup), List.of()));
    assertEquals(ok, await(feeds.post(friend, ok)).getLong("id"));
  }

  @Test
  @DisplayName("up to 20 mentions are accepted; 21 fail validation_failed")
  void mentionLimit() throws Exception {
    List<Long> users = newUsers(22);
    long author = users.get(0);
    List<Long> mentioned = users.subList(1, 22);
    JsonObject view = await(feeds.publish(author, body("public").put("mentions", new JsonArray(mentioned.subList(0, 20)))));
    assertEquals(20, view.getJsonArray("mentions").size());
    failsWith("validation_failed", feeds.publish(author, body("public").put("mentions", new JsonArray(mentioned))));
  }

  @Test
  @DisplayName("the author edits the text and the visibility of their post; readers see the change at once")
  void editOwnPost() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long friend = users.get(1);
    befriend(author, friend);
    long id = publishPublic(author);

    JsonObject edited = await(feeds.edit(author, id, new JsonObject().put("text", "corrected")));
    assertEquals("corrected", edited.getString("text"));
    assertTrue(edited(edited), "an edited post says so: " + edited.encode());
    assertEquals("corrected", await(feeds.post(friend, id)).getString("text"));

    assertEquals("private", await(feeds.edit(author, id, new JsonObject().put("visibility", "private")))
        .getString("visibility"));
    failsWith("post_not_found", feeds.post(friend, id));
    failsWith("post_not_found", feeds.post(0, id));
    assertEquals("corrected", await(feeds.post(author, id)).getString("text"));

    await(feeds.edit(author, id, new JsonObject().put("visibility", "friends")));
    assertEquals("friends", await(feeds.post(friend, id)).getString("visibility"));
    failsWith("post_not_found", feeds.post(0, id));

    failsWith("validation_failed", feeds.edit(author, id, new JsonObject().put("text", "y".repeat(5_001))));
    failsWith("validation_failed", feeds.edit(author, id, new JsonObject().put("visibility", "secret")));
    assertEquals("corrected", await(feeds.post(author, id)).getString("text"));
  }

  @Test
  @DisplayName("editing or deleting another's post fails not_author when the actor sees it, post_not_found when not")
  void othersPost() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long other = users.get(1);
    long visible = publishPublic(author);
    long invisible = publish(author, "private");

    failsWith("not_author", feeds.edit(other, visible, new JsonObject().put("text", "hacked")));
    failsWith("not_author", feeds.delete(other, visible));
    failsWith("post_not_found", feeds.edit(other, invisible, new JsonObject().put("text", "hacked")));
    failsWith("post_not_found", feeds.delete(other, invisible));
    failsWith("post_not_found", feeds.edit(other, visible + 1_000_000_000L, new JsonObject().put("text", "x")));

    assertEquals(2, userPosts(author, author).size());
    assertFalse(await(feeds.post(author, visible)).getString("text").equals("hacked"));
    assertFalse(await(feeds.post(author, invisible)).getString("text").equals("hacked"));
  }

  @Test
  @DisplayName("deleting is idempotent for the author, and the post is then post_not_found to everyone")
  void deleteIdempotent() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long other = users.get(1);
    long id = publishPublic(author);
    await(feeds.delete(author, id));
    await(feeds.delete(author, id));
    failsWith("post_not_found", feeds.post(author, id));
    failsWith("post_not_found", feeds.post(other, id));
    failsWith("post_not_found", feeds.delete(other, id));
    failsWith("post_not_found", feeds.edit(author, id, new JsonObject().put("text", "back")));
  }

  @Test
  @DisplayName("a deleted post vanishes at once from every timeline and list, and every path says post_not_found")
  void deletedPostVanishes() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long friend = users.get(1);
    long follower = users.get(2);
    befriend(author, friend);
    follow(follower, author);
    long id = publishPublic(author);
    long kept = publishPublic(author);
    awaitInHome(follower, id);
    awaitInHome(friend, id);
    awaitInMoments(friend, id);
    awaitInHome(author, id);
    awaitListed("latest", () -> feeds.latest(follower, PageRequest.ids(0, 0, 100)).map(Page::toJson), id);
    await(feeds.like(follower, id));
    await(feeds.comment(follower, id, new JsonObject().put("text", "first")));
    assertEquals(List.of(id), ids(await(feeds.likedPosts(follower, PageRequest.ids(0, 0, 100)).map(Page::toJson))));

    await(feeds.delete(author, id));

    // no polling: the delete has returned, so every read must already leave the post out
    for (long viewer : List.of(author, friend, follower)) {
      failsWith("post_not_found", feeds.post(viewer, id));
      assertFalse(home(viewer).contains(id), "home of " + viewer);
      assertTrue(userPosts(viewer, author).contains(kept));
      assertFalse(userPosts(viewer, author).contains(id), "userPosts seen by " + viewer);
      assertFalse(latest(viewer).contains(id), "latest of " + viewer);
      assertEquals(List.of(kept), visibleIds(await(feedsInternal.visiblePosts(viewer, List.of(id, kept)))));
      failsWith("post_not_found", feeds.comments(viewer, id, PageRequest.ids(0, 0, 100)).map(Page::toJson));
      failsWith("post_not_found", feeds.likers(viewer, id, PageRequest.ids(0, 0, 100)).map(Page::toJson));
      failsWith("post_not_found", feeds.reposts(viewer, id, PageRequest.ids(0, 0, 100)).map(Page::toJson));
      failsWith("post_not_found", feeds.like(viewer, id));
      failsWith("post_not_found", feeds.comment(viewer, id, new JsonObject().put("text", "late")));
      failsWith("post_not_found", feeds.repost(viewer, id, body("public")));
    }
    assertFalse(moments(friend).contains(id));
    assertFalse(moments(author).contains(id));
    assertTrue(ids(await(feeds.likedPosts(follower, PageRequest.ids(0, 0, 100)).map(Page::toJson))).isEmpty(),
        "liked posts still show the deleted post");
  }

  /** Whether a view's {@code edited} says the post was edited (a time or a flag). */
  private static boolean edited(JsonObject view) {
    Object edited = view.getValue("edited");
    return edited != null && !Boolean.FALSE.equals(edited) && !(edited instanceof Number n && n.longValue() == 0);
  }

  @Test
  @DisplayName("an audience tag matches the author's contact tag whatever its case")
  void tagCase() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long tagged = users.get(1);
    long other = users.get(2);
    follow(tagged, author);
    follow(other, author);
    await(relations.tagUser(author, tagged, "Close Ones"));
    long post = publish(author, "only", audience(List.of(), List.of(), List.of("CLOSE ONES")));
    assertEquals(post, await(feeds.post(tagged, post)).getLong("id"));
    failsWith("post_not_found", feeds.post(other, post));
    awaitInHome(tagged, post);
  }

  @Test
  @DisplayName("visiblePosts answers for up to 1,000 ids and refuses more with validation_failed")
  void visiblePostsBatch() throws Exception {
    long author = newUser();
    long post = publishPublic(author);
    List<Long> many = new java.util.ArrayList<>();
    for (long i = 1; i < 1_000; i++) {
      many.add(i); // ids that no post has
    }
    many.add(post);
    assertEquals(List.of(post), visibleIds(await(feedsInternal.visiblePosts(author, many))));
    many.add(post + 1);
    failsWith("validation_failed", feedsInternal.visiblePosts(author, many));
  }

  @Test
  @DisplayName("the post view tells the viewer whether they follow the author")
  void viewerFollowing() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long follower = users.get(1);
    long stranger = users.get(2);
    follow(follower, author);
    long post = publishPublic(author);
    assertEquals(true, await(feeds.post(follower, post)).getJsonObject("viewer").getBoolean("following"));
    assertEquals(false, await(feeds.post(stranger, post)).getJsonObject("viewer").getBoolean("following"));
  }
}
