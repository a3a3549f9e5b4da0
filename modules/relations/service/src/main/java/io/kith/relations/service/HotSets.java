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
 *
 * <p>Every write also bumps the set's generation {@code rel:{u:<id>}:<type>:gen}. A rebuild reads the generation
 * before loading from MongoDB and stores the set only if no write happened meanwhile; otherwise a write that landed
 * after the load but before the set existed would be lost until the set expires. A rebuild that loses this race
 * answers from the members it loaded, and the next use builds the set again.
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
  /** Users who hide from this user. */
  static final String HIDDEN_BY = "hb";

  static final long TTL_SECONDS = 86_400;
  /** Generations outlive their sets, so that one cannot vanish while a rebuild is in flight. */
  static final long GENERATION_TTL_SECONDS = 2 * TTL_SECONDS;
  private static final String MARKER = "0";
  private static final String BUMP = "redis.call('incr', KEYS[2]) redis.call('expire', KEYS[2], ARGV[2]) ";
  private static final String ADD_IF_EXISTS = BUMP
      + "if redis.call('exists', KEYS[1]) == 1 then redis.call('sadd', KEYS[1], ARGV[1]) end return 1";
  private static final String REMOVE = BUMP + "redis.call('srem', KEYS[1], ARGV[1]) return 1";
  // ARGV: ttl, generation read before loading, marker, members... SADD in chunks: Lua's unpack() fails beyond ~8,000
  // values, and a set may hold up to RelationsVerticle.HOT_SET_MAX members.
  private static final String FILL =
      "if redis.call('exists', KEYS[1]) == 1 then return 1 end "
          + "if (redis.call('get', KEYS[2]) or '0') ~= ARGV[2] then return 0 end "
          + "for i = 3, #ARGV, 1000 do redis.call('sadd', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV))) end "
          + "redis.call('expire', KEYS[1], ARGV[1]) return 1";

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

  static String generationKey(String set, long user) {
    return key(set, user) + ":gen";
  }

  /** Which of {@code others} are in {@code user}'s set (the set is built first when missing). */
  Future<Set<Long>> among(String set, long user, Collection<Long> others) {
    List<Long> list = List.copyOf(others);
    if (list.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    return ensure(set, user).compose(loaded -> {
      if (loaded != null) {
        Set<Long> in = new HashSet<>(list);
        in.retainAll(loaded);
        return Future.succeededFuture(in);
      }
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
    return api.eval(List.of(ADD_IF_EXISTS, "2", key(set, user), generationKey(set, user), Long.toString(other),
        Long.toString(GENERATION_TTL_SECONDS))).mapEmpty();
  }

  /** Removes {@code other} from {@code user}'s set. */
  Future<Void> remove(String set, long user, long other) {
    return api.eval(List.of(REMOVE, "2", key(set, user), generationKey(set, user), Long.toString(other),
        Long.toString(GENERATION_TTL_SECONDS))).mapEmpty();
  }

  /**
   * Makes sure the set is in Redis. Yields null when it is; when a concurrent write kept a rebuilt set from being
   * stored, yields the members just loaded from MongoDB (as fresh as a direct read).
   */
  private Future<Set<Long>> ensure(String set, long user) {
    String key = key(set, user);
    String generationKey = generationKey(set, user);
    return api.expire(List.of(key, Long.toString(TTL_SECONDS))).compose(r -> {
      if (r.toInteger() == 1) {
        return Future.<Set<Long>>succeededFuture(null);
      }
      return api.get(generationKey).compose(g -> {
        String generation = g == null ? "0" : g.toString();
        return loader.load(set, user).compose(members -> {
          List<String> args = new ArrayList<>();
          args.add(FILL);
          args.add("2");
          args.add(key);
          args.add(generationKey);
          args.add(Long.toString(TTL_SECONDS));
          args.add(generation);
          args.add(MARKER);
          members.forEach(m -> args.add(Long.toString(m)));
          return api.eval(args).<Set<Long>>map(stored -> stored.toInteger() == 1 ? null : new HashSet<>(members));
        });
      });
    });
  }

  /** For tests and tools: whether a set is present. */
  Future<Boolean> present(String set, long user) {
    return api.exists(List.of(key(set, user))).map(Response::toInteger).map(n -> n > 0);
  }
}
