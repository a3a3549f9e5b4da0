package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The eligible-follower pages are served from a Redis copy of the follower list ({@link FollowerLists}) while the
 * copy's version is the author's current follower version: every follow and unfollow moves it, so the next page
 * shows the change.
 */
class FollowerListsTest extends RelationsTestBase {

  private List<Long> items(JsonObject page) {
    return page.getJsonArray("items").stream().map(x -> ((Number) x).longValue()).toList();
  }

  /** Every eligible follower, walking pages of {@code limit}. */
  private List<Long> walk(long author, int limit) throws Exception {
    List<Long> all = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonObject page = await(relationsInternal.eligibleFollowers(author, PageRequest.after(cursor, limit))
          .map(Page::toJson));
      assertTrue(page.getJsonArray("items").size() <= limit, page.encode());
      all.addAll(items(page));
      cursor = page.getString("next");
      assertTrue(++pages < 100, "paging ends");
    } while (cursor != null);
    return all;
  }

  private boolean copied(long author) throws Exception {
    return await(platform.redisApi().exists(List.of(FollowerLists.key(author)))).toInteger() == 1;
  }

  @Test
  @DisplayName("follower pages from the Redis copy match the follower list, and follows, unfollows and blocks show at once")
  void copyFollowsChanges() throws Exception {
    List<Long> users = newUsers(8);
    long author = users.get(0);
    List<Long> followers = new ArrayList<>(users.subList(1, 6));
    for (long f : followers) {
      await(relations.follow(f, author));
    }
    List<Long> newestFirst = new ArrayList<>(followers);
    Collections.reverse(newestFirst);
    assertEquals(newestFirst, walk(author, 2));
    assertTrue(copied(author), "the first page copied the list to Redis");
    assertEquals(newestFirst, walk(author, 2), "served from the copy");
    assertEquals(newestFirst, walk(author, 10_000));

    long late = users.get(6);
    await(relations.follow(late, author));
    newestFirst.add(0, late);
    assertEquals(newestFirst, walk(author, 2));

    await(relations.unfollow(followers.get(1), author));
    newestFirst.remove(followers.get(1));
    assertEquals(newestFirst, walk(author, 3));

    // a block removes the follow edge (and the hot sets hide the blocked user at once)
    await(relations.block(author, followers.get(3)));
    newestFirst.remove(followers.get(3));
    assertEquals(newestFirst, walk(author, 4));

    // a follow undone by the follower while the list is copied: a re-follow comes back newest
    await(relations.unfollow(followers.get(0), author));
    await(relations.follow(followers.get(0), author));
    newestFirst.remove(followers.get(0));
    newestFirst.add(0, followers.get(0));
    assertEquals(newestFirst, walk(author, 1));
    assertEquals(newestFirst, items(await(relationsInternal.eligibleFollowers(author, PageRequest.first(100))
        .map(Page::toJson))));
  }

  @Test
  @DisplayName("a copy is served only at its version: a stale copy is replaced after the next follower change")
  void versionDecides() throws Exception {
    List<Long> users = newUsers(5);
    long author = users.get(0);
    for (long f : users.subList(1, 4)) {
      await(relations.follow(f, author));
    }
    List<Long> expected = List.of(users.get(3), users.get(2), users.get(1));
    assertEquals(expected, walk(author, 10));
    // tamper with the copy, keeping its version: the pages show it is what they read
    await(platform.redisApi().zrem(List.of(FollowerLists.key(author), Long.toString(users.get(2)))));
    assertEquals(List.of(users.get(3), users.get(1)), walk(author, 10));

    // any change of the author's followers moves the version: the copy is taken again from MongoDB
    await(relations.follow(users.get(4), author));
    assertEquals(List.of(users.get(4), users.get(3), users.get(2), users.get(1)), walk(author, 10));
    assertEquals(List.of(users.get(4), users.get(3), users.get(2), users.get(1)), walk(author, 1));
  }

  @Test
  @DisplayName("a copy that does not parse is dropped: the pages come from MongoDB, and a new copy is taken")
  void unreadableCopy() throws Exception {
    List<Long> users = newUsers(3);
    long author = users.get(0);
    for (long f : users.subList(1, 3)) {
      await(relations.follow(f, author));
    }
    List<Long> expected = List.of(users.get(2), users.get(1));
    assertEquals(expected, walk(author, 10));
    // a member that is no follower id, newest of all, keeping the copy's version
    await(platform.redisApi().zadd(List.of(FollowerLists.key(author), Long.toString((1L << 52)), "not-an-id")));
    assertEquals(expected, walk(author, 10));
    assertTrue(copied(author), "a new copy was taken");
    assertNull(await(platform.redisApi().zscore(FollowerLists.key(author), "not-an-id")));
    assertEquals(expected, walk(author, 1));
  }

  @Test
  @DisplayName("a missing copy is rebuilt, an author without followers gets one empty last page, and cursors stay valid")
  void rebuiltAndEmpty() throws Exception {
    List<Long> users = newUsers(4);
    long author = users.get(0);
    JsonObject empty = await(relationsInternal.eligibleFollowers(author, PageRequest.first(10)).map(Page::toJson));
    assertEquals(List.of(), items(empty));
    assertNull(empty.getString("next"));

    for (long f : users.subList(1, 4)) {
      await(relations.follow(f, author));
    }
    JsonObject first = await(relationsInternal.eligibleFollowers(author, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(users.get(3), users.get(2)), items(first));
    String cursor = first.getString("next");
    // the copy vanishes between two pages (expired, or Redis emptied): the cursor still continues the walk
    await(platform.redisApi().del(List.of(FollowerLists.key(author))));
    JsonObject second = await(relationsInternal.eligibleFollowers(author, PageRequest.after(cursor, 2))
        .map(Page::toJson));
    assertEquals(List.of(users.get(1)), items(second));
    assertNull(second.getString("next"), "the last page names no further page");
    assertTrue(copied(author));

    // a page exactly as long as the list is the last one
    JsonObject whole = await(relationsInternal.eligibleFollowers(author, PageRequest.first(3)).map(Page::toJson));
    assertEquals(3, items(whole).size());
    assertNull(whole.getString("next"));
    assertFalse(items(whole).contains(author));
  }

  @Test
  @DisplayName("concurrent follows and unfollows of one author end with the pages showing exactly the final followers")
  void concurrentChanges() throws Exception {
    List<Long> users = newUsers(13);
    long author = users.get(0);
    List<Long> followers = users.subList(1, 13);
    for (long f : followers.subList(0, 6)) {
      await(relations.follow(f, author));
    }
    walk(author, 5);
    // the first six leave, the other six arrive, all at once, while pages are being read
    List<Future<?>> changes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      changes.add(relations.unfollow(followers.get(i), author));
      changes.add(relations.follow(followers.get(6 + i), author));
      changes.add(relationsInternal.eligibleFollowers(author, PageRequest.first(4)).map(Page::toJson));
    }
    await(Future.all(changes));
    List<Long> seen = walk(author, 5);
    assertEquals(6, seen.size(), "followers: " + seen);
    assertTrue(seen.containsAll(followers.subList(6, 12)), "followers: " + seen);
  }
}
