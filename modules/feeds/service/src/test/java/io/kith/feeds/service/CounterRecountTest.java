package io.kith.feeds.service;

import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Counters recounted from the records after a write stopped half-way")
class CounterRecountTest extends FeedsTestBase {

  @Override
  protected JsonObject feedsConfig() {
    // recount a post one second after its last counted write; look for due posts every second
    return new JsonObject().put("recount-settle-seconds", 1).put("recount-every-seconds", 1);
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("text", text);
  }

  private JsonObject counts(long viewer, long post) throws Exception {
    return await(feeds.post(viewer, post)).getJsonObject("counts");
  }

  /** The mark a write makes before changing a record (what a node that died before its $inc leaves). */
  private void touch(long post) throws Exception {
    await(new CounterRecount(platform.redisApi(), new PostStore(platform.mongo()), null, 1_000).touch(post));
  }

  private void awaitUnmarked(long post) throws Exception {
    await(Poll.until(vertx, FAN_OUT_DEADLINE, "post " + post + " recounted and off the set", () -> platform.redisApi()
        .zscore(CounterRecount.key(post), Long.toString(post)).map(score -> score == null)));
  }

  @Test
  @DisplayName("a like whose $inc never ran, and a comment count off by three, are set right from the records")
  void driftRepaired() throws Exception {
    List<Long> u = newUsers(3);
    long author = u.get(0);
    long reader = u.get(1);
    long reposter = u.get(2);
    long post = publishPublic(author);
    await(feeds.like(reader, post));
    await(feeds.comment(reader, post, text("one")));
    await(feeds.comment(author, post, text("two")));
    await(feeds.repost(reposter, post, text("re")));
    awaitUnmarked(post);
    JsonObject exact = new JsonObject().put("likes", 1L).put("comments", 2L).put("reposts", 1L)
        .put("reposts_total", 1L);
    assertEquals(exact, counts(reader, post), "counters already right are left as they are");

    // a node died after inserting a like and before its $inc; another went wrong on the comments counter; the post
    // stays marked (the touch made before the record changed)
    await(platform.mongo().insert(PostStore.LIKES, new JsonObject().put("_id", platform.ids().next()).put("p", post)
        .put("u", KithTestKit.newUserId()).put("a", author)));
    await(platform.mongo().updateCollection(PostStore.POSTS, new JsonObject().put("_id", post),
        new JsonObject().put("$inc", new JsonObject().put("comments", 3))));
    touch(post);
    JsonObject expected = exact.copy().put("likes", 2L);
    await(Poll.until(vertx, FAN_OUT_DEADLINE, "the counters recounted", () -> feeds.post(reader, post)
        .map(view -> expected.equals(view.getJsonObject("counts")))));
    awaitUnmarked(post);
    assertEquals(expected, PostStore.counters(await(new PostStore(platform.mongo()).find(post))));

    // the repost deleted, its original's reposts fall back but reposts_total (every repost made) stays
    long repost = await(feeds.repost(reposter, post, text("re"))).getLong("id");
    await(platform.mongo().updateCollection(PostStore.POSTS, new JsonObject().put("_id", repost),
        new JsonObject().put("$set", new JsonObject().put("deleted", true))));
    touch(post);
    JsonObject afterDelete = expected.copy().put("reposts", 1L).put("reposts_total", 2L);
    await(Poll.until(vertx, FAN_OUT_DEADLINE, "reposts recounted", () -> feeds.post(reader, post)
        .map(view -> afterDelete.equals(view.getJsonObject("counts")))));
  }

