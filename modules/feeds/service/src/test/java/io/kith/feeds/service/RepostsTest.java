package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reposts: the embedded original, its state, the repost counters and the reposts list. */
class RepostsTest extends FeedsTestBase {

  private JsonObject awaitRepostCounts(long viewer, long post, long live, long total) throws Exception {
    return awaitView(viewer, post, "reposts " + live + ", reposts_total " + total, v ->
        v.getJsonObject("counts").getLong("reposts") == live
            && v.getJsonObject("counts").getLong("reposts_total") == total);
  }

  @Test
  @DisplayName("a repost with text embeds the visible original")
  void repostWithText() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long reposter = users.get(1);
    long reader = users.get(2);
    long original = publishPublic(author);
    String originalText = await(feeds.post(author, original)).getString("text");

    JsonObject repost = await(feeds.repost(reposter, original, new JsonObject().put("text", "look at this")));
    assertTrue(repost.getLong("id") > original);
    assertEquals(reposter, repost.getJsonObject("author").getLong("id"));
    assertEquals("look at this", repost.getString("text"));
    assertEquals("public", repost.getString("visibility"));
    JsonObject embedded = repost.getJsonObject("repost_of");
    assertEquals("visible", embedded.getString("state"));
    assertEquals(original, embedded.getJsonObject("post").getLong("id"));
    assertEquals(author, embedded.getJsonObject("post").getJsonObject("author").getLong("id"));
    assertEquals(originalText, embedded.getJsonObject("post").getString("text"));

