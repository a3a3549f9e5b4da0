package io.kith.bench.scenario;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a Redis server has done so far, from {@code INFO cpu} and {@code INFO commandstats}: the difference of two
 * samples is the server's share of the work between them (the server runs on the same machine as Kith, so its CPU is
 * part of what a scenario costs).
 *
 * @param cpuMicros the server's user and system CPU time
 * @param commandMicros per command ({@code cmdstat_<name>}), the microseconds spent in it
 * @param commandCalls per command, how many times it ran
 */
public record RedisWork(double cpuMicros, Map<String, Long> commandMicros, Map<String, Long> commandCalls) {

  /** Samples the server. */
  public static Future<RedisWork> take(Redis redis) {
    return redis.send(Request.cmd(Command.INFO).arg("cpu")).compose(cpu -> redis.send(Request.cmd(Command.INFO)
        .arg("commandstats")).map(stats -> parse(cpu.toString() + "\n" + stats.toString())));
  }

  /** Parses {@code INFO} text holding the {@code cpu} and {@code commandstats} sections. */
  public static RedisWork parse(String info) {
    double cpu = 0;
    Map<String, Long> commands = new HashMap<>();
    Map<String, Long> calls = new HashMap<>();
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
        cpu += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim()) * 1e6;
      } else if (line.startsWith("cmdstat_")) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
          if (field.startsWith("usec=")) {
            commands.put(name, Long.parseLong(field.substring("usec=".length())));
          } else if (field.startsWith("calls=")) {
            calls.put(name, Long.parseLong(field.substring("calls=".length())));
          }
        }
      }
    }
    return new RedisWork(cpu, Map.copyOf(commands), Map.copyOf(calls));
  }

  /** The work done since {@code earlier}. */
  public RedisWork minus(RedisWork earlier) {
    Map<String, Long> commands = new HashMap<>();
    Map<String, Long> calls = new HashMap<>();
    commandMicros.forEach((name, usec) -> {
      long spent = usec - earlier.commandMicros.getOrDefault(name, 0L);
      if (spent > 0) {
        commands.put(name, spent);
        calls.put(name, commandCalls.getOrDefault(name, 0L) - earlier.commandCalls.getOrDefault(name, 0L));
      }
    });
    return new RedisWork(cpuMicros - earlier.cpuMicros, Map.copyOf(commands), Map.copyOf(calls));
  }

  /**
   * The {@code n} commands that took the most time, as "name 1.23 us x0.500" (microseconds and calls per
   * {@code per}), busiest first.
   */
  public String top(long per, int n) {
    List<Map.Entry<String, Long>> busiest = commandMicros.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n).toList();
    return busiest.stream().map(e -> String.format(Locale.ROOT, "%s %.2f us x%.3f", e.getKey(),
        (double) e.getValue() / per, (double) commandCalls.getOrDefault(e.getKey(), 0L) / per))
        .collect(Collectors.joining(", "));
  }
}
