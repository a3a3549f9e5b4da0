package io.kith.bench.jvm;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CPU time Kith's processes have used so far, as the bench attributes it; the difference of two samples over the
 * requests answered in between is Kith's CPU per request, the figure that decides capacity and moves far less with the
 * machine's other load than a throughput does.
 *
 * <p>Three ways to count, one per kind of run:
 * <ul>
 *   <li>{@link #inProcess}: this JVM and its descendant processes (the embedded Redis server, or the Kith nodes a
 *   scenario starts) minus the threads of the load generator: the bench's own Vert.x event loops (its clients and
 *   baseline servers) and the pacer threads the runner {@linkplain #exclude registers}. The JIT and the garbage
 *   collector serve both sides and stay with Kith, so the figure is a little high, never low.</li>
 *   <li>{@link #processTree}: a Kith running on this machine outside the bench (its pid, and its descendants).</li>
 *   <li>{@link #none}: a remote Kith; nothing is measured, and the report says why.</li>
 * </ul>
 */
public final class KithCpu {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final String attribution;
  private final Sampler sampler;
  /** Excluded threads with the CPU last read of each, so a thread that ended keeps its share excluded. */
  private final Map<Thread, Long> excluded = new ConcurrentHashMap<>();

  private interface Sampler {
    long cpuNanos();
  }

  private KithCpu(String attribution, Sampler sampler) {
    this.attribution = attribution;
    this.sampler = sampler;
  }

  /**
   * Kith inside this JVM: the JVM and its descendants, minus the threads of {@code generator}'s event loops (they
   * are started here, so that they exist to be counted) and whatever else is {@linkplain #exclude excluded}.
   */
  public static KithCpu inProcess(Vertx generator) {
    KithCpu cpu = new KithCpu("this JVM (in-process Kith, its embedded MongoDB-wire server, JIT and GC) and its "
        + "child processes (embedded Redis, Kith nodes), minus the load generator's threads (the bench's event "
        + "loops and pacers)", () -> {
          ProcessCpu now = ProcessCpu.now();
          return now.jvmNanos() < 0 ? -1 : now.jvmNanos() + now.childrenNanos();
        });
    if (generator instanceof VertxInternal internal && THREADS.isThreadCpuTimeSupported()) {
      // Vert.x names every instance's event loops alike, so the generator's are told apart by running on each.
      for (EventExecutor loop : internal.nettyEventLoopGroup()) {
        loop.execute(() -> cpu.exclude(Thread.currentThread()));
      }
    }
    return cpu;
  }

  /** A Kith process on this machine, {@code pid}, with its descendants. */
  public static KithCpu processTree(long pid) {
    return new KithCpu("process " + pid + " and its descendants", () -> {
      var process = ProcessHandle.of(pid);
      if (process.isEmpty()) {
        return -1;
      }
      long own = process.get().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
      if (own < 0) {
        return -1;
      }
      return own + process.get().descendants()
          .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
    });
  }

  /** Nothing measured, for the reason given (the report prints it). */
  public static KithCpu none(String why) {
    return new KithCpu(why, () -> -1);
  }

  /** Whether samples carry a value. */
  public boolean measures() {
    return sampler.cpuNanos() >= 0;
  }

  /** What the samples count, or why they count nothing. */
  public String attribution() {
    return attribution;
  }

  /** Leaves {@code thread}'s CPU out of Kith's from now on (a thread of the load generator or a stand-in). */
  public void exclude(Thread thread) {
    excluded.putIfAbsent(thread, Math.max(0, THREADS.getThreadCpuTime(thread.getId())));
  }

  /** Kith's CPU nanoseconds so far; negative when not measured. */
  public long sample() {
    long total = sampler.cpuNanos();
    if (total < 0) {
      return -1;
    }
    long generator = 0;
    for (Map.Entry<Thread, Long> e : excluded.entrySet()) {
      long now = THREADS.getThreadCpuTime(e.getKey().getId());
      if (now >= 0) {
        e.setValue(now);
      }
      generator += e.getValue();
    }
    return Math.max(0, total - generator);
  }
}
