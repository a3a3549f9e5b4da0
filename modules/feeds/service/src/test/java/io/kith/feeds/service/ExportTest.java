package io.kith.feeds.service;

import io.kith.platform.events.Exports;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Feeds' part of an account export, asked at {@code kith.export.feeds} as the exporter asks it. */
class ExportTest extends FeedsTestBase {

  private static final long TIMEOUT_MS = 60_000;

  /** Every page of the user's feeds part, following the cursor; each page checked against the page limit. */
  private List<Exports.Page> pages(long user) throws Exception {
    List<Exports.Page> pages = new ArrayList<>();
    String cursor = null;
    do {
      Exports.Page page = await(Exports.fetch(vertx, "feeds", user, cursor, TIMEOUT_MS));
      assertTrue(page.records().size() <= Exports.MAX_RECORDS);
      pages.add(page);
      cursor = page.cursor();
    } while (cursor != null && pages.size() < 100);
    assertNull(cursor, "the export did not end");
    return pages;
  }

  /** The records of all pages by file, in export order. */
  private static Map<String, List<JsonObject>> byFile(List<Exports.Page> pages) {
    Map<String, List<JsonObject>> out = new LinkedHashMap<>();
    pages.forEach(p -> p.records().forEach(r -> out.computeIfAbsent(r.file(), f -> new ArrayList<>()).add(r.item())));
    return out;
  }

  @Test
  @DisplayName("the export pages a user's posts, reposts, comments and likes past 500 records, and only theirs")
  void exportsOwnData() throws Exception {
    List<Long> users = newUsers(2);
    long user = users.get(0);
    long other = users.get(1);
    long media = uploadPng(user);
    long post = await(feeds.publish(user, body("public").put("media", new JsonArray().add(media)))).getLong("id");
    long othersPost = publishPublic(other);
    publish(other, "private");
    long repost = await(feeds.repost(user, othersPost, body("public"))).getLong("id");
    await(feeds.like(user, othersPost));
    await(feeds.like(other, post));
    await(feeds.comment(other, post, new JsonObject().put("text", "not the user's")));
    int comments = Exports.MAX_RECORDS + 20;
    for (int wave = 0; wave < comments; wave += 50) {
      List<Future<JsonObject>> each = new ArrayList<>();
      for (int i = wave; i < Math.min(comments, wave + 50); i++) {
        each.add(feeds.comment(user, othersPost, new JsonObject().put("text", "comment " + i)));
      }
      await(Future.all(each));
    }

    List<Exports.Page> pages = pages(user);
    Map<String, List<JsonObject>> files = byFile(pages);

    assertTrue(pages.size() >= 2, "one page held more than 500 records");
    assertEquals(List.of("posts.json", "reposts.json", "comments.json", "likes.json"), List.copyOf(files.keySet()));
    JsonObject exportedPost = files.get("posts.json").get(0);
    assertEquals(1, files.get("posts.json").size());
    assertEquals(post, exportedPost.getLong("id"));
    assertEquals(media, exportedPost.getJsonArray("media").getJsonObject(0).getLong("id"));
    assertEquals("image", exportedPost.getJsonArray("media").getJsonObject(0).getString("kind"));
    assertEquals(1, files.get("reposts.json").size());
    assertEquals(repost, files.get("reposts.json").get(0).getLong("id"));
    assertEquals(othersPost, files.get("reposts.json").get(0).getJsonObject("repost_of").getJsonObject("post")
        .getLong("id"));
    List<JsonObject> exportedComments = files.get("comments.json");
    assertEquals(comments, exportedComments.size());
    assertEquals(comments, new HashSet<>(exportedComments.stream().map(c -> c.getLong("id")).toList()).size());
    assertTrue(exportedComments.stream().allMatch(c -> c.getJsonObject("author").getLong("id") == user));
    assertEquals(1, files.get("likes.json").size());
    assertEquals(othersPost, files.get("likes.json").get(0).getLong("post"));
    assertTrue(files.get("likes.json").get(0).getLong("liked_at") > 0);
  }

  @Test
  @DisplayName("a user with no feeds data, or an unknown one, gets one empty page")
  void unknownUserGetsAnEmptyPart() throws Exception {
    long registered = newUser();
    for (long user : List.of(registered, KithTestKit.newUserId())) {
      List<Exports.Page> pages = pages(user);
      assertEquals(1, pages.size());
      assertEquals(List.of(), pages.get(0).records());
    }
  }

  @Test
  @DisplayName("a cursor feeds never gave is refused, not read as the start")
  void foreignCursorIsRefused() throws Exception {
    long user = newUser();
    publishPublic(user);
    ExecutionException refused = assertThrows(ExecutionException.class,
        () -> await(Exports.fetch(vertx, "feeds", user, "messages:12", TIMEOUT_MS)));
    assertTrue(refused.getCause().getMessage().contains("not a feeds export cursor"), refused.getCause().getMessage());
  }
}
