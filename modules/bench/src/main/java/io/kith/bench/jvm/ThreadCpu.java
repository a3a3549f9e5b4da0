package io.kith.bench.jvm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of another JVM's threads by what they do, read from {@code /proc/<pid>/task/<tid>/stat} (Linux only):
 * which share of a Kith node's CPU its event loops, its worker pool, Hazelcast, the JIT and the garbage collector
 * take. A JVM names its native threads after the Java ones (cut to 15 characters), which is what the groups go by.
 * Threads that ended are not counted, so the groups add up to a little less than the process's CPU time.
 */
public final class ThreadCpu {

  /** Event loops: HTTP, event bus (local and between nodes), Redis and MongoDB clients' I/O. */
  public static final String EVENT_LOOPS = "event loops";
  /** Vert.x worker and internal blocking pools (password hashing, blocking store calls). */
  public static final String WORKERS = "workers";
  /** Hazelcast's own threads (membership, heartbeats, partitions, the subscription map behind the event bus). */
  public static final String HAZELCAST = "hazelcast";
  /** The JIT compilers. */
  public static final String JIT = "jit";
  /** The garbage collector and the VM thread (safepoints; the serial collector runs on it). */
  public static final String GC_VM = "gc+vm";
  /** Everything else (the MongoDB driver's threads, timers, JMX...). */
  public static final String OTHER = "other";

  /** Linux's USER_HZ, the unit of the times in /proc/.../stat: 100 on every architecture Java runs on. */
  private static final long TICK_NANOS = 10_000_000L;

  private ThreadCpu() {
  }

  /** CPU nanoseconds of process {@code pid}'s live threads by group; empty where /proc cannot be read. */
  public static Map<String, Long> byGroup(long pid) {
    Map<String, Long> groups = new TreeMap<>();
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        String stat;
        try {
          stat = Files.readString(thread.resolve("stat"));
        } catch (IOException ended) {
          continue;
        }
        groups.merge(group(name(stat)), cpuNanos(stat), Long::sum);
      }
    } catch (IOException | UnsupportedOperationException noProc) {
      return Map.of();
    }
    return groups;
  }

  /** The thread name in a {@code stat} line: between the first '(' and the last ')' (it may hold either). */
  static String name(String stat) {
    return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }

  /** User plus system time of a {@code stat} line (fields 14 and 15), in nanoseconds. */
  static long cpuNanos(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
    // fields[0] is field 3 (the state), so utime (14) and stime (15) are at 11 and 12
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * TICK_NANOS;
  }

  /** The group of a native thread name (a Java thread name cut to 15 characters). */
  static String group(String name) {
    if (name.startsWith("vert.x-eventloo") || name.startsWith("vert.x-acceptor")) {
      return EVENT_LOOPS;
    }
    if (name.startsWith("vert.x-worker") || name.startsWith("vert.x-internal") || name.startsWith("vert.x-virtual")) {
      return WORKERS;
    }
    if (name.startsWith("hz.")) {
      return HAZELCAST;
    }
    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
      return JIT;
    }
    if (name.startsWith("GC ") || name.equals("VM Thread") || name.startsWith("G1 ")) {
      return GC_VM;
    }
    return OTHER;
  }
}
