package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.CountingRedis;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.UserDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.BulkOperation;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eligible-follower pages: a warm page (the copy current, the author's four sets present) is one script call, and it
 * answers exactly what the other ways to a page answer (the list from MongoDB, sets rebuilt from MongoDB).
 */
class EligibleFollowersTest extends RelationsTestBase {

  private static final List<String> SETS = List.of(HotSets.HIDES, HotSets.BLOCKS, HotSets.BLOCKED_BY,
      HotSets.FRIENDS);

  private EdgeStore edges() {
    return new EdgeStore(platform.mongo(), platform.ids());
  }

  /** A service on its own stores, whose Redis round trips are counted; {@code loader} stands in for MongoDB. */
  private RelationsInternal counted(CountingRedis redis, HotSets.Loader loader) {
    EdgeStore edges = edges();
    return new RelationsServiceImpl(platform, edges, new HotSets(redis, loader), new FollowerLists(redis, edges),
        new GroupStore(platform.mongo(), platform.ids()), new TagStore(platform.mongo(), platform.ids()),
        UserDirectory.proxy(vertx)).internal();
  }

  private RelationsInternal counted(CountingRedis redis) {
    EdgeStore edges = edges();
    return counted(redis, (set, user) -> RelationsVerticle.load(edges, set, user));
  }

  private static List<Long> longs(JsonArray array) {
    return array.stream().map(x -> ((Number) x).longValue()).toList();
  }

  /** Something done before each page of a walk. */
  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  /** Every page of the author's eligible followers, {@code limit} a page, running {@code before} before each. */
  private List<JsonObject> pages(RelationsInternal service, long author, int limit, Step before) throws Exception {
    List<JsonObject> pages = new ArrayList<>();
    String cursor = null;
    do {
      before.run();
      JsonObject page = await(service.eligibleFollowers(author, PageRequest.after(cursor, limit)).map(Page::toJson));
      assertTrue(page.getJsonArray("items").size() <= limit, page.encode());
      pages.add(page);
      cursor = page.getString("next");
      assertTrue(pages.size() < 100, "paging ends");
    } while (cursor != null);
    return pages;
  }

  private void del(String... keys) throws Exception {
    await(platform.redisApi().del(List.of(keys)));
  }

  private void dropCopy(long author) throws Exception {
    del(FollowerLists.key(author));
  }

  private void dropSets(long author) throws Exception {
    del(SETS.stream().map(s -> HotSets.key(s, author)).toArray(String[]::new));
  }

  private boolean exists(String key) throws Exception {
    return await(platform.redisApi().exists(List.of(key))).toInteger() == 1;
  }

  /** A follow edge into {@code author} written straight to MongoDB, with its count and version, as a follow does. */
  private void rawFollow(long follower, long author) throws Exception {
    EdgeStore edges = edges();
    assertTrue(await(edges.insert(EdgeStore.FOLLOW, follower, author)));
    await(edges.incFollowers(author, 1));
  }

  @Test
  @DisplayName("a warm page answers exactly what pages from MongoDB and rebuilt sets answer: items, friends and next")
  void warmPagesMatchColdPages() throws Exception {
    List<Long> users = newUsers(15);
    long author = users.get(0);
    List<Long> f = users.subList(1, 15);
    for (long follower : f) {
      await(relations.follow(follower, author));
    }
    for (int i : new int[] {1, 4, 8, 11}) {
      await(relations.follow(author, f.get(i)));
    }
    await(relations.hide(author, f.get(2)));
    // a hidden friend is left out too
    await(relations.hide(author, f.get(8)));
    // muted by the author, or hiding from the author: still receives the author's posts
    await(relations.mute(author, f.get(3)));
    await(relations.hide(f.get(5), author));
    // follows standing beside a block, as in the moment before a follow's re-check undoes it: not eligible
    long blockedFollower = platform.ids().next();
    long blockingFollower = platform.ids().next();
    rawFollow(blockedFollower, author);
    await(edges().insert(EdgeStore.BLOCK, author, blockedFollower));
    rawFollow(blockingFollower, author);
    await(edges().insert(EdgeStore.BLOCK, blockingFollower, author));
    // the author's sets were built before those raw block edges: built again from MongoDB
    dropSets(author);

    List<Long> expected = new ArrayList<>();
    for (int i = f.size() - 1; i >= 0; i--) {
      if (i != 2 && i != 8) {
        expected.add(f.get(i));
      }
    }
    JsonObject whole = await(relationsInternal.eligibleFollowers(author, PageRequest.first(100)).map(Page::toJson));
    assertEquals(expected, longs(whole.getJsonArray("items")));
    assertEquals(List.of(f.get(11), f.get(4), f.get(1)), longs(whole.getJsonArray("friends")));
    assertNull(whole.getString("next"));
    assertTrue(exists(FollowerLists.key(author)), "the list is copied");
    assertEquals(whole, await(relationsInternal.eligibleFollowers(author, PageRequest.first(100)).map(Page::toJson)),
        "warm");

    for (int limit : new int[] {1, 2, 5, 12, 16}) {
      List<JsonObject> warm = pages(relationsInternal, author, limit, () -> { });
      assertEquals(warm, pages(relationsInternal, author, limit, () -> {
        dropCopy(author);
        dropSets(author);
      }), "list from MongoDB, sets rebuilt, pages of " + limit);
      assertEquals(warm, pages(relationsInternal, author, limit, () -> dropCopy(author)),
          "list from MongoDB, " + limit);
      assertEquals(warm, pages(relationsInternal, author, limit, () -> dropSets(author)), "sets rebuilt, " + limit);
      List<Long> items = new ArrayList<>();
      List<Long> friends = new ArrayList<>();
      warm.forEach(p -> {
        items.addAll(longs(p.getJsonArray("items")));
        friends.addAll(longs(p.getJsonArray("friends")));
      });
      assertEquals(expected, items, "pages of " + limit);
      assertEquals(List.of(f.get(11), f.get(4), f.get(1)), friends, "pages of " + limit);
    }
  }

  @Test
  @DisplayName("a warm page is one Redis round trip; a missing set or a stale copy costs more trips, once")
  void warmPageIsOneTrip() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    for (long follower : users.subList(1, 4)) {
      await(relations.follow(follower, author));
    }
    befriend(author, users.get(2));
    CountingRedis redis = new CountingRedis(platform.redis());
    RelationsInternal service = counted(redis);
    JsonObject expected = new JsonObject().put("items", new JsonArray(List.of(users.get(3), users.get(2),
        users.get(1)))).put("friends", new JsonArray(List.of(users.get(2)))).putNull("next");
    assertEquals(expected, await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson)));

    redis.reset();
    assertEquals(expected, await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson)));
    assertEquals(List.of("evalsha"), redis.trips(), "one script call");

    del(HotSets.key(HotSets.FRIENDS, author));
    redis.reset();
    assertEquals(expected, await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson)),
        "the friend set rebuilt");
    assertTrue(redis.trips().size() > 1, "trips: " + redis.trips());
    assertTrue(exists(HotSets.key(HotSets.FRIENDS, author)), "stored again");
    redis.reset();
    assertEquals(expected, await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson)));
    assertEquals(1, redis.trips().size(), "trips: " + redis.trips());

    // the copy one version behind: the list is loaded from MongoDB and copied again
    String key = FollowerLists.key(author);
    double score = await(platform.redisApi().zscore(key, "v")).toDouble();
    await(platform.redisApi().zadd(List.of(key, Double.toString(score + 1), "v")));
    redis.reset();
    assertEquals(expected, await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson)));
    assertTrue(redis.trips().size() > 1, "trips: " + redis.trips());
    assertEquals(score, await(platform.redisApi().zscore(key, "v")).toDouble(), "copied at the current version");
    redis.reset();
    assertEquals(expected, await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson)));
    assertEquals(1, redis.trips().size(), "trips: " + redis.trips());
  }

  @Test
  @DisplayName("a copy of another version, older or newer, is never served")
  void otherVersionNotServed() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    await(relations.follow(users.get(1), author));
    await(relations.follow(users.get(2), author));
    List<Long> expected = List.of(users.get(2), users.get(1));
    assertEquals(expected, longs(await(relationsInternal.eligibleFollowers(author, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items")));
    String key = FollowerLists.key(author);
    double score = await(platform.redisApi().zscore(key, "v")).toDouble();
    // a stranger in the copy shows whether the copy was served
    String stranger = Long.toString(platform.ids().next());
    await(platform.redisApi().zadd(List.of(key, Long.toString(platform.ids().next()), stranger)));
    assertEquals(3, longs(await(relationsInternal.eligibleFollowers(author, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items")).size(),
        "at its version, the copy is served as it is");

    await(platform.redisApi().zadd(List.of(key, Double.toString(score + 1), "v")));
    assertEquals(expected, longs(await(relationsInternal.eligibleFollowers(author, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items")),
        "an older copy is not served");
    assertEquals(score, await(platform.redisApi().zscore(key, "v")).toDouble(), "and is replaced");
    assertNull(await(platform.redisApi().zscore(key, stranger)));

    await(platform.redisApi().zadd(List.of(key, Double.toString(score - 5), "v", Long.toString(platform.ids().next()),
        stranger)));
    for (int i = 0; i < 2; i++) {
      JsonObject page = await(relationsInternal.eligibleFollowers(author, PageRequest.first(1)).map(Page::toJson));
      assertEquals(List.of(users.get(2)), longs(page.getJsonArray("items")), "a newer copy is not served either");
      JsonObject rest = await(relationsInternal.eligibleFollowers(author, PageRequest.after(page.getString("next"), 1))
          .map(Page::toJson));
      assertEquals(List.of(users.get(1)), longs(rest.getJsonArray("items")));
      assertNull(rest.getString("next"));
    }
  }

  @Test
  @DisplayName("missing sets are rebuilt with what changed while they were missing, and a write racing the rebuild stays")
  void missingSetsRebuilt() throws Exception {
    List<Long> users = newUsers(5);
    long author = users.get(0);
    List<Long> f = users.subList(1, 5);
    for (long follower : f) {
      await(relations.follow(follower, author));
    }
    befriend(author, f.get(1));
    JsonObject first = await(relationsInternal.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson));
    assertEquals(List.of(f.get(3), f.get(2), f.get(1), f.get(0)), longs(first.getJsonArray("items")));
    assertEquals(List.of(f.get(1)), longs(first.getJsonArray("friends")));

    del(HotSets.key(HotSets.FRIENDS, author), HotSets.key(HotSets.HIDES, author));
    // the author ends the friendship (the follower still follows: the copy stays current) and hides from another
    await(relations.unfollow(author, f.get(1)));
    await(relations.hide(author, f.get(2)));
    JsonObject page = await(relationsInternal.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson));
    assertEquals(List.of(f.get(3), f.get(1), f.get(0)), longs(page.getJsonArray("items")));
    assertEquals(List.of(), longs(page.getJsonArray("friends")));
    assertTrue(exists(HotSets.key(HotSets.FRIENDS, author)) && exists(HotSets.key(HotSets.HIDES, author)),
        "rebuilt");
    assertEquals(page, await(relationsInternal.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson)),
        "warm again");

    // a friendship written between the rebuild's read of MongoDB and its store: answered from what was read, then
    // not lost
    del(HotSets.key(HotSets.FRIENDS, author));
    AtomicInteger loads = new AtomicInteger();
    HotSets[] sets = new HotSets[1];
    CountingRedis redis = new CountingRedis(platform.redis());
    EdgeStore edges = edges();
    RelationsInternal service = counted(redis, (set, user) -> {
      if (set.equals(HotSets.FRIENDS) && loads.incrementAndGet() == 1) {
        return sets[0].add(set, user, f.get(3)).map(v -> List.of());
      }
      return RelationsVerticle.load(edges, set, user).map(loaded -> set.equals(HotSets.FRIENDS)
          ? List.of(f.get(3)) : loaded);
    });
    sets[0] = new HotSets(platform.redis(), (set, user) -> Future.failedFuture("not used"));
    JsonObject racing = await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson));
    assertEquals(List.of(), longs(racing.getJsonArray("friends")), "what the rebuild read");
    assertFalse(exists(HotSets.key(HotSets.FRIENDS, author)), "the rebuild that lost the race stored nothing");
    JsonObject after = await(service.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson));
    assertEquals(List.of(f.get(3)), longs(after.getJsonArray("friends")), "the write is not lost");
    assertEquals(2, loads.get());
    assertEquals(racing.getJsonArray("items"), after.getJsonArray("items"));
  }

  @Test
  @DisplayName("a list longer than the copy's limit pages from MongoDB, and a copy left from when it was shorter goes")
  void longListPagesFromMongo() throws Exception {
    long author = platform.ids().next();
    int total = FollowerLists.MAX + 1;
    List<Long> newestFirst = new ArrayList<>();
    List<BulkOperation> ops = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      long follower = platform.ids().next();
      newestFirst.add(0, follower);
      ops.add(BulkOperation.createInsert(new JsonObject().put("_id", platform.ids().next()).put("t", EdgeStore.FOLLOW)
          .put("a", follower).put("b", author).put("at", 0L)));
    }
    long friend = newestFirst.get(1);
    long hidden = newestFirst.get(2);
    ops.add(BulkOperation.createInsert(new JsonObject().put("_id", platform.ids().next()).put("t", EdgeStore.FRIEND)
        .put("a", author).put("b", friend).put("at", 0L)));
    ops.add(BulkOperation.createInsert(new JsonObject().put("_id", platform.ids().next()).put("t", EdgeStore.HIDE)
        .put("a", author).put("b", hidden).put("at", 0L)));
    for (int i = 0; i < ops.size(); i += 1_000) {
      await(platform.mongo().bulkWrite(EdgeStore.EDGES, ops.subList(i, Math.min(ops.size(), i + 1_000))));
    }
    await(platform.mongo().insert(EdgeStore.COUNTS, new JsonObject().put("user", author).put("followers", total)
        .put(EdgeStore.FOLLOWER_VERSION, 1)));
    // a copy at the current version, as if taken while an unfollow was still counting
    String key = FollowerLists.key(author);
    await(platform.redisApi().zadd(List.of(key, "-2", "v", Long.toString(platform.ids().next()),
        Long.toString(newestFirst.get(0)))));

    JsonObject first = await(relationsInternal.eligibleFollowers(author, PageRequest.first(20_000)).map(Page::toJson));
    List<Long> items = longs(first.getJsonArray("items"));
    assertEquals(FollowerLists.MAX - 1, items.size(), "a page of 10,000 without the hidden follower");
    assertFalse(items.contains(hidden));
    assertEquals(newestFirst.subList(0, 2), items.subList(0, 2));
    assertEquals(List.of(friend), longs(first.getJsonArray("friends")));
    assertNotNull(first.getString("next"));
    assertFalse(exists(key), "the copy is dropped");
    JsonObject second = await(relationsInternal.eligibleFollowers(author,
        PageRequest.after(first.getString("next"), 20_000))
        .map(Page::toJson));
    assertEquals(List.of(newestFirst.get(total - 1)), longs(second.getJsonArray("items")));
    assertNull(second.getString("next"));
    assertFalse(exists(key), "nothing copied");
  }

  @Test
  @DisplayName("limits are clamped, malformed cursors refused, and a cursor past the end gets an empty last page")
  void limitsAndCursors() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    for (long follower : users.subList(1, 4)) {
      await(relations.follow(follower, author));
    }
    for (int limit : new int[] {0, -5}) {
      JsonObject page = await(relationsInternal.eligibleFollowers(author, PageRequest.first(limit)).map(Page::toJson));
      assertEquals(List.of(users.get(3)), longs(page.getJsonArray("items")), "limit " + limit + " reads one");
      assertNotNull(page.getString("next"));
    }
    assertEquals(3, await(relationsInternal.eligibleFollowers(author, PageRequest.after("", Integer.MAX_VALUE))
        .map(Page::toJson)).getJsonArray("items").size());
    for (String cursor : new String[] {"0", "-3", "x", "1.5", " ", "99999999999999999999"}) {
      failsWith("validation_failed", relationsInternal.eligibleFollowers(author, PageRequest.after(cursor, 10))
          .map(Page::toJson));
    }
    for (int i = 0; i < 2; i++) {
      JsonObject past = await(relationsInternal.eligibleFollowers(author, PageRequest.after("1", 10))
          .map(Page::toJson));
      assertEquals(new JsonObject().put("items", new JsonArray()).put("friends", new JsonArray()).putNull("next"),
          past);
    }

    long lonely = newUser();
    for (int i = 0; i < 2; i++) {
      JsonObject empty = await(relationsInternal.eligibleFollowers(lonely, PageRequest.first(10_000))
          .map(Page::toJson));
      assertEquals(new JsonObject().put("items", new JsonArray()).put("friends", new JsonArray()).putNull("next"),
          empty, i == 0 ? "from MongoDB" : "from the empty copy");
    }
    assertTrue(exists(FollowerLists.key(lonely)));
  }

  @Test
  @DisplayName("a page answers at most four sets, the most one letter per follower can flag, and holds one follower "
      + "at least")
  void atMostFourSets() {
    FollowerLists lists = new FollowerLists(platform.redis(), edges());
    assertThrows(IllegalArgumentException.class, () -> lists.page(1, null, 10, List.of(HotSets.HIDES,
        HotSets.BLOCKS, HotSets.BLOCKED_BY, HotSets.FRIENDS, HotSets.MUTES)));
    assertThrows(IllegalArgumentException.class, () -> lists.page(1, null, 0, List.of(HotSets.HIDES)));
  }
}
