package io.kith.platform.store;

import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Response;

import java.util.List;

/**
 * Members of a sorted set (such as a geo set of positions or places) that expire one by one: their deadlines live in
 * a second sorted set beside it, and a sweep removes the members whose deadline has passed from both. Accounts' nearby
 * positions and activities' nearby set share it.
 */
public final class ExpiringMembers {

  private static final LuaScripts.Script SWEEP = LuaScripts.load(ExpiringMembers.class, "sweep-expired.lua");

  private ExpiringMembers() {
  }

  /**
   * Removes up to 1,000 members of {@code set} whose deadline in {@code deadlines} is at or before {@code now}, from
   * both, atomically (a member renewed meanwhile is never swept); returns how many. The two keys must share a hash
   * slot (a hash tag) on Redis Cluster.
   */
  public static Future<Integer> sweep(Redis redis, String set, String deadlines, long now) {
    return SWEEP.run(redis, List.of(2, set, deadlines, now)).map(Response::toInteger);
  }
}