    JsonObject read = await(feeds.post(reader, repost.getLong("id")));
    assertEquals("visible", read.getJsonObject("repost_of").getString("state"));
    assertEquals(original, read.getJsonObject("repost_of").getJsonObject("post").getLong("id"));
    assertEquals(true, await(feeds.post(reposter, original)).getJsonObject("viewer").getBoolean("reposted"));
    assertEquals(false, await(feeds.post(reader, original)).getJsonObject("viewer").getBoolean("reposted"));
  }

  @Test
  @DisplayName("when the original is deleted the repost stays and embeds state deleted")
  void originalDeleted() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long reposter = users.get(1);
    long reader = users.get(2);
    long original = publishPublic(author);
    long repost = await(feeds.repost(reposter, original, new JsonObject().put("text", "saved"))).getLong("id");
    await(feeds.delete(author, original));
    for (long viewer : List.of(reader, reposter, author, 0L)) {
      JsonObject view = await(feeds.post(viewer, repost));
      assertEquals("saved", view.getString("text"));
      assertEquals("deleted", view.getJsonObject("repost_of").getString("state"), view.encode());
      assertNull(view.getJsonObject("repost_of").getValue("post"));
    }
  }

  @Test
  @DisplayName("a viewer who may not see the original gets state not_visible and nothing of it")
  void originalNotVisible() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    long friend = users.get(1);
    long stranger = users.get(2);
    long blocked = users.get(3);
    befriend(author, friend);
    long original = publish(author, "friends");
    long repost = await(feeds.repost(friend, original, body("public"))).getLong("id");
    assertEquals("visible", await(feeds.post(friend, repost)).getJsonObject("repost_of").getString("state"));
    assertEquals("visible", await(feeds.post(author, repost)).getJsonObject("repost_of").getString("state"));
    for (long viewer : List.of(stranger, 0L)) {
      JsonObject embedded = await(feeds.post(viewer, repost)).getJsonObject("repost_of");
      assertEquals("not_visible", embedded.getString("state"), embedded.encode());
      assertNull(embedded.getValue("post"));
    }
    // a public original becomes not_visible to a viewer its author blocks
    long open = publishPublic(author);
    long openRepost = await(feeds.repost(friend, open, body("public"))).getLong("id");
    block(author, blocked);
    JsonObject embedded = await(feeds.post(blocked, openRepost)).getJsonObject("repost_of");
    assertEquals("not_visible", embedded.getString("state"), embedded.encode());
    assertNull(embedded.getValue("post"));
  }

  @Test
  @DisplayName("reposting a post the actor cannot see fails post_not_found")
  void repostInvisible() throws Exception {
    List<Long> users = newUsers(2);
    long author = users.get(0);
    long stranger = users.get(1);
    long secret = publish(author, "private");
    failsWith("post_not_found", feeds.repost(stranger, secret, body("public")));
    failsWith("post_not_found", feeds.repost(stranger, secret + 1_000_000_000L, body("public")));
    assertTrue(userPosts(stranger, stranger).isEmpty());
  }

  @Test
  @DisplayName("repost count is live (a deleted repost leaves it) while reposts_total only grows")
  void counters() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long r1 = users.get(1);
    long r2 = users.get(2);
    long original = publishPublic(author);
    long first = await(feeds.repost(r1, original, body("public"))).getLong("id");
    long second = await(feeds.repost(r2, original, body("public"))).getLong("id");
    awaitRepostCounts(author, original, 2, 2);
    assertEquals(List.of(second, first), ids(await(feeds.reposts(author, original, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))));

    await(feeds.delete(r1, first));
    awaitRepostCounts(author, original, 1, 2);
    assertEquals(List.of(second), ids(await(feeds.reposts(author, original, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))));

    await(feeds.repost(r1, original, body("public")));
    awaitRepostCounts(author, original, 2, 3);
  }

  @Test
  @DisplayName("reposting a repost reposts its original")
  void repostOfRepost() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long b = users.get(1);
    long c = users.get(2);
    long original = publishPublic(author);
    long first = await(feeds.repost(b, original, body("public"))).getLong("id");
    JsonObject second = await(feeds.repost(c, first, body("public")));
    assertEquals(original, second.getJsonObject("repost_of").getJsonObject("post").getLong("id"));
    assertEquals(List.of(second.getLong("id"), first), ids(await(feeds.reposts(author, original, PageRequest.ids(0, 0,
        100)).map(Page::toJson))));
    assertTrue(ids(await(feeds.reposts(author, first, PageRequest.ids(0, 0, 100)).map(Page::toJson))).isEmpty(),
        "the repost itself collects no reposts");
    awaitRepostCounts(author, original, 2, 2);
  }

  @Test
  @DisplayName("the reposts list shows only reposts the viewer may see, newest first, and pages")
  void repostsList() throws Exception {
    List<Long> users = newUsers(6);
    long author = users.get(0);
    long viewer = users.get(1);
    long secretive = users.get(2);
    long friendOfViewer = users.get(3);
    long p1 = users.get(4);
    long p2 = users.get(5);
    befriend(viewer, friendOfViewer);
    long original = publishPublic(author);
    long publicRepost = await(feeds.repost(p1, original, body("public"))).getLong("id");
    long privateRepost = await(feeds.repost(secretive, original, body("private"))).getLong("id");
    long friendsRepost = await(feeds.repost(friendOfViewer, original, body("friends"))).getLong("id");
    long another = await(feeds.repost(p2, original, body("public"))).getLong("id");

    assertEquals(List.of(another, friendsRepost, publicRepost), ids(await(feeds.reposts(viewer, original,
        PageRequest.ids(0, 0, 100)).map(Page::toJson))));
    assertEquals(List.of(another, publicRepost), ids(await(feeds.reposts(0, original, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))));
    assertTrue(ids(await(feeds.reposts(secretive, original, PageRequest.ids(0, 0, 100))
        .map(Page::toJson))).contains(privateRepost));
    assertEquals(List.of(another, friendsRepost, publicRepost),
        allPages((maxId, limit) -> feeds.reposts(viewer, original, PageRequest.ids(maxId, 0, limit)).map(Page::toJson),
            2, FeedsTestBase::ids));
    failsWith("validation_failed", feeds.reposts(viewer, original, PageRequest.ids(0, 0, 0)).map(Page::toJson));
    failsWith("validation_failed", feeds.reposts(viewer, original, PageRequest.ids(0, 0, 101)).map(Page::toJson));
  }

  @Test
  @DisplayName("a repost reaches the reposter's followers' home timelines")
  void repostFansOut() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    long reposter = users.get(1);
    long follower = users.get(2);
    follow(follower, reposter);
    long original = publishPublic(author);
    long repost = await(feeds.repost(reposter, original, body("public"))).getLong("id");
    awaitInHome(follower, repost);
    JsonObject item = await(feeds.home(follower, PageRequest.ids(0, 0, 100))
        .map(Page::toJson)).getJsonArray("items").stream()
        .map(o -> (JsonObject) o).filter(o -> o.getLong("id") == repost).findFirst().orElseThrow();
    assertEquals(original, item.getJsonObject("repost_of").getJsonObject("post").getLong("id"));
  }
}
