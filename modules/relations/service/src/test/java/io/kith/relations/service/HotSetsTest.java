package io.kith.relations.service;

import io.kith.platform.Platform;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot sets on their own, with a loader standing in for MongoDB so that a write can be made to land exactly
 * between a rebuild's load and its store.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HotSetsTest {

  private Vertx vertx;
  private Platform platform;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    platform = await(KithTestKit.platform(vertx));
  }

  @AfterAll
  void stop() throws Exception {
    if (platform != null) {
      await(platform.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

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

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
