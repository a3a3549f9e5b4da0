package io.kith.bench.scenario.cluster;

import io.kith.bench.jvm.ProcessCpu;
import io.kith.bench.jvm.ThreadCpu;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a deployment's processes had used at one instant, so that the difference of two samples around a slice of
 * load, divided by the operations answered in it, is a cost per operation: CPU of the Kith nodes (in all and by
 * thread group), of its redis-server and of the bench's JVM (the load generator and the MongoDB-wire server), the
 * event-bus messages the nodes counted ({@code /metrics}), and the machine's busy time (what other tenants took).
 *
 * @param wallNanos    {@link System#nanoTime()}
 * @param nodeNanos    CPU of the node processes
 * @param threadNanos  CPU of the nodes' live threads by {@link ThreadCpu} group
 * @param redisMicros  CPU of the deployment's redis-server (its INFO)
 * @param benchNanos   CPU of this JVM
 * @param eventBus     event-bus counters summed over the nodes, by metric name ({@link #EVENT_BUS_METRICS})
 * @param machineBusy  clock ticks the machine's CPUs were busy (/proc/stat), all processes
 * @param machineTotal clock ticks the machine's CPUs existed (/proc/stat)
 */
record NodeSample(long wallNanos, long nodeNanos, Map<String, Long> threadNanos, double redisMicros,
                  long benchNanos, Map<String, Double> eventBus, long machineBusy, long machineTotal) {

  /** Messages delivered to a handler on a node, from that node or another. */
  static final String RECEIVED = "vertx_eventbus_received_total";
  /** Messages a node read from a peer (one count per message; replies travel on internal addresses, not counted). */
  static final String READ_FROM_PEERS = "vertx_eventbus_bytes_read_count";
  /** Messages a node wrote to a peer. */
  static final String WRITTEN_TO_PEERS = "vertx_eventbus_bytes_written_count";
  /** Point-to-point sends (service calls), local or not. */
  static final String SENT = "vertx_eventbus_sent_total";
  /** Publications (pushes to user and room addresses). */
  static final String PUBLISHED = "vertx_eventbus_published_total";
  static final List<String> EVENT_BUS_METRICS = List.of(RECEIVED, READ_FROM_PEERS, WRITTEN_TO_PEERS, SENT, PUBLISHED);

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Samples the nodes (blocking: /proc and one /metrics scrape per node); Redis's CPU comes from the caller. */
  static NodeSample take(List<ProcessHandle> nodes, List<String> metricsUrls, double redisMicros) {
    long wall = System.nanoTime();
    long cpu = 0;
    Map<String, Long> threads = new TreeMap<>();
    for (ProcessHandle node : nodes) {
      cpu += node.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
      ThreadCpu.byGroup(node.pid()).forEach((group, nanos) -> threads.merge(group, nanos, Long::sum));
    }
    Map<String, Double> bus = new TreeMap<>();
    for (String url : metricsUrls) {
      String text = scrape(url);
      EVENT_BUS_METRICS.forEach(metric -> bus.merge(metric, sum(text, metric), Double::sum));
    }
    long[] machine = machine();
    return new NodeSample(wall, cpu, threads, redisMicros, ProcessCpu.now().jvmNanos(), bus, machine[0], machine[1]);
  }

  /** What was used from {@code earlier} to this sample. */
  NodeSample minus(NodeSample earlier) {
    Map<String, Long> threads = new TreeMap<>(threadNanos);
    earlier.threadNanos.forEach((group, nanos) -> threads.merge(group, -nanos, Long::sum));
    Map<String, Double> bus = new TreeMap<>(eventBus);
    earlier.eventBus.forEach((metric, value) -> bus.merge(metric, -value, Double::sum));
    return new NodeSample(wallNanos - earlier.wallNanos, nodeNanos - earlier.nodeNanos, threads,
        redisMicros - earlier.redisMicros, benchNanos - earlier.benchNanos, bus, machineBusy - earlier.machineBusy,
        machineTotal - earlier.machineTotal);
  }

  /** Adds up differences ({@link #minus}) of several slices. */
  NodeSample plus(NodeSample other) {
    Map<String, Long> threads = new TreeMap<>(threadNanos);
    other.threadNanos.forEach((group, nanos) -> threads.merge(group, nanos, Long::sum));
    Map<String, Double> bus = new TreeMap<>(eventBus);
    other.eventBus.forEach((metric, value) -> bus.merge(metric, value, Double::sum));
    return new NodeSample(wallNanos + other.wallNanos, nodeNanos + other.nodeNanos, threads,
        redisMicros + other.redisMicros, benchNanos + other.benchNanos, bus, machineBusy + other.machineBusy,
        machineTotal + other.machineTotal);
  }

  /** The share of the machine's CPU time that was busy (anyone's work), 0 to 1; NaN without /proc/stat. */
  double machineBusyShare() {
    return machineTotal <= 0 ? Double.NaN : (double) machineBusy / machineTotal;
  }

  /**
   * The sum of every sample of {@code metric} in a Prometheus text exposition (all label sets), 0 when absent.
   * Only whole names match: {@code vertx_eventbus_sent_total} does not match {@code vertx_eventbus_sent_total_x}.
   */
  static double sum(String exposition, String metric) {
    double total = 0;
    for (String line : exposition.split("\n")) {
      if (!line.startsWith(metric)) {
        continue;
      }
      char next = line.length() > metric.length() ? line.charAt(metric.length()) : ' ';
      if (next != '{' && next != ' ') {
        continue;
      }
      String rest = next == '{' ? line.substring(line.lastIndexOf('}') + 1) : line.substring(metric.length());
      total += Double.parseDouble(rest.strip().split("\\s+")[0]); // a timestamp may follow the value
    }
    return total;
  }

  /** Busy and total ticks of the "cpu" line of /proc/stat; zeros where it cannot be read. */
  static long[] machine() {
    try {
      return busyAndTotal(Files.readAllLines(Path.of("/proc/stat")).get(0));
    } catch (IOException | RuntimeException noProc) {
      return new long[] {0, 0};
    }
  }

  /** Busy and total ticks of a "cpu user nice system idle iowait irq softirq steal ..." line. */
  static long[] busyAndTotal(String cpuLine) {
    String[] fields = cpuLine.strip().split("\\s+");
    long total = 0;
    // user nice system idle iowait irq softirq steal; guest time is already inside user and nice
    for (int i = 1; i < Math.min(fields.length, 9); i++) {
      total += Long.parseLong(fields[i]);
    }
    long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
    return new long[] {total - idle, total};
  }

  private static String scrape(String url) {
    try {
      HttpResponse<String> reply = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
          .build(), HttpResponse.BodyHandlers.ofString());
      if (reply.statusCode() != 200) {
        throw new IllegalStateException("GET " + url + " answered " + reply.statusCode());
      }
      return reply.body();
    } catch (IOException e) {
      throw new IllegalStateException("GET " + url + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
