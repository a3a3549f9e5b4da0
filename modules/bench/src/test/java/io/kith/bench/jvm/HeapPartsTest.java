package io.kith.bench.jvm;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The heap and CPU maths, the open-file limit, class histograms and the client JVM's command line and answers. */
class HeapPartsTest {

  private static final String LIMITS = """
      Limit                     Soft Limit           Hard Limit           Units
      Max cpu time              unlimited            unlimited            seconds
      Max file size             unlimited            unlimited            bytes
      Max processes             95548                95548                processes
      Max open files            1024                 524288               files
      Max locked memory         8388608              8388608              bytes
      """;

  @Test
  @DisplayName("bytes per connection are the growth over the connections; none is n/a, a shrink is negative")
  void perConnection() {
    assertEquals(2048.0, Heap.perConnection(1_000_000, 1_000_000 + 2048 * 5000, 5000));
    assertEquals(-1.0, Heap.perConnection(1000, 990, 10));
    assertTrue(Double.isNaN(Heap.perConnection(1, 2, 0)));
    assertTrue(Heap.settled(1_000_000, 1_004_000));
    assertFalse(Heap.settled(1_000_000, 1_006_000));
  }

  @Test
  @DisplayName("the open-file limit is read from /proc/<pid>/limits, and too low a limit says how to raise it")
  void openFileLimit() {
    OpenFileLimit limit = OpenFileLimit.parse(LIMITS).orElseThrow();
    assertEquals(new OpenFileLimit(1024, 524_288), limit);
    assertFalse(limit.allows(5000));
    assertTrue(new OpenFileLimit(6024, 6024).allows(5000));
    assertFalse(new OpenFileLimit(6023, 6023).allows(5000));
    assertEquals("5000 connections need about 6024 open files in each process (server and client), but the limit "
        + "is 1024; raise it in the shell that starts the bench: ulimit -n 6024", limit.advice(5000));
    assertTrue(new OpenFileLimit(1024, 4096).advice(5000).contains("the hard limit is 4096: raise it first"));
    assertEquals(Optional.of(new OpenFileLimit(Long.MAX_VALUE, Long.MAX_VALUE)),
        OpenFileLimit.parse("Max open files            unlimited            unlimited            files\n"));
    assertEquals(Optional.empty(), OpenFileLimit.parse("Max processes 1 1 processes\n"));
  }

  @Test
  @DisplayName("the client JVM runs this JVM's java on the same class path, and its numeric answers are checked")
  void clientProcess() {
    assertEquals(List.of("/opt/jdk/bin/java", "-cp", "a.jar:b.jar", IdleClients.class.getName(), "127.0.0.1", "8080",
        "5000"), IdleClientsProcess.command("/opt/jdk", "a.jar:b.jar", "127.0.0.1", 8080, 5000));
    assertEquals(123_456L, IdleClientsProcess.number("heap 123456", "heap"));
    assertThrows(IllegalStateException.class, () -> IdleClientsProcess.number("open 12", "heap"));
    assertThrows(IllegalStateException.class, () -> IdleClientsProcess.number("heap lots", "heap"));
    assertThrows(IllegalStateException.class, () -> IdleClientsProcess.number("heap 1 2", "heap"));
  }

  @Test
  @DisplayName("a class histogram is read from GC.class_histogram and its growth is given per connection, largest first")
  void classHistogram() {
    ClassHistogram before = ClassHistogram.parse("""
         num     #instances         #bytes  class name (module)
        -------------------------------------------------------
           1:          1000          64000  [B (java.base@17.0.15)
           2:           500          12000  java.lang.String (java.base@17.0.15)
           3:            10            480  io.vertx.core.impl.Foo
        Total          1510          76480
        """);
    ClassHistogram after = ClassHistogram.parse("""
           1:          3000         264000  [B (java.base@17.0.15)
           2:           700          16800  java.lang.String (java.base@17.0.15)
           3:             5            240  io.vertx.core.impl.Foo
           4:           100           4000  [Ljava.lang.Object; (java.base@17.0.15)
           5:           100           1000  [Ljava.lang.Object; (java.base@17.0.15)
        Total          3905         286040
        """);
    assertEquals(new ClassHistogram.Counts(1000, 64000), before.classes().get("[B"));
    assertEquals(new ClassHistogram.Counts(200, 5000), after.classes().get("[Ljava.lang.Object;"),
        "a name listed once per class loader is added up");
    List<ClassHistogram.Growth> growth = before.growth(after, 100, 2);
    assertEquals(List.of(new ClassHistogram.Growth("[B", 20.0, 2000.0),
        new ClassHistogram.Growth("[Ljava.lang.Object;", 2.0, 50.0)), growth);
    assertEquals(3, before.growth(after, 100, 10).size(), "classes that shrank are left out");
    assertEquals("byte[]", ClassHistogram.readable("[B"));
    assertEquals("java.lang.Object[][]", ClassHistogram.readable("[[Ljava.lang.Object;"));
    assertEquals("java.lang.String", ClassHistogram.readable("java.lang.String"));
  }

  @Test
  @DisplayName("CPU per operation and the machine share come from two samples of the process and its children")
  void processCpu() {
    ProcessCpu start = new ProcessCpu(1_000_000_000L, 5_000_000_000L, 2_000_000_000L);
    // one second later: 1.5 s of JVM CPU and 0.1 s of Redis, on 2 cores, for 400 operations
    ProcessCpu end = new ProcessCpu(2_000_000_000L, 6_500_000_000L, 2_100_000_000L);
    assertEquals(1_600_000_000L, end.cpuSince(start));
    assertEquals(4.0, end.millisPerOperation(start, 400), 1e-9);
    assertEquals(0.8, end.machineShare(start, 2), 1e-9);
    assertTrue(Double.isNaN(end.millisPerOperation(start, 0)));
    // a child that ended between the samples does not make the CPU go backwards
    assertEquals(1_500_000_000L, new ProcessCpu(2_000_000_000L, 6_500_000_000L, 0).cpuSince(start));
    ProcessCpu now = ProcessCpu.now();
    assertTrue(now.jvmNanos() > 0, "this JVM has used some CPU");
  }
}
