package io.kith.platform.page;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Reads a page of a newest-first list whose stored rows the reader may not all see (rows of users in a block with
 * the reader, say), so that neither the page nor its cursor tells of a hidden row.
 *
 * <p>Rows are read in batches older than a cursor and passed through a filter that keeps (and may turn into views)
 * those the reader may see; batches follow until {@code limit} rows are kept or the list ends. The cursor to the next
 * page is the id of the last row kept, never of a hidden one; a full page has one and a shorter page (the list ended)
 * none, just as for a list that hides nothing. So a page whose hidden rows were left out looks exactly like a page
 * of the list without them (a cursor at a hidden row would show that something lies between the last row shown and
 * the cursor). A batch after a hidden row asks for at least as many rows as were hidden so far, so many hidden rows
 * cost few reads; reading stops after {@code maxScan} rows, and only then the cursor is the last row read (hidden or
 * not), so that the next page moves on.
 */
public final class VisiblePages {

  /** Most rows one batch reads. */
  static final int MAX_BATCH = 1_000;

  private VisiblePages() {
  }

  /** Reads up to {@code count} stored rows older than {@code before} (0: from the newest), newest first. */
  @FunctionalInterface
  public interface Rows<T> {
    /** The rows, newest first; fewer than {@code count} only at the end of the list. */
    Future<List<T>> read(long before, int count);
  }

  /**
   * A page: the rows kept (at most the limit, newest first) and the cursor to the next page ({@code next}, the id to
   * read older than) or 0 at the end.
   */
  public record Page<R>(List<R> items, long next) {
  }

  /**
   * Reads one page.
   *
   * @param rows    the stored list
   * @param keep    the rows the reader may see among a batch, in the batch's order (as they are or as views)
   * @param rowId   a stored row's id (the list's order, newest first)
   * @param keptId  a kept row's id, equal to the id of the stored row it came from
   * @param before  read older than this id (0: from the newest)
   * @param limit   most rows kept, at least 1
   * @param maxScan most rows read for one page, at least {@code limit}
   */
  public static <T, R> Future<Page<R>> read(Rows<T> rows, Function<List<T>, Future<List<R>>> keep,
                                            ToLongFunction<T> rowId, ToLongFunction<R> keptId, long before,
                                            int limit, int maxScan) {
    return next(new Reading<>(rows, keep, rowId, keptId, limit, Math.max(limit, maxScan)), before, new ArrayList<>(), 0);
  }

  private record Reading<T, R>(Rows<T> rows, Function<List<T>, Future<List<R>>> keep, ToLongFunction<T> rowId,
                               ToLongFunction<R> keptId, int limit, int maxScan) {
  }

  private static <T, R> Future<Page<R>> next(Reading<T, R> r, long before, List<R> kept, int scanned) {
    int hidden = scanned - kept.size();
    int count = Math.min(MAX_BATCH, Math.max(r.limit() - kept.size(), hidden));
    return r.rows().read(before, count).compose(batch -> r.keep().apply(batch).compose(shown -> {
      kept.addAll(shown);
      boolean ended = batch.size() < count;
      int read = scanned + batch.size();
      if (kept.size() >= r.limit()) {
        // a full page always has a next one, as a list with nothing hidden gives (it cannot know that the list ends
        // there without reading on): whether the last batch ended must not tell of hidden rows in it
        List<R> items = List.copyOf(kept.subList(0, r.limit()));
        return Future.succeededFuture(new Page<>(items, r.keptId().applyAsLong(items.get(items.size() - 1))));
      }
      if (ended || batch.isEmpty()) {
        return Future.succeededFuture(new Page<>(List.copyOf(kept), 0));
      }
      long last = r.rowId().applyAsLong(batch.get(batch.size() - 1));
      if (read >= r.maxScan()) {
        return Future.succeededFuture(new Page<>(List.copyOf(kept), last));
      }
      return next(r, last, kept, read);
    }));
  }
}
