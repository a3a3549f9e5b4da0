package io.kith.relations.service;

import io.kith.platform.testkit.CountingRedis;
import io.kith.platform.testkit.PlatformTestBase;
import io.vertx.core.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot sets on their own, with a loader standing in for MongoDB so that a write can be made to land exactly
 * between a rebuild's load and its store.
 */
class HotSetsTest extends PlatformTestBase {

  @Test
  @DisplayName("a set of 20,000 members (beyond what one Lua unpack can take) is built and answers membership")
  void largeSet() throws Exception {
    long user = platform.ids().next();
    List<Long> members = LongStream.rangeClosed(1, 20_000).boxed().toList();
    HotSets sets = new HotSets(platform.redis(), (set, u) -> Future.succeededFuture(members));

    assertEquals(Set.of(1L, 12_345L, 20_000L), await(sets.among(HotSets.BLOCKED_BY, user, List.of(1L, 12_345L,
        20_000L, 20_001L))));
    assertTrue(await(sets.present(HotSets.BLOCKED_BY, user)));
    assertEquals(20_001L, await(platform.redisApi().scard(HotSets.key(HotSets.BLOCKED_BY, user))).toLong(),
        "every member and the marker");
  }

  @Test
  @DisplayName("an add that lands between a rebuild's load and its store is not lost")
  void addDuringRebuild() throws Exception {
    long user = platform.ids().next();
    AtomicInteger loads = new AtomicInteger();
    HotSets[] sets = new HotSets[1];
    sets[0] = new HotSets(platform.redis(), (set, u) -> {
      if (loads.incrementAndGet() == 1) {
        // the record is read before the block is written; the block's set update comes before the set is stored
        return sets[0].add(set, u, 42).map(v -> List.of(7L));
      }
      return Future.succeededFuture(List.of(7L, 42L));
    });

    assertTrue(await(sets[0].contains(HotSets.BLOCKS, user, 7)));
    assertTrue(await(sets[0].contains(HotSets.BLOCKS, user, 42)), "the add raced the rebuild and must still count");
    assertTrue(await(sets[0].present(HotSets.BLOCKS, user)));
    assertEquals(2, loads.get());
  }

  @Test
  @DisplayName("a removal that lands between a rebuild's load and its store is not undone")
  void removeDuringRebuild() throws Exception {
    long user = platform.ids().next();
    AtomicInteger loads = new AtomicInteger();
    HotSets[] sets = new HotSets[1];
    sets[0] = new HotSets(platform.redis(), (set, u) -> {
      if (loads.incrementAndGet() == 1) {
        return sets[0].remove(set, u, 42).map(v -> List.of(7L, 42L));
      }
      return Future.succeededFuture(List.of(7L));
    });

    await(sets[0].among(HotSets.FRIENDS, user, List.of(7L, 42L)));
    assertFalse(await(sets[0].contains(HotSets.FRIENDS, user, 42)), "the removal raced the rebuild and must stand");
    assertTrue(await(sets[0].contains(HotSets.FRIENDS, user, 7)));
  }

  @Test
  @DisplayName("writes to a set that is not loaded do not create a partial set")
  void writesDoNotCreateSets() throws Exception {
    long user = platform.ids().next();
    HotSets sets = new HotSets(platform.redis(), (set, u) -> Future.succeededFuture(List.of(1L, 2L)));
    await(sets.add(HotSets.HIDES, user, 3));
    await(sets.remove(HotSets.HIDES, user, 1));
    assertFalse(await(sets.present(HotSets.HIDES, user)));
    assertEquals(Set.of(1L, 2L), await(sets.among(HotSets.HIDES, user, List.of(1L, 2L, 3L))));
    await(sets.add(HotSets.HIDES, user, 3));
    await(sets.remove(HotSets.HIDES, user, 1));
    assertEquals(Set.of(2L, 3L), await(sets.among(HotSets.HIDES, user, List.of(1L, 2L, 3L))));
  }

