package io.kith.bench.jvm;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The used heap of this JVM after full collections, and what a number of connections adds to it.
 *
 * <p>{@link System#gc()} runs a full, stop-the-world collection with the JVM's default collectors (G1, Serial,
 * Parallel; not with {@code -XX:+ExplicitGCInvokesConcurrent} or {@code -XX:+DisableExplicitGC}, which the bench
 * does not set). One collection can leave objects whose finalization or reference processing frees more in the
 * next, so it collects until two readings agree.
 */
public final class Heap {

  /** Readings closer than this share of the heap are taken as settled. */
  static final double SETTLED_SHARE = 0.005;
  private static final int MAX_COLLECTIONS = 6;

  private Heap() {
  }

  /** Used heap in bytes after full collections, once two consecutive readings agree (blocks for a while). */
  public static long usedAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long previous = -1;
    long used = 0;
    for (int i = 0; i < MAX_COLLECTIONS; i++) {
      System.gc();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      used = memory.getHeapMemoryUsage().getUsed();
      if (previous >= 0 && settled(previous, used)) {
        break;
      }
      previous = used;
    }
    return used;
  }

  /** Whether two used-heap readings agree within {@link #SETTLED_SHARE} of the larger one. */
  static boolean settled(long previous, long current) {
    return Math.abs(current - previous) <= SETTLED_SHARE * Math.max(previous, current);
  }

  /**
   * Bytes per connection: the growth of the used heap from {@code before} to {@code after} (both after GC) divided
   * by the number of connections opened in between. NaN without connections. Negative when the heap shrank (noise
   * larger than what was measured).
   */
  public static double perConnection(long before, long after, int connections) {
    return connections <= 0 ? Double.NaN : (double) (after - before) / connections;
  }
}
