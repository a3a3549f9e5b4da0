package io.kith.bench.client;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * A fixed set of connections, opened a few at a time and then used round-robin or by index: what the bridge client
 * and the echo client share, so that both baselines open and spread their load the same way.
 *
 * @param <C> the client's connection type
 */
final class ConnectionSet<C> {

  /** Connections being opened at once: thousands of simultaneous handshakes would overflow the listen backlog. */
  static final int OPEN_CONCURRENCY = 200;

  private final String notOpen;
  private List<C> connections = List.of();
  private int next;

  /** @param client how failures name the client ("the bridge client") */
  ConnectionSet(String client) {
    this.notOpen = client + " is not open";
  }

  /**
   * Opens {@code count} connections with {@code connect} (given each one's index), at most {@value #OPEN_CONCURRENCY}
   * at a time. When any fails, the ones that were opened are closed with {@code close} and the first failure is
   * returned.
   */
  @SuppressWarnings("unchecked")
  Future<Void> open(int count, IntFunction<Future<C>> connect, Consumer<C> close) {
    Object[] opened = new Object[count];
    AtomicInteger nextToOpen = new AtomicInteger();
    List<Future<Void>> lanes = new ArrayList<>();
    for (int lane = 0; lane < Math.min(OPEN_CONCURRENCY, count); lane++) {
      lanes.add(openNext(opened, nextToOpen, connect));
    }
    return Future.join(lanes)
        .<Void>map(done -> {
          List<C> all = new ArrayList<>(count);
          for (Object c : opened) {
            all.add((C) c);
          }
          connections = List.copyOf(all);
          return null;
        })
        .recover(failure -> {
          for (Object c : opened) {
            if (c != null) {
              close.accept((C) c);
            }
          }
          return Future.failedFuture(failure);
        });
  }

  /** Opens connections one after the other until none is left to open (one of several lanes opening at once). */
  private Future<Void> openNext(Object[] opened, AtomicInteger nextToOpen, IntFunction<Future<C>> connect) {
    int i = nextToOpen.getAndIncrement();
    if (i >= opened.length) {
      return Future.succeededFuture();
    }
    return connect.apply(i).compose(c -> {
      opened[i] = c;
      return openNext(opened, nextToOpen, connect);
    });
  }

  /** How many connections there are (once open). */
  int size() {
    return connections.size();
  }

  /** How many connections satisfy {@code test}. */
  int count(Predicate<C> test) {
    return (int) connections.stream().filter(test).count();
  }

  /** The next connection in turn, or a failure when the set is not open. */
  Future<C> next() {
    if (connections.isEmpty()) {
      return Future.failedFuture(notOpen);
    }
    C connection = connections.get(next);
    next = (next + 1) % connections.size();
    return Future.succeededFuture(connection);
  }

  /** Connection {@code index}, or a failure when the set is not open. */
  Future<C> get(int index) {
    if (connections.isEmpty()) {
      return Future.failedFuture(notOpen);
    }
    return Future.succeededFuture(connections.get(index));
  }

  /** Closes every connection with {@code close}. */
  void closeAll(Consumer<C> close) {
    connections.forEach(close);
  }
}