  @Test
  @DisplayName("likes, unlikes and comments racing with the recount rounds end with counters equal to the records")
  void concurrentWrites() throws Exception {
    List<Long> u = newUsers(13);
    long author = u.get(0);
    long post = publishPublic(author);
    List<Long> likers = u.subList(1, 13);
    PostStore store = new PostStore(platform.mongo());
    // waves one after the other for some seconds: the post is due a second after its first write, so rounds (every
    // second) recount it while the later waves write
    for (int wave = 0; wave < 7; wave++) {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < likers.size(); i++) {
        long liker = likers.get(i);
        writes.add(wave % 2 == 0 || i % 3 != 0 ? feeds.like(liker, post) : feeds.unlike(liker, post));
        if (i % 4 == wave % 4) {
          writes.add(feeds.comment(liker, post, text("wave " + wave)));
        }
      }
      await(Future.join(writes));
    }
    awaitUnmarked(post);
    JsonObject stored = PostStore.counters(await(store.find(post)));
    assertEquals(await(store.countInteractions(post)), stored);
    assertEquals(12L, stored.getLong("likes"), "every liker likes it after the last wave");
    assertEquals(stored, counts(author, post));
  }

  @Test
  @DisplayName("a post touched within settle before its lease stays for another recount (its write may still change "
      + "a record); one touched earlier, or whose score moved, is handled as such")
  void touchedBeforeTheLease() throws Exception {
    long author = newUser();
    long post = publishPublic(author);
    long settle = 100_000;
    // this instance's marks are due far ahead: the verticle's rounds (settle 1 s) do not take them
    CounterRecount recount = new CounterRecount(platform.redisApi(), new PostStore(platform.mongo()), null, settle);
    var redis = platform.redisApi();
    String key = CounterRecount.key(post);
    String member = Long.toString(post);

    // a write touched the post just now, then a recounter took it (as CLAIM does: the score becomes the deadline)
    await(recount.touch(post));
    long taken = System.currentTimeMillis();
    CounterRecount.Lease lease = new CounterRecount.Lease(taken, Long.toString(taken + settle + 300_000));
    await(redis.zadd(List.of(key, lease.deadline(), member)));
    assertFalse(await(recount.recount(post, lease)), "the counters were right");
    double kept = Double.parseDouble(await(redis.zscore(key, member)).toString());
    assertTrue(kept > taken && kept <= System.currentTimeMillis() + settle, "due again a settle later: " + kept);

    // the touch was long before the lease: the recount covered its write, and the post leaves the set
    await(redis.hset(List.of(CounterRecount.touches(post), member, Long.toString(taken - settle - 1))));
    await(redis.zadd(List.of(key, lease.deadline(), member)));
    assertFalse(await(recount.recount(post, lease)));
    assertEquals(null, await(redis.zscore(key, member)));
    assertEquals(null, await(redis.hget(CounterRecount.touches(post), member)));

    // a touch after the lease lowered the score: the post is not the recounter's to remove
    await(redis.hset(List.of(CounterRecount.touches(post), member, Long.toString(taken - settle - 1))));
    await(redis.zadd(List.of(key, Long.toString(taken + 5_000), member)));
    assertFalse(await(recount.recount(post, lease)));
    assertEquals(taken + 5_000, (long) Double.parseDouble(await(redis.zscore(key, member)).toString()));
    await(redis.zrem(List.of(key, member)));
    await(redis.hdel(List.of(CounterRecount.touches(post), member)));
  }

  @Test
  @DisplayName("the compare-and-set refuses counters that moved since they were read; a deleted post leaves the set")
  void compareAndSet() throws Exception {
    long author = newUser();
    long post = publishPublic(author);
    PostStore store = new PostStore(platform.mongo());
    JsonObject seen = PostStore.counters(await(store.find(post)));
    await(store.inc(post, new JsonObject().put("likes", 1)));
    assertFalse(await(store.setCounters(post, seen, seen.copy().put("comments", 9L))));
    assertEquals(1L, PostStore.counters(await(store.find(post))).getLong("likes"));
    assertEquals(0L, PostStore.counters(await(store.find(post))).getLong("comments"), "nothing set");
    JsonObject now = PostStore.counters(await(store.find(post)));
    assertTrue(await(store.setCounters(post, now, now.copy().put("likes", 0L))));

    await(feeds.delete(author, post));
    touch(post);
    awaitUnmarked(post);
  }
}
