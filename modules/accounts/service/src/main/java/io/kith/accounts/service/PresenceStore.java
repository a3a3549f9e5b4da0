package io.kith.accounts.service;

import io.kith.platform.store.LuaScripts;
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

  private static final LuaScripts.Script CONNECT = LuaScripts.load(PresenceStore.class, "presence-connect.lua");
  private static final LuaScripts.Script DISCONNECT = LuaScripts.load(PresenceStore.class, "presence-disconnect.lua");
  private static final LuaScripts.Script ALIVE = LuaScripts.load(PresenceStore.class, "presence-alive.lua");
  /** Users per pipelined heartbeat batch (each one script call; within {@code redis.max-waiting-handlers}). */
  static final int ALIVE_BATCH = 250;
  /** Heartbeat batches of one report sent at once; the others wait for one of them to finish. */
  static final int ALIVE_BATCHES_IN_FLIGHT = 2;
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
    return CONNECT.run(api, List.of("1", key(userId), Long.toString(now), Long.toString(now + expiryMillis),
            connectionId, Long.toString(expiryMillis), Integer.toString(MAX_CONNECTIONS)))
        .map(r -> r.toLong() == 0);
  }

  /** Removes a connection; true when it was the user's last one. */
  Future<Boolean> disconnect(long userId, String connectionId) {
    long now = System.currentTimeMillis();
    return DISCONNECT.run(api, List.of("1", key(userId), Long.toString(now), connectionId))
        .map(r -> r.get(0).toLong() == 1 && r.get(1).toLong() == 0);
  }

  /**
   * Counts the connections a gateway holds for another expiry period, adding the ones Redis lost:
   * {@code {"<userId>": ["<connectionId>", ...]}}. Returns the users who had no live connection before (offline to
   * online). Entries that are not a user id with connection ids of 1 to 100 characters are ignored.
   *
   * <p>One script call per user (each touches only that user's key, so it runs on Redis Cluster too), sent as
   * pipelined batches of {@value #ALIVE_BATCH} users with at most {@value #ALIVE_BATCHES_IN_FLIGHT} batches in flight:
   * a heartbeat of thousands of users holds a couple of pooled connections for a moment instead of filling the
   * client's wait queue (where every other Redis request of the node would be refused meanwhile).
   */
  Future<List<Long>> alive(JsonObject connections) {
    long now = System.currentTimeMillis();
    List<Long> users = new ArrayList<>();
    List<List<Object>> calls = new ArrayList<>();
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
      List<Object> call = new ArrayList<>(List.of(1, key(userId), now, now + expiryMillis, expiryMillis,
          MAX_CONNECTIONS));
      int ids = 0;
      for (Object id : (JsonArray) listed) {
        if (id instanceof String && !((String) id).isEmpty() && ((String) id).length() <= 100
            && ids < MAX_CONNECTIONS) {
          call.add(id);
          ids++;
        }
      }
      if (ids == 0) {
        continue;
      }
      users.add(userId);
      calls.add(call);
    }
    List<Long> cameOnline = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    List<Future<Void>> lanes = new ArrayList<>();
    int batches = (calls.size() + ALIVE_BATCH - 1) / ALIVE_BATCH;
    for (int lane = 0; lane < Math.min(ALIVE_BATCHES_IN_FLIGHT, batches); lane++) {
      lanes.add(aliveLane(users, calls, lane, cameOnline, failures));
    }
    return Future.all(lanes).compose(all -> failures.isEmpty() ? Future.succeededFuture(cameOnline)
        : Future.failedFuture(failures.get(0)));
  }

  /**
   * Sends batches {@code batch}, {@code batch + lanes}, ... one after the other and records the users whose script
   * answered 1 (offline before). A failed batch does not stop the next one (its users' connections would lapse):
   * the failure is recorded and the heartbeat fails once every batch has been tried.
   */
  private Future<Void> aliveLane(List<Long> users, List<List<Object>> calls, int batch, List<Long> cameOnline,
                                 List<Throwable> failures) {
    int from = batch * ALIVE_BATCH;
    if (from >= calls.size()) {
      return Future.succeededFuture();
    }
    int to = Math.min(calls.size(), from + ALIVE_BATCH);
    return ALIVE.batch(redis, calls.subList(from, to)).transform(ar -> {
      synchronized (cameOnline) {
        if (ar.failed()) {
          failures.add(ar.cause());
        } else {
          List<Response> replies = ar.result();
          for (int i = 0; i < replies.size(); i++) {
            if (replies.get(i).toInteger() == 1) {
              cameOnline.add(users.get(from + i));
            }
          }
        }
      }
      return aliveLane(users, calls, batch + ALIVE_BATCHES_IN_FLIGHT, cameOnline, failures);
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
