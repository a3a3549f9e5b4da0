package io.kith.platform.testkit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

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
    return redis.send(Request.cmd(Command.CLUSTER).arg("KEYSLOT").arg(key)).compose(slot -> redis
        .send(Request.cmd(Command.CLUSTER).arg("SLOTS")).map(ranges -> {
          int s = slot.toInteger();
          for (Response range : ranges) {
            if (range.get(0).toInteger() <= s && s <= range.get(1).toInteger()) {
              return range.get(2).get(0).toString() + ":" + range.get(2).get(1).toInteger();
            }
          }
          throw new IllegalStateException("no master serves slot " + s);
        }));
  }

  /** Sends {@code command} to the master that serves {@code key}, on a connection of its own. */
  public static Future<Response> sendOnNodeOf(Vertx vertx, Redis redis, String key, Request command) {
    return masterOf(redis, key).compose(node -> {
      Redis direct = Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://" + node));
      return direct.send(command).eventually(direct::close);
    });
  }
}
