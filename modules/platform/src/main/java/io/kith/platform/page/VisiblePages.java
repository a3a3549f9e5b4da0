package io.kith.platform.page;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads a page of a cursor-paged list whose stored rows the reader may not all see (rows of users in a block with
 * the reader, say), so that neither the page nor its cursor tells of a hidden row.
 *
 * <p>Rows are read in the list's order in batches past a cursor and passed through a filter that keeps (and may turn
 * into views) those the reader may see; batches follow until {@code limit} rows are kept or the list ends. The
 * cursor to the next page is the position of the last row kept, never of a hidden one; a full page has one and a
 * shorter page (the list ended) none, just as for a list that hides nothing. So a page whose hidden rows were left
 * out looks exactly like a page of the list without them (a cursor at a hidden row would show that something lies
 * between the last row shown and the cursor, or, when a cursor can be decoded, whose row it is). A batch after a
 * hidden row asks for at least as many rows as were hidden so far, so many hidden rows cost few reads; reading stops
 * after {@code maxScan} rows, and only then the cursor is the last row read (hidden or not), so that the next page
 * moves on.
 */
public final class VisiblePages {

  /** Most rows one batch reads. */
  static final int MAX_BATCH = 1_000;

  private VisiblePages() {
  }

  /**
   * Reads up to {@code count} stored rows past the cursor {@code after} (null: from the start), in the list's order.
   *
   * @param <T> a stored row
   * @param <K> a position in the list (an id, or a sort key with an id)
   */
  @FunctionalInterface
  public interface Rows<T, K> {
    /** The rows, in the list's order; fewer than {@code count} only at the end of the list. */
    Future<List<T>> read(K after, int count);
  }

  /**
   * A page: the rows kept (at most the limit, in the list's order) and the cursor to the next page, or null at the
   * end.
   */
  public record Page<R, K>(List<R> items, K next) {
  }

  /**
   * Reads one page.
   *
   * @param rows     the stored list
   * @param keep     the rows the reader may see among a batch, in the batch's order (as they are or as views)
   * @param rowAt    a stored row's position
   * @param keptAt   a kept row's position, equal to that of the stored row it came from
   * @param from     the cursor of the page (null: from the start)
   * @param limit    most rows kept, at least 1
   * @param maxScan  most rows read for one page (at least {@code limit} are)
   */
  public static <T, R, K> Future<Page<R, K>> read(Rows<T, K> rows, Function<List<T>, Future<List<R>>> keep,
                                                  Function<T, K> rowAt, Function<R, K> keptAt, K from, int limit,
                                                  int maxScan) {
    return next(new Reading<>(rows, keep, rowAt, keptAt, limit, Math.max(limit, maxScan)), from, new ArrayList<>(), 0);
  }

  private record Reading<T, R, K>(Rows<T, K> rows, Function<List<T>, Future<List<R>>> keep, Function<T, K> rowAt,
                                  Function<R, K> keptAt, int limit, int maxScan) {
  }

  private static <T, R, K> Future<Page<R, K>> next(Reading<T, R, K> r, K after, List<R> kept, int scanned) {
    int hidden = scanned - kept.size();
    int count = Math.min(MAX_BATCH, Math.max(r.limit() - kept.size(), hidden));
    return r.rows().read(after, count).compose(batch -> r.keep().apply(batch).compose(shown -> {
      kept.addAll(shown);
      if (kept.size() >= r.limit()) {
        // a full page always has a next one, as a list with nothing hidden gives (it cannot know that the list ends
        // there without reading on): whether the last batch ended must not tell of hidden rows in it
        List<R> items = List.copyOf(kept.subList(0, r.limit()));
        return Future.succeededFuture(new Page<>(items, r.keptAt().apply(items.get(items.size() - 1))));
      }
      if (batch.size() < count) {
        return Future.succeededFuture(new Page<>(List.copyOf(kept), null));
      }
      K last = r.rowAt().apply(batch.get(batch.size() - 1));
      int read = scanned + batch.size();
      if (read >= r.maxScan()) {
        return Future.succeededFuture(new Page<>(List.copyOf(kept), last));
      }
      return next(r, last, kept, read);
    }));
  }
}
