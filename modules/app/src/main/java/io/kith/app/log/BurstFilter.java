package io.kith.app.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Lets through at most one WARN or ERROR line per logger every {@code periodMillis} for the loggers under
 * {@code prefix}, and says how many it left out when it lets the next one through. Meant for libraries that log a
 * client's mistake once per frame or request (vertx-web's SockJS bridge logs an ERROR for every frame of an unknown
 * type, before Kith's bridge guard sees it): one client must not be able to fill the log. Kith's own code logs such
 * mistakes once per connection itself; lines below WARN and other loggers pass untouched.
 *
 * <p>Configured in {@code logback.xml}: {@code <turboFilter class="io.kith.app.log.BurstFilter"><prefix>...</prefix>
 * </turboFilter>}.
 */
public final class BurstFilter extends TurboFilter {

  private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
  private final ThreadLocal<Boolean> reporting = ThreadLocal.withInitial(() -> false);
  private String prefix = "io.vertx.ext.web.handler.sockjs";
  private long periodMillis = 10_000;
  private LongSupplier clock = System::currentTimeMillis;

  /** One logger's current period: when it began and the lines left out since the last one let through. */
  private static final class Window {
    volatile long start = Long.MIN_VALUE;
    final AtomicLong suppressed = new AtomicLong();
  }

  /** The logger-name prefix whose lines are limited. */
  public void setPrefix(String prefix) {
    this.prefix = prefix;
  }

  /** The period, in milliseconds, in which at most one line per logger passes. */
  public void setPeriodMillis(long periodMillis) {
    this.periodMillis = periodMillis;
  }

  /** The clock the periods are measured with (tests move it by hand). */
  void setClock(LongSupplier clock) {
    this.clock = clock;
  }

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (level == null || !level.isGreaterOrEqual(Level.WARN) || !logger.getName().startsWith(prefix)
        || reporting.get()) {
      return FilterReply.NEUTRAL;
    }
    Window window = windows.computeIfAbsent(logger.getName(), name -> new Window());
    long now = clock.getAsLong();
    synchronized (window) {
      if (window.start != Long.MIN_VALUE && now - window.start < periodMillis) {
        window.suppressed.incrementAndGet();
        return FilterReply.DENY;
      }
      window.start = now;
    }
    long left = window.suppressed.getAndSet(0);
    if (left > 0) {
      reporting.set(true);
      try {
        logger.warn("{} more lines of this logger left out in the last {} s (at most one per {} s)", left,
            Math.max(1, periodMillis / 1000), Math.max(1, periodMillis / 1000));
      } finally {
        reporting.set(false);
      }
    }
    return FilterReply.NEUTRAL;
  }
}
