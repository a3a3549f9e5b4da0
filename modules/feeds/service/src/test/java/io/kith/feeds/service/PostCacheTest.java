package io.kith.feeds.service;

import io.kith.platform.testkit.PlatformTestBase;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The post cache on its own: Redis copies with a version guard, and the node's parsed documents. */
class PostCacheTest extends PlatformTestBase {

  @Test
  @DisplayName("a parsed document is reused only while Redis holds the same copy; a change is read afresh")
  void parsedReusedUntilChanged() throws Exception {
    PostStore posts = new PostStore(platform.mongo());
    PostCache cache = new PostCache(platform.redis(), posts);
    long id = platform.ids().next();
    long author = platform.ids().next();
    await(posts.insert(new JsonObject().put("_id", id).put("author", author).put("text", "one").put("vis", "public")
        .put("likes", 0)));

    JsonObject missed = await(cache.getAll(List.of(id))).get(id);
    assertEquals("one", missed.getString("text"), "read from MongoDB, then cached");
    JsonObject first = await(cache.getAll(List.of(id))).get(id);
    assertEquals(missed, first);
    assertSame(first, await(cache.getAll(List.of(id))).get(id), "the same bytes are not parsed again");

    await(posts.inc(id, new JsonObject().put("likes", 1)));
    await(cache.changed(id));
    JsonObject changed = await(cache.getAll(List.of(id))).get(id);
    assertEquals(1, changed.getLong("likes"), "the change is read");
    JsonObject refilled = await(cache.getAll(List.of(id))).get(id);
    assertNotSame(first, refilled);
    assertEquals(1, refilled.getLong("likes"));

    // a copy put in Redis some other way (another node's fill) is what counts, not the node's parsed one
    await(platform.redisApi().set(List.of(PostCache.key(id), refilled.copy().put("text", "two").encode())));
    assertEquals("two", await(cache.getAll(List.of(id))).get(id).getString("text"));
  }
}
