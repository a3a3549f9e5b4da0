package io.kith.gateway.bridge;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;

import java.time.Duration;

/**
 * Notices that this process stood still (SIGSTOP then SIGCONT, a VM frozen, a very long GC pause): a timer that
 * should tick every second finds, on the monotonic clock, that much more time passed. The pauses noticed add up to a
 * total that only grows; a bridge connection remembers the total at its last inbound frame, so the guard can tell an
 * idle-looking connection whose node was paused since (its client's pings are most likely waiting unread in the
 * socket) from one whose client went away. One clock per Vert.x instance: a pause stops every event loop at once.
 */
public final class PauseClock implements Shareable {

  private static final String MAP = "kith.gateway.pause-clock";
  private static final long TICK_MS = 1_000;
  /** A tick this much later than due is a pause, not a busy event loop. */
  private static final long SLACK_NANOS = Duration.ofSeconds(4).toNanos();

  private long lastTick = System.nanoTime();
  private long paused;

  private PauseClock() {
  }

  /** The clock of {@code vertx}, started on first use. */
  public static PauseClock of(Vertx vertx) {
    LocalMap<String, PauseClock> map = vertx.sharedData().getLocalMap(MAP);
    PauseClock fresh = new PauseClock();
    PauseClock existing = map.putIfAbsent("clock", fresh);
    if (existing != null) {
      return existing;
    }
    vertx.setPeriodic(TICK_MS, id -> fresh.pausedNanos());
    return fresh;
  }

  /**
   * The total of the pauses noticed so far, in nanoseconds, counting one that is ending right now (the caller may run
   * before the tick that would notice it: after SIGCONT every overdue timer fires in no particular order).
   */
  public synchronized long pausedNanos() {
    long now = System.nanoTime();
    long gap = now - lastTick;
    if (gap > Duration.ofMillis(TICK_MS).toNanos() + SLACK_NANOS) {
      paused += gap - Duration.ofMillis(TICK_MS).toNanos();
    }
    lastTick = now;
    return paused;
  }

  /** Records a pause noticed some other way; tests use it to simulate one. */
  public synchronized void paused(Duration pause) {
    paused += pause.toNanos();
  }
}
