package io.kith.bench.scenario.push;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pushes a local provider endpoint received, by device token, checked against the tokens that should have been
 * pushed to: how many arrived, how many distinct expected tokens, how many were repeats (a token pushed twice) or
 * strangers (a token nobody expected), and when the latest arrived. Safe to feed from the endpoint's I/O threads.
 */
public final class PushTally {

  private final Set<String> expected;
  /** The first arrival of each expected token pushed so far. */
  private final Map<String, Long> firstArrival = new ConcurrentHashMap<>();
  private final AtomicInteger received = new AtomicInteger();
  private final AtomicInteger duplicates = new AtomicInteger();
  private final AtomicInteger strangers = new AtomicInteger();
  private final AtomicLong lastNanos = new AtomicLong();

  /** @param expected the tokens one push each should reach (lower-case hex, as Kith sends them) */
  public PushTally(Set<String> expected) {
    this.expected = Set.copyOf(expected);
  }

  /** Records a push to {@code token} that arrived at {@code nanos} ({@link System#nanoTime()}). */
  public void arrived(String token, long nanos) {
    received.incrementAndGet();
    lastNanos.accumulateAndGet(nanos, Math::max);
    if (!expected.contains(token)) {
      strangers.incrementAndGet();
    } else if (firstArrival.putIfAbsent(token, nanos) != null) {
      duplicates.incrementAndGet();
    }
  }

  /** Every push received, repeats and strangers included. */
  public int received() {
    return received.get();
  }

  /** Expected tokens pushed at least once. */
  public int delivered() {
    return firstArrival.size();
  }

  /** Expected tokens not pushed (yet). */
  public int lost() {
    return expected.size() - firstArrival.size();
  }

  /** Pushes to an expected token beyond its first. */
  public int duplicates() {
    return duplicates.get();
  }

  /** Pushes to a token that was not expected. */
  public int strangers() {
    return strangers.get();
  }

  /** Whether every expected token has been pushed. */
  public boolean complete() {
    return lost() == 0;
  }

  /** {@link System#nanoTime()} of the latest push, 0 before the first. */
  public long lastNanos() {
    return lastNanos.get();
  }

  /** {@link System#nanoTime()} of each expected token's first push, in no order. */
  public Collection<Long> arrivals() {
    return List.copyOf(firstArrival.values());
  }

  /** Pushes per second from {@code startNanos} to the latest push; NaN before any push. */
  public double perSecond(long startNanos) {
    long span = lastNanos.get() - startNanos;
    return received.get() == 0 || span <= 0 ? Double.NaN : delivered() * 1e9 / span;
  }
}
