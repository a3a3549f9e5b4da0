package io.kith.relations.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
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
 *
 * <p>Questions about several sets of one user (they share the hash tag {@code {u:<id>}}, so one slot) are one script
 * call: it renews the TTL of each set present and answers membership in it, and names the missing ones; only those
 * are rebuilt and asked again. An eligible-follower page asks four of an author's sets inside {@link FollowerLists}'
 * page script, in the same way (present sets renewed and answered, missing ones named), and only the missing ones
 * come here.
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

  /** Every set a user has. */
  static final List<String> ALL = List.of(FOLLOWING, FRIENDS, BLOCKS, BLOCKED_BY, MUTES, HIDES, HIDDEN_BY);

  static final long TTL_SECONDS = 86_400;
  /** Generations outlive their sets, so that one cannot vanish while a rebuild is in flight. */
  static final long GENERATION_TTL_SECONDS = 2 * TTL_SECONDS;
  /** Most sets one question may name (their bits must fit the answer's masks). */
  static final int MAX_SETS = 30;
  private static final String MARKER = "0";
  private static final LuaScripts.Script ADD_IF_EXISTS = LuaScripts.load(HotSets.class, "hot-add-if-exists.lua");
  private static final LuaScripts.Script REMOVE = LuaScripts.load(HotSets.class, "hot-remove.lua");
  private static final LuaScripts.Script FILL = LuaScripts.load(HotSets.class, "hot-fill.lua");
  private static final LuaScripts.Script ASK = LuaScripts.load(HotSets.class, "hot-ask.lua");

  /** Loads the complete member list of a set from the record. */
  interface Loader {
    Future<List<Long>> load(String set, long user);
  }

  private final RedisAPI api;
  private final Loader loader;

  HotSets(Redis redis, Loader loader) {
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
    return memberships(user, List.of(set), list).map(masks -> {
      Set<Long> in = new HashSet<>();
      for (int i = 0; i < list.size(); i++) {
        if (masks[i] != 0) {
          in.add(list.get(i));
        }
      }
      return in;
    });
  }

  /** Whether {@code other} is in {@code user}'s set. */
  Future<Boolean> contains(String set, long user, long other) {
    return among(set, user, List.of(other)).map(s -> s.contains(other));
  }

  /**
   * For each of {@code ids}, in order, a bit mask of the sets of {@code user} that hold it: bit {@code i} for
   * {@code sets.get(i)}. Present sets answer in one round trip (which renews their TTL); missing ones are rebuilt,
   * then asked again together.
   */
  Future<int[]> memberships(long user, List<String> sets, List<Long> ids) {
    if (sets.size() > MAX_SETS) {
      throw new IllegalArgumentException("at most " + MAX_SETS + " sets per question");
    }
    if (ids.isEmpty()) {
      return Future.succeededFuture(new int[0]);
    }
    return ask(user, sets, ids).compose(first -> {
      if (first.missing() == 0) {
        return Future.succeededFuture(first.masks());
      }
      List<Integer> missing = new ArrayList<>();
      for (int i = 0; i < sets.size(); i++) {
        if ((first.missing() & (1 << i)) != 0) {
          missing.add(i);
        }
      }
      List<Future<Rebuilt>> rebuilds = missing.stream().map(i -> rebuild(sets.get(i), user)).toList();
      return Future.all(rebuilds).compose(done -> {
        List<Integer> stored = new ArrayList<>();
        for (int k = 0; k < missing.size(); k++) {
          if (done.<Rebuilt>resultAt(k).stored()) {
            stored.add(missing.get(k));
          }
        }
        Future<Answer> again = stored.isEmpty() ? Future.succeededFuture(null)
            : ask(user, stored.stream().map(sets::get).toList(), ids);
        return again.map(second -> {
          int[] masks = first.masks();
          for (int k = 0; k < missing.size(); k++) {
            int i = missing.get(k);
            int asked = stored.indexOf(i);
            if (asked >= 0 && (second.missing() & (1 << asked)) == 0) {
              for (int j = 0; j < ids.size(); j++) {
                if ((second.masks()[j] & (1 << asked)) != 0) {
                  masks[j] |= 1 << i;
                }
              }
            } else {
              // the rebuild lost a race with a write (or the set vanished at once): answer from what it loaded, as
              // fresh as a direct read; the next use builds the set again
              Set<Long> members = done.<Rebuilt>resultAt(k).members();
              for (int j = 0; j < ids.size(); j++) {
                if (members.contains(ids.get(j))) {
                  masks[j] |= 1 << i;
                }
              }
            }
          }
          return masks;
        });
      });
    });
  }

  /** One script call's answer: the missing sets' bits and a mask per id. */
  private record Answer(int missing, int[] masks) {
  }

  private Future<Answer> ask(long user, List<String> sets, List<Long> ids) {
    List<String> args = new ArrayList<>(sets.size() + ids.size() + 2);
    args.add(Integer.toString(sets.size()));
    sets.forEach(set -> args.add(key(set, user)));
    args.add(Long.toString(TTL_SECONDS));
    ids.forEach(id -> args.add(Long.toString(id)));
    return ASK.run(api, args).map(r -> {
      int[] masks = new int[ids.size()];
      for (int j = 0; j < masks.length; j++) {
        masks[j] = r.get(j + 1).toInteger();
      }
      return new Answer(r.get(0).toInteger(), masks);
    });
  }

  /** Adds {@code other} to {@code user}'s set if the set exists (else it will be built complete on next use). */
  Future<Void> add(String set, long user, long other) {
    return ADD_IF_EXISTS.run(api, List.of("2", key(set, user), generationKey(set, user), Long.toString(other),
        Long.toString(GENERATION_TTL_SECONDS))).mapEmpty();
  }

  /** Removes {@code other} from {@code user}'s set. */
  Future<Void> remove(String set, long user, long other) {
    return REMOVE.run(api, List.of("2", key(set, user), generationKey(set, user), Long.toString(other),
        Long.toString(GENERATION_TTL_SECONDS))).mapEmpty();
  }

  /** A rebuild's outcome: whether the set is in Redis now (stored, or built by someone else), and what it loaded. */
  private record Rebuilt(boolean stored, Set<Long> members) {
  }

  /**
   * Builds a missing set from MongoDB: reads the generation, loads, and stores the set only if the generation did
   * not move meanwhile (a concurrent write kept it from being stored otherwise).
   */
  private Future<Rebuilt> rebuild(String set, long user) {
    String key = key(set, user);
    String generationKey = generationKey(set, user);
    return api.get(generationKey).compose(g -> {
      String generation = g == null ? "0" : g.toString();
      return loader.load(set, user).compose(members -> {
        List<String> args = new ArrayList<>(members.size() + 6);
        args.add("2");
        args.add(key);
        args.add(generationKey);
        args.add(Long.toString(TTL_SECONDS));
        args.add(generation);
        args.add(MARKER);
        members.forEach(m -> args.add(Long.toString(m)));
        return FILL.run(api, args).map(stored -> new Rebuilt(stored.toInteger() == 1, new HashSet<>(members)));
      });
    });
  }

  /** For tests and tools: whether a set is present. */
  Future<Boolean> present(String set, long user) {
    return api.exists(List.of(key(set, user))).map(Response::toInteger).map(n -> n > 0);
  }
}
