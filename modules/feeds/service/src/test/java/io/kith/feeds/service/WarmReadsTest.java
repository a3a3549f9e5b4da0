package io.kith.feeds.service;

import io.kith.platform.metrics.KithMetrics;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a warm timeline read costs the stores, as far as the node shows it: post documents from the Redis post cache
 * (counted on {@value KithMetrics#POST_COPIES}), and expiries renewed by writes and now and then, not by every read.
 */
class WarmReadsTest extends FeedsTestBase {

  private static final int TIMELINE_TTL = 1_209_600;

  private double copies(String result) {
    Counter counter = platform.metrics().registry().find(KithMetrics.POST_COPIES).tag("result", result).counter();
    return counter == null ? 0 : counter.count();
  }

  private List<Long> homePage(long viewer) throws Exception {
    return ids(await(feeds.home(viewer, PageRequest.ids(0, 0, 20)).map(Page::toJson)));
  }

  /** A viewer and the posts their warm home shows, newest first. */
  private record Warm(long viewer, List<Long> shown) {
  }

  /** A viewer following two authors whose eight posts (two of them friends-only) have reached the home timeline. */
  private Warm warmHome() throws Exception {
    List<Long> shown = new ArrayList<>();
    List<Long> users = newUsers(3);
    long viewer = users.get(0);
    follow(viewer, users.get(1));
    follow(viewer, users.get(2));
    homePage(viewer);
    List<Long> hidden = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String vis = i % 4 == 3 ? "friends" : i % 2 == 0 ? "public" : "followers";
      long id = publish(users.get(1 + i % 2), vis);
      (vis.equals("friends") ? hidden : shown).add(0, id);
    }
    for (long id : shown) {
      awaitInHome(viewer, id);
    }
    assertTrue(homePage(viewer).stream().noneMatch(hidden::contains), "friends-only posts stay out");
    return new Warm(viewer, shown);
  }

  /** The TTL of {@code key} after setting it to {@code left} seconds and reading the viewer's home page. */
  private long ttlAfterRead(Warm w, String key, long left) throws Exception {
    await(platform.redisApi().expire(List.of(key, Long.toString(left))));
    assertEquals(w.shown(), homePage(w.viewer()));
    return await(platform.redisApi().ttl(key)).toLong();
  }

  @Test
  @DisplayName("a warm home page takes every post from the Redis post cache; a dropped copy is read from MongoDB once")
  void warmHomeReadsNoPostFromMongo() throws Exception {
    Warm w = warmHome();
    long viewer = w.viewer();
    List<Long> shown = w.shown();
    double hits = copies("hit");
    double misses = copies("miss");

    assertEquals(shown, homePage(viewer));
    assertEquals(0, copies("miss") - misses, "no post read from MongoDB");
    assertTrue(copies("hit") - hits >= shown.size(), "each post shown came from its copy");

    await(platform.redisApi().del(List.of(PostCache.key(shown.get(2)))));
    misses = copies("miss");
    assertEquals(shown, homePage(viewer));
    assertEquals(1, copies("miss") - misses, "the dropped copy was read from MongoDB");
    misses = copies("miss");
    assertEquals(shown, homePage(viewer));
    assertEquals(0, copies("miss") - misses, "and cached again");
  }

  @Test
  @DisplayName("a home read renews the timeline's expiry only when a day has passed since it was set")
  void timelineExpiryRenewedDaily() throws Exception {
    Warm w = warmHome();
    String key = Timelines.key(Timelines.HOME, w.viewer());

    long kept = ttlAfterRead(w, key, TIMELINE_TTL - 3_600);
    assertTrue(kept <= TIMELINE_TTL - 3_600, "set an hour ago: left as it is, " + kept);
    long renewed = ttlAfterRead(w, key, TIMELINE_TTL - 2 * 86_400);
    assertTrue(renewed > TIMELINE_TTL - 3_600, "set two days ago: renewed, " + renewed);
  }

  @Test
  @DisplayName("a home read leaves the viewer's liked set's expiry alone; a like renews it")
  void likedSetRenewedByWrites() throws Exception {
    Warm w = warmHome();
    String key = ViewerFlags.key(ViewerFlags.LIKED, w.viewer());
    assertEquals(1, await(platform.redisApi().exists(List.of(key))).toInteger(), "built by the first reads");
    assertTrue(ttlAfterRead(w, key, 1000) <= 1000, "a read does not renew it");

    long liked = w.shown().get(0);
    await(feeds.like(w.viewer(), liked));
    assertTrue(await(platform.redisApi().ttl(key)).toLong() > 1000, "a like does");
    JsonObject page = await(feeds.home(w.viewer(), PageRequest.ids(0, 0, 20)).map(Page::toJson));
    page.getJsonArray("items").forEach(item -> {
      JsonObject view = (JsonObject) item;
      assertEquals(view.getLong("id") == liked, view.getJsonObject("viewer").getBoolean("liked"),
          "liked flag of " + view.getLong("id"));
    });
  }
}
