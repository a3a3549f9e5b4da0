package io.kith.bench.scenario.relations;

/**
 * A reader paging down a long list with the {@code next_cursor} cursors the pages return, starting again at the top when
 * the list is exhausted, and knowing at every step which page (depth) it asks for, so each reply can be checked.
 *
 * <p>Requests are sent at a fixed rate, so one may be due before the previous page answered: it then asks for the
 * same page again (the cursor has not moved). A reply advances the walk only if it answers the page the walk is on,
 * so late replies to repeated requests never move it twice or backwards. Use it on one thread (the load runner's
 * event loop).
 */
final class FollowerWalk {

  /**
   * A page to ask for.
   *
   * @param cursor the cursor to send, or null for the first page
   * @param depth  the page's position in the list, 0 for the first page
   * @param lap    how many times the walk reached the end before this request
   */
  record Step(String cursor, long depth, long lap) {
  }

  private final long expectedPages;
  private String cursor;
  private long depth;
  private long lap;
  private long advances;
  private long deepest;
  private long repeats;
  private boolean outstanding;

  /**
   * @param expectedPages how many pages the list has, for the check that it did not end early (0: unknown)
   */
  FollowerWalk(long expectedPages) {
    this.expectedPages = expectedPages;
  }

  /** The page the next request asks for. */
  Step next() {
    if (outstanding) {
      repeats++;
    }
    outstanding = true;
    return new Step(cursor, depth, lap);
  }

  /**
   * Records the reply to {@code step}: its {@code next} cursor, null at the end of the list.
   *
   * @throws IllegalStateException when the list ended before {@code expectedPages} pages, or went on past them
   */
  void answered(Step step, String next) {
    if (expectedPages > 0) {
      boolean last = step.depth() == expectedPages - 1;
      if (next == null && !last) {
        throw new IllegalStateException("the list ended at page " + (step.depth() + 1) + " of " + expectedPages);
      }
      if (next != null && last) {
        throw new IllegalStateException("the list goes on past its expected " + expectedPages + " pages");
      }
    }
    if (step.lap() != lap || step.depth() != depth) {
      return; // a late reply to a page the walk has left
    }
    outstanding = false;
    advances++;
    if (next == null) {
      cursor = null;
      depth = 0;
      lap++;
    } else {
      cursor = next;
      depth++;
      deepest = Math.max(deepest, depth);
    }
  }

  /** Pages the walk moved past (each distinct page answered once counts once). */
  long advances() {
    return advances;
  }

  /** The deepest page reached, 0-based. */
  long deepest() {
    return deepest;
  }

  /** Times the walk reached the end of the list and started again at the top. */
  long laps() {
    return lap;
  }

  /** Requests sent for a page that was already being asked for (the previous reply had not come yet). */
  long repeats() {
    return repeats;
  }
}
