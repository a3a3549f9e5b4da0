package io.kith.bench.scenario.feeds;

import io.kith.bench.report.Figure;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The feeds-fanout scenario's baseline: the store's raw write speed, plain pipelined {@code LPUSH} on the in-process
 * Kith's Redis, by {@code redis-benchmark} when it is on PATH and always by an in-JVM loop through the Vert.x Redis
 * client. The fan-out's timeline inserts per second are reported as a ratio of it.
 */
final class LpushBaseline {

  /** Commands per pipelined batch. */
  static final int BATCH = 1_000;
  static final int LPUSH_IN_JVM = 200_000;
  static final int LPUSH_IN_FLIGHT = 4;
  static final int REDIS_BENCHMARK_REQUESTS = 1_000_000;
  /** Runs of each LPUSH baseline; the fastest is the baseline. */
  static final int BASELINE_RUNS = 3;

  private LpushBaseline() {
  }

  /**
   * The LPUSH baselines: redis-benchmark when on PATH, and the in-JVM pipelined loop, each run
   * {@value #BASELINE_RUNS} times and the fastest kept (a baseline slowed by a moment of load would flatter the
   * ratio).
   */
  static Future<Void> measure(ScenarioContext context, Platform platform, int port, List<Figure> figures,
                              List<String> notes) {
    Optional<Path> tool = redisBenchmark();
    List<Double> runs = new ArrayList<>();
    Future<Void> external = Future.succeededFuture();
    for (int i = 0; i < BASELINE_RUNS && tool.isPresent(); i++) {
      external = external.compose(v -> context.vertx().executeBlocking(() -> runRedisBenchmark(tool.get(), port))
          .compose(rps -> platform.redis().send(Request.cmd(Command.DEL).arg("mylist")).map(x -> {
            runs.add(rps);
            return null;
          })));
    }
    return external.compose(v -> {
      if (tool.isPresent()) {
        figures.add(Figure.of("lpush/s redis-benchmark", runs.stream().mapToDouble(d -> d).max().orElseThrow(),
            "LPUSH/s", "the fastest of " + BASELINE_RUNS + " runs (" + rates(runs) + ") of redis-benchmark -h "
                + "127.0.0.1 -p " + port + " -P 16 -t lpush -n " + REDIS_BENCHMARK_REQUESTS + " (50 clients, "
                + "pipelines of 16) from " + tool.get() + ", on the in-process Kith's Redis"));
      } else {
        notes.add("redis-benchmark is not on PATH: the LPUSH baseline is the in-JVM loop only");
      }
      List<Double> loops = new ArrayList<>();
      Future<Void> inJvmRuns = Future.succeededFuture();
      for (int i = 0; i < BASELINE_RUNS; i++) {
        inJvmRuns = inJvmRuns.compose(x -> lpushInJvm(platform.redis()).map(rps -> {
          loops.add(rps);
          return null;
        }));
      }
      return inJvmRuns.map(x -> {
        figures.add(Figure.of("lpush/s in-JVM", loops.stream().mapToDouble(d -> d).max().orElseThrow(), "LPUSH/s",
            String.format(Locale.ROOT, "the fastest of %d runs (%s) of %,d LPUSH in pipelined batches of %,d "
                + "through the Vert.x Redis client, %d batches in flight", BASELINE_RUNS, rates(loops),
                LPUSH_IN_JVM, BATCH, LPUSH_IN_FLIGHT)));
        return null;
      });
    });
  }

  /** {@code redis-benchmark} on PATH, if any. */
  static Optional<Path> redisBenchmark() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, "redis-benchmark");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static double runRedisBenchmark(Path tool, int port) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(tool.toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-P", "16",
        "-t", "lpush", "-n", Integer.toString(REDIS_BENCHMARK_REQUESTS), "-q", "--csv")
        .redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
      }
    }
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("redis-benchmark did not finish in 120 s");
    }
    return parseRedisBenchmark(lines);
  }

  /** Rates as "123,456, 234,567 LPUSH/s". */
  static String rates(List<Double> rates) {
    return rates.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r))
        .collect(java.util.stream.Collectors.joining(", ")) + " LPUSH/s";
  }

  /** The requests per second of the {@code LPUSH} line of {@code redis-benchmark --csv} output. */
  static double parseRedisBenchmark(List<String> lines) {
    for (String line : lines) {
      String[] cells = line.split(",");
      if (cells.length >= 2 && cells[0].replace("\"", "").startsWith("LPUSH")) {
        return Double.parseDouble(cells[1].replace("\"", ""));
      }
    }
    throw new IllegalStateException("redis-benchmark printed no LPUSH line: " + String.join(" | ", lines));
  }

  /** {@link #LPUSH_IN_JVM} LPUSH in pipelined batches of {@link #BATCH}, a few in flight; LPUSH per second. */
  static Future<Double> lpushInJvm(Redis redis) {
    String key = "bench:lpush:{" + System.nanoTime() + "}";
    List<Request> batch = new ArrayList<>(BATCH);
    for (int i = 0; i < BATCH; i++) {
      batch.add(Request.cmd(Command.LPUSH).arg(key).arg("xxx"));
    }
    int batches = LPUSH_IN_JVM / BATCH;
    AtomicLong next = new AtomicLong();
    long start = System.nanoTime();
    List<Future<Void>> lanes = new ArrayList<>();
    for (int i = 0; i < LPUSH_IN_FLIGHT; i++) {
      lanes.add(lane(redis, batch, next, batches));
    }
    return Future.all(lanes).map(v -> (double) batches * BATCH * 1e9 / (System.nanoTime() - start))
        .compose(rps -> redis.send(Request.cmd(Command.DEL).arg(key)).map(rps));
  }

  private static Future<Void> lane(Redis redis, List<Request> batch, AtomicLong next, int batches) {
    if (next.getAndIncrement() >= batches) {
      return Future.succeededFuture();
    }
    return redis.batch(batch).compose(r -> lane(redis, batch, next, batches));
  }
}
