package io.kith.bench.jvm;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading a JVM's threads off /proc: names, CPU times, groups. */
class ThreadCpuTest {

  // a thread whose name holds a space and a parenthesis, as Java thread names may
  private static final String STAT = "4242 (hz.a) b.thre) S 1 4200 4200 0 -1 4194368 120 0 0 0 150 25 0 0 20 0 40 0 "
      + "12345 0 0";

  @Test
  @DisplayName("a stat line gives the thread's name between the outer parentheses and its user plus system time")
  void parse() {
    assertEquals("hz.a) b.thre", ThreadCpu.name(STAT));
    assertEquals(175 * 10_000_000L, ThreadCpu.cpuNanos(STAT));
  }

  @Test
  @DisplayName("threads are grouped by their native names: event loops, workers, Hazelcast, JIT, GC and VM, other")
  void groups() {
    assertEquals(ThreadCpu.EVENT_LOOPS, ThreadCpu.group("vert.x-eventloo"));
    assertEquals(ThreadCpu.WORKERS, ThreadCpu.group("vert.x-worker-t"));
    assertEquals(ThreadCpu.WORKERS, ThreadCpu.group("vert.x-internal"));
    assertEquals(ThreadCpu.HAZELCAST, ThreadCpu.group("hz.kith.cached."));
    assertEquals(ThreadCpu.JIT, ThreadCpu.group("C2 CompilerThre"));
    assertEquals(ThreadCpu.GC_VM, ThreadCpu.group("VM Thread"));
    assertEquals(ThreadCpu.OTHER, ThreadCpu.group("cluster-ClusterI"));
  }

  @Test
  @DisplayName("this JVM's own threads are read, and add up to no more than its CPU time")
  void ownThreads() {
    var groups = ThreadCpu.byGroup(ProcessHandle.current().pid());
    long total = ProcessCpu.now().jvmNanos();
    assertFalse(groups.isEmpty(), "threads read from /proc");
    // ticks round down per thread and ended threads are gone, so the groups never exceed the process's total
    assertTrue(groups.values().stream().mapToLong(Long::longValue).sum() <= total,
        groups + " over " + total);
  }
}