  @Test
  @DisplayName("present sets answer together in one Redis round trip that renews their TTL")
  void presentSetsInOneTrip() throws Exception {
    long user = platform.ids().next();
    Map<String, List<Long>> record = Map.of(HotSets.FOLLOWING, List.of(1L, 2L), HotSets.FRIENDS, List.of(2L),
        HotSets.BLOCKS, List.of(3L), HotSets.BLOCKED_BY, List.of(), HotSets.MUTES, List.of(1L, 3L),
        HotSets.HIDDEN_BY, List.of(4L));
    List<String> six = List.of(HotSets.FOLLOWING, HotSets.FRIENDS, HotSets.BLOCKS, HotSets.BLOCKED_BY,
        HotSets.MUTES, HotSets.HIDDEN_BY);
    AtomicInteger loads = new AtomicInteger();
    CountingRedis redis = new CountingRedis(platform.redis());
    HotSets sets = new HotSets(redis, (set, u) -> {
      loads.incrementAndGet();
      return Future.succeededFuture(record.get(set));
    });
    List<Long> ids = List.of(1L, 2L, 3L, 4L, 5L);
    int[] expected = {0b010001, 0b000011, 0b010100, 0b100000, 0};

    assertArrayEquals(expected, await(sets.memberships(user, six, ids)), "built from the record");
    assertEquals(6, loads.get(), "each missing set loaded once");
    for (String set : six) {
      assertTrue(await(sets.present(set, user)), set + " stored");
      await(platform.redisApi().expire(List.of(HotSets.key(set, user), "100")));
    }

    redis.reset();
    assertArrayEquals(expected, await(sets.memberships(user, six, ids)));
    assertEquals(1, redis.trips().size(), "one round trip: " + redis.trips());
    assertEquals(6, loads.get(), "nothing loaded again");
    for (String set : six) {
      assertTrue(await(platform.redisApi().ttl(HotSets.key(set, user))).toLong() > 100, set + " renewed");
    }
  }

  @Test
  @DisplayName("only the missing sets are rebuilt, then asked again with one call; the present ones are not reloaded")
  void onlyMissingSetsRebuilt() throws Exception {
    long user = platform.ids().next();
    Map<String, List<Long>> record = new ConcurrentHashMap<>(Map.of(HotSets.FOLLOWING, List.of(7L),
        HotSets.BLOCKS, List.of(8L), HotSets.MUTES, List.of(9L)));
    List<String> loaded = new CopyOnWriteArrayList<>();
    CountingRedis redis = new CountingRedis(platform.redis());
    HotSets sets = new HotSets(redis, (set, u) -> {
      loaded.add(set);
      return Future.succeededFuture(record.get(set));
    });
    List<String> three = List.of(HotSets.FOLLOWING, HotSets.BLOCKS, HotSets.MUTES);
    List<Long> ids = List.of(7L, 8L, 9L);
    await(sets.memberships(user, three, ids));
    await(platform.redisApi().del(List.of(HotSets.key(HotSets.BLOCKS, user))));
    loaded.clear();
    redis.reset();

    assertArrayEquals(new int[] {0b001, 0b010, 0b100}, await(sets.memberships(user, three, ids)));
    assertEquals(List.of(HotSets.BLOCKS), loaded);
    // ask, read the generation, store, ask the rebuilt set again
    assertEquals(4, redis.trips().size(), "trips: " + redis.trips());
    assertTrue(await(sets.present(HotSets.BLOCKS, user)));
  }

  @Test
  @DisplayName("a write during the rebuild of one of several sets is not lost, and the others still answer")
  void writeDuringMultiSetRebuild() throws Exception {
    long user = platform.ids().next();
    AtomicInteger loads = new AtomicInteger();
    HotSets[] sets = new HotSets[1];
    sets[0] = new HotSets(platform.redis(), (set, u) -> {
      if (set.equals(HotSets.BLOCKED_BY) && loads.incrementAndGet() == 1) {
        // read before the block was recorded; the block's set update lands before this rebuild stores the set
        return sets[0].add(set, u, 42).map(v -> List.of(7L));
      }
      return Future.succeededFuture(set.equals(HotSets.BLOCKED_BY) ? List.of(7L, 42L)
          : set.equals(HotSets.FRIENDS) ? List.of(42L) : List.of());
    });
    List<String> two = List.of(HotSets.FRIENDS, HotSets.BLOCKED_BY);

    int[] first = await(sets[0].memberships(user, two, List.of(7L, 42L)));
    assertArrayEquals(new int[] {0b10, 0b01}, first, "answered from what the rebuild loaded, before the write");
    assertFalse(await(sets[0].present(HotSets.BLOCKED_BY, user)), "the rebuild that lost the race stored nothing");
    assertTrue(await(sets[0].present(HotSets.FRIENDS, user)), "the other set was stored");
    assertArrayEquals(new int[] {0b10, 0b11}, await(sets[0].memberships(user, two, List.of(7L, 42L))),
        "the write is not lost: the next use builds the set with it");
    assertTrue(await(sets[0].present(HotSets.BLOCKED_BY, user)), "built on the next use");
    assertEquals(2, loads.get());
  }
}
