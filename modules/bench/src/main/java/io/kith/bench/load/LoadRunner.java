package io.kith.bench.load;

import io.kith.bench.jvm.KithCpu;
import io.kith.bench.report.OperationStats;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.HdrHistogram.Histogram;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives operations at a fixed rate (open loop) or as fast as a fixed concurrency allows (closed loop) and records
 * their latencies in HdrHistograms.
 *
 * <p>Open loop: the operations of a phase are interleaved on one schedule ({@link OpenLoopSchedule}) at
 * {@code rate × operations} requests per second, in rounds that hold each operation once, in an order shuffled per
 * round, so that each operation sees {@code rate} requests per second under the same conditions as the others and
 * none always goes first. An operation with a rate of its own ({@link Operation#rate()}, for a background load at
 * another pace) runs on a schedule of its own beside them, from the same start ({@link OpenLoopPlan}). A pacer
 * thread sleeps until the next intended time and wakes the runner's event loop, which sends whatever is due, including
 * a backlog after a pause (Vert.x timers tick in whole milliseconds, too coarse for sub-millisecond latencies); each
 * latency runs from the intended send time, not the actual one. The send lag (actual minus intended) is recorded
 * too, so a saturated generator is visible in the report.
 *
 * <p>Closed loop: {@code connections} requests are kept in flight, round-robin over the operations (their own rates
 * are ignored); latency runs from the actual send. This finds the maximum throughput but hides queueing delay, so it
 * is not what ratios should be taken from unless the report says so.
 *
 * <p>Kith's CPU ({@link KithCpu}) is sampled when the measured window starts and once the phase has drained; every
 * operation of the phase carries that CPU over the phase's correct answers ({@link OperationStats.Cpu}), and the
 * pacer thread is left out of it as part of the load generator.
 *
 * <p>Everything runs on one Vert.x context, which makes the histograms single-threaded. Clients used by the
 * operations should be created on the same context (the {@code ScenarioContext} does that); results delivered on
 * another thread are handed back to the context before they are recorded.
 */
public final class LoadRunner {

  /** Largest latency the histograms track; longer ones are recorded as this value. */
  static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);
  private static final int SIGNIFICANT_DIGITS = 3;
  private static final int MAX_ERROR_KINDS = 8;
  private static final long PROGRESS_MILLIS = 250;
  /** Period of the housekeeping timer: timeouts, the end of closed-loop phases, a backstop for the pacer. */
  private static final long SWEEP_MILLIS = 1;
  /** Seed of the per-round shuffles, fixed so that runs are repeatable. */
  private static final long SHUFFLE_SEED = 0x6b697468L;

  private final Vertx vertx;
  private final Context context;
  private final LoadSettings settings;
  private final ProgressListener progress;
  private final KithCpu cpu;

  /**
   * A runner that measures no CPU.
   *
   * @param vertx    the client-side Vert.x instance
   * @param context  the event-loop context the runner and the operations' clients run on
   * @param settings rate, durations, limits
   * @param progress receives progress snapshots
   */
  public LoadRunner(Vertx vertx, Context context, LoadSettings settings, ProgressListener progress) {
    this(vertx, context, settings, progress, KithCpu.none("not measured"));
  }

  /**
   * A runner that samples Kith's CPU around each measured window.
   *
   * @param cpu Kith's CPU as the run attributes it
   */
  public LoadRunner(Vertx vertx, Context context, LoadSettings settings, ProgressListener progress, KithCpu cpu) {
    this.vertx = vertx;
    this.context = context;
    this.settings = settings;
    this.progress = progress;
    this.cpu = cpu;
  }

  /** The settings every phase of this runner uses. */
  public LoadSettings settings() {
    return settings;
  }

  /**
   * A runner on the same Vert.x context, reporting to the same progress listener, with other settings: for a
   * scenario phase run differently from the command line's (a closed-loop throughput phase, a rate derived from an
   * earlier phase).
   */
  public LoadRunner with(LoadSettings other) {
    return new LoadRunner(vertx, context, other, progress, cpu);
  }

  /** Kith's CPU as this runner samples it. */
  public KithCpu cpu() {
    return cpu;
  }

  /**
   * Runs one phase: warm-up then measurement, all {@code operations} interleaved, and completes with one
   * {@link OperationStats} per operation in the same order once every request was answered or timed out.
   */
  public Future<List<OperationStats>> run(String phase, List<Operation> operations) {
    if (operations.isEmpty()) {
      return Future.failedFuture(new IllegalArgumentException("a phase needs at least one operation"));
    }
    Promise<List<OperationStats>> promise = Promise.promise();
    context.runOnContext(v -> new Phase(phase, List.copyOf(operations), promise).start());
    return promise.future();
  }

  static Histogram newHistogram() {
    return new Histogram(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
  }

  static void record(Histogram histogram, long nanos) {
    long micros = Math.max(0, nanos) / 1000;
    histogram.recordValue(Math.min(HIGHEST_MICROS, micros));
  }

  static String describe(Throwable failure) {
    String message = failure.getMessage();
    String text = message == null || message.isBlank() ? failure.getClass().getSimpleName() : message.strip();
    int nl = text.indexOf('\n');
    if (nl >= 0) {
      text = text.substring(0, nl);
    }
    return text.length() > 120 ? text.substring(0, 120) + "..." : text;
  }

  /** One request awaiting its response. */
  private static final class Pending {
    final int op;
    final long intendedNanos;
    final boolean warmup;
    boolean done;

    Pending(int op, long intendedNanos, boolean warmup) {
      this.op = op;
      this.intendedNanos = intendedNanos;
      this.warmup = warmup;
    }
  }

  /** Counters of one operation (recorded window only). */
  private static final class Tally {
    final Histogram latency = newHistogram();
    final Histogram lag = newHistogram();
    final Map<String, Long> errorKinds = new LinkedHashMap<>();
    long sent;
    long errors;
    long timeouts;
    long dropped;
    long lastCompletionNanos;

    void error(String kind) {
      errors++;
      String key = errorKinds.containsKey(kind) || errorKinds.size() < MAX_ERROR_KINDS ? kind : "other errors";
      errorKinds.merge(key, 1L, Long::sum);
    }
  }

  /** The state of one running phase; touched only on the runner's context. */
  private final class Phase {
    private final String name;
    private final List<Operation> operations;
    private final Promise<List<OperationStats>> promise;
    private final Tally[] tallies;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final long timeoutNanos = settings.timeout().toNanos();
    private OpenLoopPlan plan;
    private OpenLoopPlan.Cursor cursor;
    private long startNanos;
    private long measureStartNanos;
    private long endNanos;
    /** Closed loop: how many requests were issued, for the round-robin. */
    private long next;
    private long inFlight;
    private long sentAll;
    private long completedAll;
    private boolean sending = true;
    private boolean finished;
    private long tickTimer = -1;
    private long progressTimer = -1;
    private Thread pacer;
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    /** Kith's CPU when the measured window started; negative until then or when not measured. */
    private long cpuAtMeasureStart = -1;
    private boolean measuring;

    Phase(String name, List<Operation> operations, Promise<List<OperationStats>> promise) {
      this.name = name;
      this.operations = operations;
      this.promise = promise;
      this.tallies = new Tally[operations.size()];
      for (int i = 0; i < tallies.length; i++) {
        tallies[i] = new Tally();
      }
    }

    void start() {
      startNanos = System.nanoTime();
      long warmup = settings.warmup().toNanos();
      measureStartNanos = startNanos + warmup;
      endNanos = measureStartNanos + settings.duration().toNanos();
      if (!settings.closedLoop()) {
        double[] rates = new double[operations.size()];
        for (int i = 0; i < rates.length; i++) {
          rates[i] = offeredRate(operations.get(i));
        }
        plan = new OpenLoopPlan(startNanos, rates, warmup, settings.duration().toNanos());
        cursor = plan.cursor(SHUFFLE_SEED);
      }
      tickTimer = vertx.setPeriodic(SWEEP_MILLIS, id -> tick());
      if (plan != null) {
        pacer = new Thread(this::pace, "kith-bench-pacer");
        pacer.setDaemon(true);
        cpu.exclude(pacer);
        pacer.start();
      }
      if (progress != ProgressListener.NONE) {
        progressTimer = vertx.setPeriodic(PROGRESS_MILLIS, id -> progress.update(snapshot(System.nanoTime())));
      }
      if (settings.closedLoop()) {
        for (int i = 0; i < settings.connections(); i++) {
          issueClosed();
        }
      }
      tick();
    }

    /**
     * The pacer thread: sleeps until the next request is due and then asks the event loop to send what is due. While
     * one wake-up is pending no other is posted; the event loop clears the flag before it reads the clock, so a
     * request that falls due after that read always gets a wake-up of its own.
     */
    private void pace() {
      // The pacer's own cursor: the plan is immutable, cursors are not shared between threads.
      OpenLoopPlan.Cursor due = plan.cursor(SHUFFLE_SEED);
      while (!due.done() && !Thread.currentThread().isInterrupted()) {
        long wait = due.intendedNanos() - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
          continue;
        }
        if (wakeupPending.compareAndSet(false, true)) {
          context.runOnContext(v -> tick());
        }
        // The clock has passed the current request's time, so this consumes at least that one.
        due.skipDue(System.nanoTime());
      }
    }

    private void tick() {
      wakeupPending.set(false);
      if (finished) {
        return;
      }
      long now = System.nanoTime();
      if (!measuring && now >= measureStartNanos) {
        measuring = true;
        cpuAtMeasureStart = cpu.sample();
      }
      if (sending) {
        if (cursor != null) {
          // In intended-time order over all lanes, so that the pending queue stays sorted for the sweep.
          while (!cursor.done() && cursor.intendedNanos() <= now) {
            fire(cursor.operation(), cursor.intendedNanos(), cursor.warmup());
            cursor.advance();
          }
          sending = !cursor.done();
        } else if (now >= endNanos) {
          sending = false;
        }
      }
      sweep(System.nanoTime());
      finishIfDrained();
    }

    private void fire(int op, long intendedNanos, boolean warmup) {
      if (inFlight >= settings.maxInFlight()) {
        if (!warmup) {
          tallies[op].dropped++;
        }
        return;
      }
      send(op, intendedNanos, warmup);
    }

    /** Requests per second offered to {@code op} in open loop; NaN in closed loop, where no rate is offered. */
    private double offeredRate(Operation op) {
      if (settings.closedLoop()) {
        return Double.NaN;
      }
      return op.rate() > 0 ? op.rate() : settings.rate();
    }

    private void issueClosed() {
      if (!sending || finished) {
        return;
      }
      long now = System.nanoTime();
      if (now >= endNanos) {
        sending = false;
        return;
      }
      int op = (int) (next++ % operations.size());
      send(op, now, now < measureStartNanos);
    }

    private void send(int op, long intendedNanos, boolean warmup) {
      Pending request = new Pending(op, intendedNanos, warmup);
      pending.addLast(request);
      inFlight++;
      sentAll++;
      if (!warmup) {
        Tally tally = tallies[op];
        tally.sent++;
        record(tally.lag, System.nanoTime() - intendedNanos);
      }
      Future<?> response;
      try {
        response = operations.get(op).call().get();
        if (response == null) {
          response = Future.failedFuture("the operation returned no future");
        }
      } catch (RuntimeException e) {
        response = Future.failedFuture(e);
      }
      response.onComplete(ar -> {
        if (Vertx.currentContext() == context) {
          complete(request, ar);
        } else {
          context.runOnContext(v -> complete(request, ar));
        }
      });
    }

    private void complete(Pending request, AsyncResult<?> result) {
      if (request.done) {
        return; // already counted as a timeout
      }
      long now = System.nanoTime();
      request.done = true;
      inFlight--;
      completedAll++;
      if (!request.warmup) {
        Tally tally = tallies[request.op];
        if (result.succeeded()) {
          record(tally.latency, now - request.intendedNanos);
        } else {
          tally.error(describe(result.cause()));
        }
        tally.lastCompletionNanos = now;
      }
      if (settings.closedLoop()) {
        // Through the context, so that operations failing synchronously cannot recurse without bound.
        context.runOnContext(v -> issueClosed());
      }
      finishIfDrained();
    }

    /** Requests are queued in intended-time order, so the expired ones are at the head. */
    private void sweep(long now) {
      while (!pending.isEmpty()) {
        Pending head = pending.peekFirst();
        if (head.done) {
          pending.pollFirst();
        } else if (now - head.intendedNanos >= timeoutNanos) {
          pending.pollFirst();
          head.done = true;
          inFlight--;
          if (!head.warmup) {
            tallies[head.op].timeouts++;
          }
          if (settings.closedLoop()) {
            issueClosed();
          }
        } else {
          return;
        }
      }
    }

    private void finishIfDrained() {
      if (finished || sending || inFlight > 0) {
        return;
      }
      finished = true;
      long cpuAtEnd = cpuAtMeasureStart < 0 ? -1 : cpu.sample();
      if (pacer != null) {
        pacer.interrupt();
      }
      vertx.cancelTimer(tickTimer);
      if (progressTimer >= 0) {
        vertx.cancelTimer(progressTimer);
      }
      progress.finished(snapshot(System.nanoTime()));
      List<OperationStats> stats = new ArrayList<>(operations.size());
      for (int i = 0; i < operations.size(); i++) {
        Operation op = operations.get(i);
        Tally t = tallies[i];
        long window = Math.max(endNanos, t.lastCompletionNanos) - measureStartNanos;
        stats.add(new OperationStats(op.name(), op.description(), t.sent, t.errors, t.timeouts, t.dropped,
            t.errorKinds, t.latency, t.lag, window, offeredRate(op)));
      }
      promise.complete(withCpu(stats, cpuAtEnd));
    }

    /** The stats with the phase's CPU over its correct answers, one instance for all; as they are when unmeasured. */
    private List<OperationStats> withCpu(List<OperationStats> stats, long cpuAtEnd) {
      if (cpuAtEnd < 0 || cpuAtMeasureStart < 0) {
        return stats;
      }
      long answered = stats.stream().mapToLong(OperationStats::ok).sum();
      OperationStats.Cpu shared = new OperationStats.Cpu(Math.max(0, cpuAtEnd - cpuAtMeasureStart), answered,
          stats.stream().map(OperationStats::name).toList());
      return stats.stream().map(s -> s.withCpu(shared)).toList();
    }

    private ProgressListener.Snapshot snapshot(long now) {
      long failed = 0;
      for (Tally t : tallies) {
        failed += t.errors + t.timeouts + t.dropped;
      }
      return new ProgressListener.Snapshot(name, now - startNanos, endNanos - startNanos, now < measureStartNanos,
          sentAll, completedAll, failed, inFlight);
    }
  }
}
