package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Live bridge connections per user, in Redis: sorted set {@code presence:{u:<id>}} of connection ids scored by the
 * time they stop counting. Gateways refresh their connections every {@code presence-heartbeat} seconds; a crashed
 * node's connections lapse after {@code presence-expiry} seconds. A user is online while any connection counts.
 *
 * <p>A heartbeat re-adds the connections its gateway holds, so connections that Redis lost (emptied, failed over,
 * an open report that never arrived) count again within one heartbeat. Closes still win: a closed connection is
 * removed at once and its gateway no longer lists it (a heartbeat already on its way when the connection closed can
 * bring it back for at most one expiry period, as a crashed node's connections linger).
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
  // returns 1 when the user had no live connection before the heartbeat (offline to online)
  private static final String ALIVE =
      "redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1]) "
          + "local before = redis.call('zcard', KEYS[1]) "
          + "for i = 5, #ARGV do redis.call('zadd', KEYS[1], ARGV[2], ARGV[i]) end "
          + "redis.call('pexpire', KEYS[1], ARGV[3]) "
          + "local over = redis.call('zcard', KEYS[1]) - tonumber(ARGV[4]) "
          + "if over > 0 then redis.call('zpopmin', KEYS[1], over) end "
          + "if before == 0 then return 1 end "
          + "return 0";
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

  /**
   * Counts the connections a gateway holds for another expiry period, adding the ones Redis lost:
   * {@code {"<userId>": ["<connectionId>", ...]}}. Returns the users who had no live connection before (offline to
   * online). Entries that are not a user id with connection ids of 1 to 100 characters are ignored.
   */
  Future<List<Long>> alive(JsonObject connections) {
    long now = System.currentTimeMillis();
    List<Long> users = new ArrayList<>();
    List<Future<Response>> replies = new ArrayList<>();
    for (String user : connections.fieldNames()) {
      long userId;
      try {
        userId = Long.parseLong(user);
      } catch (NumberFormatException e) {
        continue;
      }
      Object listed = connections.getValue(user);
      if (userId <= 0 || !(listed instanceof JsonArray)) {
        continue;
      }
      List<String> args = new ArrayList<>(List.of(ALIVE, "1", key(userId), Long.toString(now),
          Long.toString(now + expiryMillis), Long.toString(expiryMillis), Integer.toString(MAX_CONNECTIONS)));
      for (Object id : (JsonArray) listed) {
        if (id instanceof String && !((String) id).isEmpty() && ((String) id).length() <= 100
            && args.size() < 7 + MAX_CONNECTIONS) {
          args.add((String) id);
        }
      }
      if (args.size() == 7) {
        continue;
      }
      users.add(userId);
      replies.add(api.eval(args));
    }
    return Future.all(replies).map(all -> {
      List<Long> cameOnline = new ArrayList<>();
      for (int i = 0; i < users.size(); i++) {
        if (all.<Response>resultAt(i).toInteger() == 1) {
          cameOnline.add(users.get(i));
        }
      }
      return cameOnline;
    });
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
