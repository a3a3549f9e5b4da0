package io.kith.feeds.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Changes that narrow who may see a post while Redis refuses to drop its cached copy: the visibility checks other
 * modules ask for ({@code visiblePosts}, which notifications pages and media access use) read that copy, so such a
 * change must not land with the copy left behind. Redis is made to refuse the drop by giving the copy's version key
 * the wrong type, so the drop script fails while reads still work.
 */
@DisplayName("Feeds: a delete, an audience edit or an erasure never leaves a cached copy showing what was narrowed")
class NarrowingCacheTest extends FeedsTestBase {

  /** Makes the post's cache drop fail: its version key becomes a list, which the drop script cannot increment. */
  private void refuseDrops(long post) throws Exception {
    String version = PostCache.key(post) + ":v";
    await(platform.redisApi().del(List.of(version)));
    await(platform.redisApi().rpush(List.of(version, "not a counter")));
  }

  private void allowDrops(long post) throws Exception {
    await(platform.redisApi().del(List.of(PostCache.key(post) + ":v")));
  }

  /** Whether the change went through (false: it failed). */
  private static boolean done(Future<?> change) throws Exception {
    try {
      await(change);
      return true;
    } catch (ExecutionException e) {
      return false;
    }
  }

  private boolean readable(long viewer, long post) throws Exception {
    return done(feeds.post(viewer, post));
  }

  private boolean listed(long viewer, long post) throws Exception {
    return visibleIds(await(feedsInternal.visiblePosts(viewer, List.of(post)))).contains(post);
  }

  @Test
  @DisplayName("a delete whose cache drop Redis refuses fails and leaves the post as it was, and goes through once "
      + "Redis takes it: the visibility check agrees with the post read every time")
  void deleteRefusedDrop() throws Exception {
    long author = newUser();
    long viewer = newUser();
    long post = publishPublic(author);
    assertTrue(listed(viewer, post), "cached by the check");

    refuseDrops(post);
    boolean deleted = done(feeds.delete(author, post));
    assertEquals(readable(viewer, post), listed(viewer, post), "the check agrees with the record");
    assertFalse(deleted, "the delete fails while its copy cannot be dropped");

    allowDrops(post);
    assertTrue(done(feeds.delete(author, post)));
    assertFalse(readable(viewer, post));
    assertFalse(listed(viewer, post), "deleted: no longer shown");
  }

  @Test
  @DisplayName("an audience edit to private whose cache drop Redis refuses fails; a text-only edit goes through")
  void editRefusedDrop() throws Exception {
    long author = newUser();
    long viewer = newUser();
    long post = publishPublic(author);
    assertTrue(listed(viewer, post));

    refuseDrops(post);
    boolean narrowed = done(feeds.edit(author, post, new JsonObject().put("visibility", "private")));
    assertEquals(readable(viewer, post), listed(viewer, post), "the check agrees with the record");
    assertFalse(narrowed, "the narrowing edit fails while its copy cannot be dropped");
    assertTrue(done(feeds.edit(author, post, new JsonObject().put("text", "only the words change"))),
        "a change of text alone does not wait for the drop");

    allowDrops(post);
    assertTrue(done(feeds.edit(author, post, new JsonObject().put("visibility", "private"))));
    assertFalse(listed(viewer, post), "private: no longer shown to the viewer");
  }
}
