package io.kith.relations.service;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Hot copies of a user's outgoing edges in Redis sets, for O(1) checks: {@code rel:{u:<id>}:<type>} holds the ids at
 * the other end (following, friends, blocks, blocked-by, mutes, hides). A set exists only when complete: it always
 * holds the marker member {@code 0}, is built from MongoDB in one step when missing, and writes only add to or remove
 * from sets that exist (a write never creates a partial set). Sets expire after a day unused and are rebuilt.
 */
final class HotSets {

  /** Outgoing following. */
  static final String FOLLOWING = "f";
  /** Friends (both directions hold an edge). */
  static final String FRIENDS = "F";
  /** Users this user blocks. */
  static final String BLOCKS = "b";
  /** Users who block this user. */
  static final String BLOCKED_BY = "bb";
  /** Users this user mutes. */
  static final String MUTES = "m";
  /** Users this user hides from. */
  static final String HIDES = "h";

  static final long TTL_SECONDS = 86_400;
  private static final String MARKER = "0";
  private static final String ADD_IF_EXISTS =
      "if redis.call('exists', KEYS[1]) == 1 then redis.call('sadd', KEYS[1], ARGV[1]) end return 1";
  private static final String FILL =
      "if redis.call('exists', KEYS[1]) == 0 then "
          + "redis.call('sadd', KEYS[1], unpack(ARGV, 2)) redis.call('expire', KEYS[1], ARGV[1]) end return 1";

  /** Loads the complete member list of a set from the record. */
  interface Loader {
    Future<List<Long>> load(String set, long user);
  }

  private final Redis redis;
  private final RedisAPI api;
  private final Loader loader;

  HotSets(Redis redis, Loader loader) {
    this.redis = redis;
    this.api = RedisAPI.api(redis);
    this.loader = loader;
  }

  static String key(String set, long user) {
    return "rel:{u:" + user + "}:" + set;
  }

  /** Which of {@code others} are in {@code user}'s set (the set is built first when missing). */
  Future<Set<Long>> among(String set, long user, Collection<Long> others) {
    List<Long> list = List.copyOf(others);
    if (list.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    return ensure(set, user).compose(v -> {
      Request smis = Request.cmd(Command.SMISMEMBER).arg(key(set, user));
      list.forEach(smis::arg);
      return redis.send(smis).map(r -> {
        Set<Long> in = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
          if (r.get(i).toInteger() == 1) {
            in.add(list.get(i));
          }
        }
        return in;
      });
    });
  }

  /** Whether {@code other} is in {@code user}'s set. */
  Future<Boolean> contains(String set, long user, long other) {
    return among(set, user, List.of(other)).map(s -> s.contains(other));
  }

  /** Adds {@code other} to {@code user}'s set if the set exists (else it will be built complete on next use). */
  Future<Void> add(String set, long user, long other) {
    return api.eval(List.of(ADD_IF_EXISTS, "1", key(set, user), Long.toString(other))).mapEmpty();
  }

  /** Removes {@code other} from {@code user}'s set. */
  Future<Void> remove(String set, long user, long other) {
    return api.srem(List.of(key(set, user), Long.toString(other))).mapEmpty();
  }

  private Future<Void> ensure(String set, long user) {
    String key = key(set, user);
    return api.expire(List.of(key, Long.toString(TTL_SECONDS))).compose(r -> {
      if (r.toInteger() == 1) {
        return Future.succeededFuture();
      }
      return loader.load(set, user).compose(members -> {
        List<String> args = new ArrayList<>();
        args.add(FILL);
        args.add("1");
        args.add(key);
        args.add(Long.toString(TTL_SECONDS));
        args.add(MARKER);
        members.forEach(m -> args.add(Long.toString(m)));
        return api.eval(args).mapEmpty();
      });
    });
  }

  /** For tests and tools: whether a set is present. */
  Future<Boolean> present(String set, long user) {
    return api.exists(List.of(key(set, user))).map(Response::toInteger).map(n -> n > 0);
  }
}
