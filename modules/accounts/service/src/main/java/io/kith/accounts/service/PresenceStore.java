package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Live bridge connections per user, in Redis: sorted set {@code presence:{u:<id>}} of connection ids scored by the
 * time they stop counting. Gateways refresh their connections every {@code presence-heartbeat} seconds; a crashed
 * node's connections lapse after {@code presence-expiry} seconds. A user is online while any connection counts.
 */
final class PresenceStore {

  private static final String CONNECT =
      "redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1]) "
          + "local before = redis.call('zcard', KEYS[1]) "
          + "redis.call('zadd', KEYS[1], ARGV[2], ARGV[3]) "
          + "redis.call('pexpire', KEYS[1], ARGV[4]) "
          + "if redis.call('zcard', KEYS[1]) > tonumber(ARGV[5]) then redis.call('zpopmin', KEYS[1]) end "
          + "return before";
  private static final String DISCONNECT =
      "local removed = redis.call('zrem', KEYS[1], ARGV[2]) "
          + "redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1]) "
          + "return {removed, redis.call('zcard', KEYS[1])}";
  /** Most connections counted per user (devices and tabs); the oldest beyond it stop counting. */
  static final int MAX_CONNECTIONS = 32;

  private final Redis redis;
  private final RedisAPI api;
  private final long expiryMillis;

  PresenceStore(Redis redis, long expiryMillis) {
    this.redis = redis;
    this.api = RedisAPI.api(redis);
    this.expiryMillis = expiryMillis;
  }

  static String key(long userId) {
    return "presence:{u:" + userId + "}";
  }

  /** Records a connection; true when the user was offline before it. */
  Future<Boolean> connect(long userId, String connectionId) {
    long now = System.currentTimeMillis();
    return api.eval(List.of(CONNECT, "1", key(userId), Long.toString(now), Long.toString(now + expiryMillis),
            connectionId, Long.toString(expiryMillis), Integer.toString(MAX_CONNECTIONS)))
        .map(r -> r.toLong() == 0);
  }

  /** Removes a connection; true when it was the user's last one. */
  Future<Boolean> disconnect(long userId, String connectionId) {
    long now = System.currentTimeMillis();
    return api.eval(List.of(DISCONNECT, "1", key(userId), Long.toString(now), connectionId))
        .map(r -> r.get(0).toLong() == 1 && r.get(1).toLong() == 0);
  }

  /** Extends the connections a gateway still holds: {@code {"<userId>": ["<connectionId>", ...]}}. */
  Future<Void> alive(JsonObject connections) {
    long until = System.currentTimeMillis() + expiryMillis;
    List<Request> batch = new ArrayList<>();
    for (String user : connections.fieldNames()) {
      long userId = Long.parseLong(user);
      JsonArray ids = connections.getJsonArray(user, new JsonArray());
      if (ids.isEmpty()) {
        continue;
      }
      // XX: a connection closed meanwhile is not brought back
      Request zadd = Request.cmd(Command.ZADD).arg(key(userId)).arg("XX");
      ids.forEach(id -> zadd.arg(until).arg(String.valueOf(id)));
      batch.add(zadd);
      batch.add(Request.cmd(Command.PEXPIRE).arg(key(userId)).arg(expiryMillis));
    }
    return batch.isEmpty() ? Future.succeededFuture() : redis.batch(batch).mapEmpty();
  }

  /** Whether each user has a live connection. */
  Future<Map<Long, Boolean>> online(List<Long> userIds) {
    if (userIds.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    long now = System.currentTimeMillis();
    List<Request> batch = new ArrayList<>();
    for (Long id : userIds) {
      batch.add(Request.cmd(Command.ZCOUNT).arg(key(id)).arg("(" + now).arg("+inf"));
    }
    return redis.batch(batch).map(replies -> {
      Map<Long, Boolean> out = new HashMap<>();
      for (int i = 0; i < userIds.size(); i++) {
        out.put(userIds.get(i), replies.get(i).toLong() > 0);
      }
      return out;
    });
  }
}
