package io.kith.bench.scenario.feeds;

import io.kith.bench.client.Target;
import io.kith.bench.jvm.ProcessCpu;
import io.kith.bench.scenario.RedisWork;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.redis.client.Redis;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * What one closed-loop run of a read cost the in-process Kith, sampled before and after it: CPU time of the bench
 * process and its children (the embedded redis-server) less the CPU time of the client's event loop, the Redis
 * server's commands ({@code INFO commandstats}), and Kith's own store meters from {@code /metrics} (MongoDB calls,
 * post-copy hits and misses). The client's JIT and GC share stays in (it is small next to a hydrated page), so the
 * figure errs high.
 *
 * @param cpu         process-tree CPU sample
 * @param clientNanos CPU time of the client's event-loop thread
 * @param redis       the Redis server's work so far
 * @param mongoCalls  MongoDB client calls Kith counted ({@code kith_store_seconds_count{store="mongo"}})
 * @param copyHits    post copies read from Redis ({@code kith_feeds_post_copies_total{result="hit"}})
 * @param copyMisses  post copies missing in Redis, read from MongoDB
 */
record ReadCost(ProcessCpu cpu, long clientNanos, RedisWork redis, double mongoCalls, double copyHits,
                double copyMisses) {

  /** Samples now; {@code clientThread} is the id of the thread the load runner's context runs on. */
  static Future<ReadCost> take(Vertx vertx, Redis redis, Target target, long clientThread) {
    return RedisWork.take(redis).compose(work -> metrics(vertx, target).map(text -> new ReadCost(ProcessCpu.now(),
        ManagementFactory.getThreadMXBean().getThreadCpuTime(clientThread), work,
        total(text, "kith_store_seconds_count", "store=\"mongo\""),
        total(text, "kith_feeds_post_copies_total", "result=\"hit\""),
        total(text, "kith_feeds_post_copies_total", "result=\"miss\""))));
  }

  /** Milliseconds of Kith's (and Redis's) CPU per request from {@code before} to this sample. */
  double kithMillisPer(ReadCost before, long requests) {
    return (cpu.cpuSince(before.cpu) - (clientNanos - before.clientNanos)) / 1e6 / requests;
  }

  /** Milliseconds of the client's event loop per request. */
  double clientMillisPer(ReadCost before, long requests) {
    return (clientNanos - before.clientNanos) / 1e6 / requests;
  }

  /** Redis commands the server ran per request (scripts count once, the commands they call not at all). */
  double redisCommandsPer(ReadCost before, long requests) {
    return redis.minus(before.redis).commandCalls().values().stream().mapToLong(Long::longValue).sum()
        / (double) requests;
  }

  private static Future<String> metrics(Vertx vertx, Target target) {
    HttpClient client = vertx.createHttpClient();
    return client.request(HttpMethod.GET, target.port(), target.host(), "/metrics")
        .compose(request -> request.send())
        .compose(HttpClientResponse::body)
        .map(body -> body.toString())
        .eventually(client::close);
  }

  /** The sum of the samples of {@code metric} whose labels hold {@code label}, in Prometheus text; 0 when none. */
  static double total(String exposition, String metric, String label) {
    return Arrays.stream(exposition.split("\n"))
        .filter(line -> line.startsWith(metric + "{") && line.contains(label))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf('}') + 1).trim().split(" ")[0]))
        .sum();
  }
}
