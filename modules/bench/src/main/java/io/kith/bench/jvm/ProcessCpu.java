package io.kith.bench.jvm;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * CPU time used by this process and the processes it started (the in-process Kith's embedded Redis server), read at
 * one instant: the difference of two samples divided by the work done in between is a cost per operation that
 * depends far less on what else the machine runs than a throughput does.
 *
 * @param wallNanos     {@link System#nanoTime()} of the sample
 * @param jvmNanos      CPU time of this JVM, all threads (JIT and GC included)
 * @param childrenNanos CPU time of the live descendant processes; 0 where the OS does not say
 */
public record ProcessCpu(long wallNanos, long jvmNanos, long childrenNanos) {

  /** Samples now. */
  public static ProcessCpu now() {
    long jvm = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : -1;
    long children = ProcessHandle.current().descendants()
        .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
    return new ProcessCpu(System.nanoTime(), jvm, children);
  }

  /** CPU nanoseconds (JVM and children) from {@code earlier} to this sample. */
  public long cpuSince(ProcessCpu earlier) {
    return (jvmNanos - earlier.jvmNanos) + Math.max(0, childrenNanos - earlier.childrenNanos);
  }

  /** Milliseconds of CPU per operation from {@code earlier} to this sample; NaN without operations or CPU data. */
  public double millisPerOperation(ProcessCpu earlier, long operations) {
    if (operations <= 0 || jvmNanos < 0 || earlier.jvmNanos < 0) {
      return Double.NaN;
    }
    return cpuSince(earlier) / 1e6 / operations;
  }

  /**
   * The share of the machine's CPUs these processes used from {@code earlier} to this sample: 1.0 is every core
   * busy with them all along; well below 1.0 while they are saturated means something else had the cores.
   */
  public double machineShare(ProcessCpu earlier, int cpus) {
    long wall = wallNanos - earlier.wallNanos;
    if (wall <= 0 || cpus <= 0 || jvmNanos < 0 || earlier.jvmNanos < 0) {
      return Double.NaN;
    }
    return (double) cpuSince(earlier) / wall / cpus;
  }
}
