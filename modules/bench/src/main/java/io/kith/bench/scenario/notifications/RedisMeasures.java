package io.kith.bench.scenario.notifications;

import io.kith.notifications.service.NotificationsSeeder;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the notifications scenario measures in Redis itself, apart from the load: the memory of a user's side
 * ({@code MEMORY USAGE} of every key of its prefix) and Redis's own time per script call ({@code INFO commandstats}),
 * neither of which the client's timings can show.
 */
final class RedisMeasures {

  private RedisMeasures() {
  }

  /**
   * A user's Redis side, measured with {@code MEMORY USAGE <key> SAMPLES 0} (every element counted) for every key
   * of its prefix.
   *
   * @param keys       keys of the user
   * @param bytes      their total
   * @param hashes     notification hashes among them
   * @param hashBytes  the notification hashes' total
   */
  record Memory(long keys, long bytes, long hashes, long hashBytes) {
  }

  /** Measures a user's side (SCAN of its prefix, then pipelined MEMORY USAGE). */
  static Future<Memory> memory(Redis redis, long user) {
    List<String> keys = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    return scan(redis, NotificationsSeeder.sidePattern(user), "0", keys).compose(v -> {
      Future<Void> chain = Future.succeededFuture();
      // in batches: the client queues at most redis.max-waiting-handlers replies
      for (int i = 0; i < keys.size(); i += NotificationsSeed.INSERT_BATCH) {
        List<String> chunk = keys.subList(i, Math.min(keys.size(), i + NotificationsSeed.INSERT_BATCH));
        chain = chain.compose(x -> {
          List<Request> usage = new ArrayList<>(chunk.size());
          chunk.forEach(k -> usage.add(Request.cmd(Command.MEMORY).arg("USAGE").arg(k).arg("SAMPLES").arg(0)));
          return redis.batch(usage).map(replies -> {
            replies.forEach(r -> sizes.add(r == null ? 0L : r.toLong()));
            return null;
          });
        });
      }
      return chain;
    }).map(v -> {
      long bytes = 0;
      long hashes = 0;
      long hashBytes = 0;
      for (int i = 0; i < keys.size(); i++) {
        long b = sizes.get(i);
        bytes += b;
        if (NotificationsSeeder.isNotificationKey(keys.get(i))) {
          hashes++;
          hashBytes += b;
        }
      }
      return new Memory(keys.size(), bytes, hashes, hashBytes);
    });
  }

  private static Future<Void> scan(Redis redis, String match, String cursor, List<String> keys) {
    return redis.send(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(match).arg("COUNT").arg(1000))
        .compose(r -> {
          for (Response k : r.get(1)) {
            keys.add(k.toString());
          }
          String next = r.get(0).toString();
          return "0".equals(next) ? Future.succeededFuture() : scan(redis, match, next, keys);
        });
  }

  /**
   * Redis's own time per call of {@code call} (microseconds, script execution included, no network), the median of
   * {@value #ROUNDS} rounds: each resets the command statistics, sends its calls in one pipeline and reads
   * {@code usec_per_call} of {@code command} ({@code evalsha}, {@code eval}) from {@code INFO commandstats}. Only
   * meaningful while nothing else runs that command (the product's scripts go by EVAL, the bench's by EVALSHA).
   */
  static Future<Double> serverMicros(Redis redis, Request call, String command) {
    // a probe sizes the rounds (~0.2 s of Redis time each); the median of the rounds resists a stalled core
    return serverMicros(redis, call, PROBE_CALLS, command).compose(probe -> {
      int calls = (int) Math.max(PROBE_CALLS, Math.min(MAX_CALLS, ROUND_MICROS / Math.max(1, probe)));
      List<Double> rounds = new ArrayList<>();
      Future<Void> chain = Future.succeededFuture();
      for (int i = 0; i < ROUNDS; i++) {
        chain = chain.compose(v -> serverMicros(redis, call, calls, command).map(us -> {
          rounds.add(us);
          return null;
        }));
      }
      return chain.map(v -> {
        rounds.sort(null);
        return rounds.get(rounds.size() / 2);
      });
    });
  }

  /** Rounds of {@link #serverMicros(Redis, Request, String)}, and its bounds on the calls per round. */
  static final int ROUNDS = 5;
  static final int PROBE_CALLS = 10;
  static final int MAX_CALLS = 2_000;
  static final double ROUND_MICROS = 200_000;

  /** The most calls of a round sent in one pipeline. */
  static final int PIPELINE_CALLS = 100;

  /**
   * One round: {@code times} calls in pipelines of at most {@value #PIPELINE_CALLS}, one after another, and Redis's
   * time per call. Redis's own time does not depend on the pipeline's length, and short pipelines stay far inside the
   * client's per-command deadline on a busy machine (one pipeline of 2,000 scripts could outlast it).
   */
  static Future<Double> serverMicros(Redis redis, Request call, int times, String command) {
    Future<Void> chain = redis.send(Request.cmd(Command.CONFIG).arg("RESETSTAT")).mapEmpty();
    for (int sent = 0; sent < times; sent += PIPELINE_CALLS) {
      List<Request> calls = new ArrayList<>(Collections.nCopies(Math.min(PIPELINE_CALLS, times - sent), call));
      chain = chain.compose(v -> redis.batch(calls).mapEmpty());
    }
    return chain.compose(v -> redis.send(Request.cmd(Command.INFO).arg("commandstats")))
        .map(info -> usecPerCall(info.toString(), command));
  }

  /** {@code usec_per_call} of {@code command} in an {@code INFO commandstats} text; NaN when absent. */
  static double usecPerCall(String info, String command) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("cmdstat_" + command + ":")) {
        for (String part : line.substring(line.indexOf(':') + 1).split(",")) {
          if (part.startsWith("usec_per_call=")) {
            return Double.parseDouble(part.substring("usec_per_call=".length()));
          }
        }
      }
    }
    return Double.NaN;
  }
}
