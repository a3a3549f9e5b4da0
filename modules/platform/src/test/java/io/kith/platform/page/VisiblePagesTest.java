package io.kith.platform.page;

import io.kith.platform.testkit.Await;
import io.vertx.core.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pages of a newest-first list of ids (n, n-1, ..., 1) of which some are hidden: what they hold, their cursors, and
 * how many reads they take.
 */
class VisiblePagesTest {

  /** A stored list of ids {@code n..1}, counting its reads. */
  private static final class Stored implements VisiblePages.Rows<Long, Long> {
    final List<Long> ids;
    final AtomicInteger reads = new AtomicInteger();

    Stored(long n) {
      this(LongStream.rangeClosed(1, n).map(i -> n + 1 - i).boxed().toList());
    }

    Stored(List<Long> ids) {
      this.ids = ids;
    }

    @Override
    public Future<List<Long>> read(Long after, int count) {
      reads.incrementAndGet();
      return Future.succeededFuture(ids.stream().filter(id -> after == null || id < after).limit(count).toList());
    }
  }

  private static VisiblePages.Page<Long, Long> page(Stored stored, Set<Long> hidden, Long from, int limit,
                                                    int maxScan) {
    Function<List<Long>, Future<List<Long>>> keep = batch ->
        Future.succeededFuture(batch.stream().filter(id -> !hidden.contains(id)).toList());
    return Await.result(VisiblePages.read(stored, keep, id -> id, id -> id, from, limit, maxScan));
  }

  /** Every id shown, following cursors, with pages of {@code limit}. */
  private static List<Long> all(Stored stored, Set<Long> hidden, int limit, int maxScan) {
    List<Long> out = new ArrayList<>();
    Long cursor = null;
    for (int pages = 0; pages < 10_000; pages++) {
      VisiblePages.Page<Long, Long> p = page(stored, hidden, cursor, limit, maxScan);
      assertTrue(p.items().size() <= limit);
      p.items().forEach(id -> assertTrue(!hidden.contains(id), "hidden id shown: " + id));
      out.addAll(p.items());
      if (p.next() == null) {
        return out;
      }
      assertTrue(!hidden.contains(p.next()) || p.items().isEmpty() || p.items().size() < limit,
          "a cursor at a hidden id only when the scan limit ended the page: " + p);
      cursor = p.next();
    }
    throw new AssertionError("paging did not end");
  }

  @Test
  @DisplayName("a page is filled past hidden ids and its cursor is the last id shown, as in the list without them")
  void filledPages() {
    Stored stored = new Stored(10);
    Set<Long> hidden = Set.of(9L, 8L, 5L, 4L, 3L);
    VisiblePages.Page<Long, Long> first = page(stored, hidden, null, 2, 100);
    assertEquals(List.of(10L, 7L), first.items());
    assertEquals(7L, first.next());
    VisiblePages.Page<Long, Long> second = page(stored, hidden, first.next(), 2, 100);
    assertEquals(List.of(6L, 2L), second.items());
    assertEquals(2L, second.next());
    VisiblePages.Page<Long, Long> third = page(stored, hidden, second.next(), 2, 100);
    assertEquals(List.of(1L), third.items());
    assertNull(third.next());
    for (int limit = 1; limit <= 6; limit++) {
      assertEquals(List.of(10L, 7L, 6L, 2L, 1L), all(stored, hidden, limit, 100), "limit " + limit);
    }
  }

  @Test
  @DisplayName("a full page has a cursor and a short page none, whether or not hidden ids follow")
  void cursorsDoNotTellOfHiddenIds() {
    Stored stored = new Stored(6);
    // shown 6, 5: the list ends there for the reader, with hidden ids after it or not
    assertEquals(new VisiblePages.Page<>(List.of(6L, 5L), 5L), page(stored, Set.of(4L, 3L, 2L, 1L), null, 2, 100));
    assertEquals(new VisiblePages.Page<>(List.of(6L, 5L), 5L),
        page(new Stored(List.of(6L, 5L)), Set.of(), null, 2, 100));
    assertEquals(new VisiblePages.Page<>(List.of(), null), page(stored, Set.of(4L, 3L, 2L, 1L), 5L, 2, 100));
    assertEquals(new VisiblePages.Page<>(List.of(), null), page(stored, Set.of(1L, 2L, 3L, 4L, 5L, 6L), null, 3, 100));
  }

  @Test
  @DisplayName("many hidden ids take few reads, and past the scan limit the cursor moves on from the last id read")
  void scanLimit() {
    Stored stored = new Stored(5_000);
    Set<Long> hidden = LongStream.rangeClosed(2, 4_999).boxed().collect(Collectors.toSet());
    VisiblePages.Page<Long, Long> wide = page(stored, hidden, null, 2, 10_000);
    assertEquals(List.of(5_000L, 1L), wide.items());
    assertTrue(stored.reads.get() <= 20, "reads: " + stored.reads.get());

    VisiblePages.Page<Long, Long> capped = page(stored, hidden, null, 2, 100);
    assertEquals(List.of(5_000L), capped.items());
    assertTrue(capped.next() != null && capped.next() < 5_000L && capped.next() > 1L, "moves on: " + capped);
    assertEquals(List.of(5_000L, 1L), all(stored, hidden, 2, 100));
  }
}
