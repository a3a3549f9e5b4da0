package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.relations.api.RelationsErrors;
import io.kith.relations.api.UserDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** Who an action or a list may concern: another existing user, not hidden by a block, within the outgoing limits. */
final class Targets {

  static final int MAX_OUTGOING = 10_000;

  private final EdgeStore edges;
  private final HotSets sets;
  private final UserDirectory accounts;

  Targets(EdgeStore edges, HotSets sets, UserDirectory accounts) {
    this.edges = edges;
    this.sets = sets;
    this.accounts = accounts;
  }

  /**
   * Like {@link #other}, and a user who blocks the actor is user_not_found too: they look absent to the actor, so
   * muting, hiding from or tagging them answers as for a missing user. (Blocking them back stays possible.)
   */
  Future<Void> present(long actor, long target) {
    return other(actor, target).compose(x -> sets.contains(HotSets.BLOCKED_BY, actor, target))
        .compose(blocked -> blocked ? Failures.<Void>fail(RelationsErrors.USER_NOT_FOUND, "no such user")
            : Future.succeededFuture());
  }

  /**
   * Checks that {@code target} is another existing user; yields whether they require approval of followers.
   */
  Future<Boolean> other(long actor, long target) {
    if (actor == target) {
      return Failures.fail(RelationsErrors.SELF_RELATION, "not allowed on yourself");
    }
    if (target <= 0) {
      return Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user");
    }
    return accounts.followSettings(List.of(target)).compose(found -> {
      JsonObject s = found.getJsonObject(Long.toString(target));
      return s == null ? Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user")
          : Future.succeededFuture(s.getBoolean("follow_approval", false));
    });
  }

  Future<Void> withinLimit(long actor, String type) {
    return edges.countOut(type, actor).compose(n -> n >= MAX_OUTGOING
        ? Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_OUTGOING + " of these per user")
        : Future.succeededFuture());
  }

  /** Another user's lists are visible unless a block stands between the two (then the user looks absent). */
  Future<Void> visibleList(long viewer, long userId) {
    if (viewer == userId) {
      return Future.succeededFuture();
    }
    return blockedEitherWay(viewer, userId).compose(blocked -> blocked
        ? Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user")
        : accounts.followSettings(List.of(userId)).compose(found -> found.containsKey(Long.toString(userId))
            ? Future.succeededFuture()
            : Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user")));
  }

  private Future<Boolean> blockedEitherWay(long a, long b) {
    return Future.all(sets.contains(HotSets.BLOCKS, a, b), sets.contains(HotSets.BLOCKED_BY, a, b))
        .map(r -> r.<Boolean>resultAt(0) || r.<Boolean>resultAt(1));
  }
}
