package io.kith.feeds.service;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fan-out's gate: at most N tasks at a time, the lowest waiting key first, failures passed on. */
class InTurnTest {

  /** Tasks that finish when the test says so. */
  private final Map<Long, Promise<Void>> open = new HashMap<>();
  private final List<Long> started = new ArrayList<>();

  private Future<Void> task(InTurn gate, long key) {
    return gate.run(key, () -> {
      started.add(key);
      Promise<Void> p = Promise.promise();
      open.put(key, p);
      return p.future();
    });
  }

  @Test
  @DisplayName("runs at most the number of workers at once, then the waiting tasks lowest key first")
  void lowestFirst() {
    InTurn gate = new InTurn(2);
    List<Future<Void>> done = new ArrayList<>();
    for (long key : List.of(50L, 40L, 30L, 10L, 20L)) {
      done.add(task(gate, key));
    }
    assertEquals(List.of(50L, 40L), started, "the first two start at once, in arrival order");
    assertEquals(3, gate.waiting());
    open.get(40L).complete();
    assertEquals(List.of(50L, 40L, 10L), started);
    assertTrue(done.get(1).succeeded());
    task(gate, 5L);
    open.get(50L).complete();
    assertEquals(List.of(50L, 40L, 10L, 5L), started, "a lower key that came later still goes first");
    open.get(10L).complete();
    open.get(5L).complete();
    assertEquals(List.of(50L, 40L, 10L, 5L, 20L, 30L), started);
    open.get(20L).complete();
    open.get(30L).complete();
    assertEquals(0, gate.waiting());
    done.forEach(f -> assertTrue(f.succeeded()));
  }

  @Test
  @DisplayName("a failed or throwing task fails its own future and frees its worker")
  void failures() {
    InTurn gate = new InTurn(1);
    Future<Void> throwing = gate.run(1, () -> {
      throw new IllegalStateException("boom");
    });
    Future<Void> failing = gate.run(2, () -> Future.failedFuture(new IllegalArgumentException("bad")));
    Future<Void> fine = task(gate, 3);
    assertTrue(throwing.failed());
    assertEquals("boom", throwing.cause().getMessage());
    assertTrue(failing.failed());
    assertEquals("bad", failing.cause().getMessage());
    assertEquals(List.of(3L), started, "the worker was freed each time");
    open.get(3L).complete();
    assertTrue(fine.succeeded());
  }
}
