package io.kith.feeds.service;

import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Supplier;

/**
 * Runs at most {@code workers} tasks at a time, the waiting one with the lowest key first. The fan-out uses it with
 * post ids as keys: its consumer takes more events from the stream than it fans out at once, and fans them out oldest
 * post first, so posts published at the same moment (whose events reach the stream in any order) mostly reach
 * followers' timelines in id order, where an insert is one push at the head instead of an insert in place.
 */
final class InTurn {

  private record Task(long key, long seq, Supplier<Future<?>> work, Promise<Void> done) {
  }

  private final int workers;
  private final PriorityQueue<Task> waiting = new PriorityQueue<>(
      Comparator.comparingLong(Task::key).thenComparingLong(Task::seq));
  private long seq;
  private int running;

  InTurn(int workers) {
    this.workers = Math.max(1, workers);
  }

  /** Runs {@code work} when a worker is free and no waiting task has a lower key; completes as it does. */
  Future<Void> run(long key, Supplier<Future<?>> work) {
    Promise<Void> done = Promise.promise();
    synchronized (this) {
      waiting.add(new Task(key, seq++, work, done));
    }
    startWhatFits();
    return done.future();
  }

  /** Tasks waiting for a worker. */
  synchronized int waiting() {
    return waiting.size();
  }

  private void startWhatFits() {
    List<Task> start = new ArrayList<>();
    synchronized (this) {
      while (running < workers && !waiting.isEmpty()) {
        start.add(waiting.poll());
        running++;
      }
    }
    start.forEach(this::start);
  }

  private void start(Task task) {
    Future<?> work;
    try {
      work = task.work().get();
    } catch (RuntimeException e) {
      work = Future.failedFuture(e);
    }
    work.onComplete(ar -> {
      synchronized (this) {
        running--;
      }
      if (ar.succeeded()) {
        task.done().complete();
      } else {
        task.done().fail(ar.cause());
      }
      startWhatFits();
    });
  }
}
