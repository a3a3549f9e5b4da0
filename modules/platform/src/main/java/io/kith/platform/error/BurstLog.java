package io.kith.platform.error;

import org.slf4j.Logger;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A warning log for failures that come in bursts (a store that is down fails every request): at most one line per
 * kind per period, which says how many of that kind were left out since the last line. An outage then costs a few
 * lines instead of tens of thousands, which would themselves slow the node that is already overloaded.
 */
public final class BurstLog {

  private final Logger log;
  private final long periodMillis;
  private final LongSupplier clock;
  private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

  private static final class Window {
    final AtomicLong nextAt = new AtomicLong();
    final AtomicLong suppressed = new AtomicLong();
  }

  /** A burst log writing to {@code log}, one line per kind per {@code periodMillis}. */
  public BurstLog(Logger log, long periodMillis) {
    this(log, periodMillis, System::currentTimeMillis);
  }

  // tests move the clock themselves
  BurstLog(Logger log, long periodMillis, LongSupplier clock) {
    this.log = log;
    this.periodMillis = periodMillis;
    this.clock = clock;
  }

  /**
   * Logs {@code message} (with {@code {}} placeholders filled from {@code args}) at WARN unless a line of
   * {@code kind} was written within the period; returns whether it was written.
   */
  public boolean warn(String kind, String message, Object... args) {
    Window w = windows.computeIfAbsent(kind, k -> new Window());
    long now = clock.getAsLong();
    long next = w.nextAt.get();
    if (now < next || !w.nextAt.compareAndSet(next, now + periodMillis)) {
      w.suppressed.incrementAndGet();
      return false;
    }
    long left = w.suppressed.getAndSet(0);
    if (log.isWarnEnabled()) {
      String line = left == 0 ? message : message + " (" + left + " more like it since the last line)";
      log.warn(line, args);
    }
    return true;
  }
}
