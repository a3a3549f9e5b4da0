package io.kith.platform.testkit;

import io.kith.platform.store.SlotBatchedRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which Redis Cluster node holds a key, for tests that must talk to that node itself: a command without keys (SCRIPT
 * EXISTS, DEBUG) goes to any node of a cluster, and a failover test kills the master of the keys it writes. On a single
 * Redis every key lives on the one server.
 */
public final class RedisNodes {

  private RedisNodes() {
  }

  /** The {@code host:port} of the master serving {@code key} ({@code redis} is any client of the test Redis). */
  public static Future<String> masterOf(Redis redis, String key) {
    if (!KithTestKit.onCluster()) {
      return Future.succeededFuture(KithTestKit.redisUrl().replaceFirst("^redis://", "").replaceFirst("/.*$", ""));
    }
    return SlotBatchedRedis.masterOf(redis, key);
  }

  /** The {@code host:port} of every master of the cluster (that of the one server on a single Redis). */
  public static Future<List<String>> masters(Redis redis) {
    if (!KithTestKit.onCluster()) {
      return masterOf(redis, "any").map(List::of);
    }
    return redis.send(Request.cmd(Command.CLUSTER).arg("SLOTS")).map(ranges -> {
      Set<String> masters = new TreeSet<>();
      for (Response range : ranges) {
        masters.add(range.get(2).get(0).toString() + ":" + range.get(2).get(1).toInteger());
      }
      return List.copyOf(masters);
    });
  }

  /**
   * FLUSHALL on every master (the one server on a single Redis): it has no key, so a cluster client would send it to
   * one node only, and a replica refuses it.
   */
  public static Future<Void> flushAll(Vertx vertx, Redis redis) {
    return onEveryMaster(vertx, redis, () -> Request.cmd(Command.FLUSHALL));
  }

  /**
   * Sends a command made by {@code command} to every master (the one server on a single Redis), for the commands that
   * have no key and so would reach one node only through a cluster client (FLUSHALL, SCRIPT FLUSH).
   */
  public static Future<Void> onEveryMaster(Vertx vertx, Redis redis, java.util.function.Supplier<Request> command) {
    return masters(redis).compose(masters -> Future.all(masters.stream()
        .map(node -> sendTo(vertx, node, command.get())).toList())).mapEmpty();
  }

  /** Sends {@code command} to the server at {@code node} ({@code host:port}) on a connection of its own. */
  public static Future<Response> sendTo(Vertx vertx, String node, Request command) {
    Redis direct = Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://" + node));
    return direct.send(command).eventually(direct::close);
  }

  /** Sends {@code command} to the master that serves {@code key}, on a connection of its own. */
  public static Future<Response> sendOnNodeOf(Vertx vertx, Redis redis, String key, Request command) {
    return masterOf(redis, key).compose(node -> sendTo(vertx, node, command));
  }
}
