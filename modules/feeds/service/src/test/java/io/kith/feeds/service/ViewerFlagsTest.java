package io.kith.feeds.service;

import io.kith.platform.testkit.PlatformTestBase;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The viewer-flag sets read in a page's batch ({@code requests}, {@code seen}, {@code resolve}), with a loader and a
 * checker standing in for MongoDB.
 */
class ViewerFlagsTest extends PlatformTestBase {

  @Test
  @DisplayName("read in a batch: a missing set is built and asked again, a complete one answers alone, and only the "
      + "ids shown are resolved")
  void batchAnswers() throws Exception {
    long user = platform.ids().next();
    ViewerFlags flags = new ViewerFlags(platform.redis());
    List<Long> asked = List.of(10L, 11L, 12L);
    List<Collection<Long>> checked = new CopyOnWriteArrayList<>();
    ViewerFlags.Checker checker = (u, ids) -> {
      checked.add(List.copyOf(ids));
      return Future.succeededFuture(Set.of());
    };
    ViewerFlags.Loader loader = (u, limit) -> Future.succeededFuture(List.of(new long[] {11, 5}, new long[] {12, 4}));

    ViewerFlags.Seen missing = seen(flags, user, asked);
    assertFalse(missing.present());
    assertEquals(Set.of(11L), await(flags.resolve(missing, List.of(10L, 11L), loader, checker)), "built, then asked");
    assertTrue(await(flags.stored(ViewerFlags.LIKED, user)).contains("c"));

    ViewerFlags.Seen present = seen(flags, user, asked);
    assertTrue(present.present() && present.complete());
    assertEquals(Set.of(12L), await(flags.resolve(present, List.of(10L, 12L), loader, checker)));
    assertTrue(checked.isEmpty(), "a complete set never asks the record");
  }

  @Test
  @DisplayName("a partial set (more likes than it keeps) checks in the record only the shown ids it does not hold")
  void partialSetChecksMissesShown() throws Exception {
    long user = platform.ids().next();
    ViewerFlags flags = new ViewerFlags(platform.redis());
    List<long[]> rows = new ArrayList<>();
    for (long i = 0; i <= ViewerFlags.CAP; i++) {
      rows.add(new long[] {1_000_000 - i, 1_000_000 - i});
    }
    List<Collection<Long>> checked = new CopyOnWriteArrayList<>();
    ViewerFlags.Checker checker = (u, ids) -> {
      checked.add(List.copyOf(ids));
      return Future.succeededFuture(ids.contains(5L) ? Set.of(5L) : Set.of());
    };
    ViewerFlags.Loader loader = (u, limit) -> Future.succeededFuture(rows.subList(0, Math.min(limit, rows.size())));
    await(flags.among(ViewerFlags.LIKED, user, List.of(1L), loader, checker));
    assertTrue(await(flags.stored(ViewerFlags.LIKED, user)).contains("p"), "only the newest are kept");
    checked.clear();

    ViewerFlags.Seen seen = seen(flags, user, List.of(1_000_000L, 5L, 6L, 7L));
    assertTrue(seen.present());
    assertFalse(seen.complete());
    assertEquals(Set.of(1_000_000L, 5L), await(flags.resolve(seen, List.of(1_000_000L, 5L, 6L), loader, checker)));
    assertEquals(List.of(List.of(5L, 6L)), checked, "7 was not shown, 1,000,000 is held");
  }

  private ViewerFlags.Seen seen(ViewerFlags flags, long user, List<Long> ids) throws Exception {
    List<Response> replies = await(platform.redis().batch(flags.requests(ViewerFlags.LIKED, user, ids)));
    return flags.seen(ViewerFlags.LIKED, user, ids, replies, 0);
  }
}
