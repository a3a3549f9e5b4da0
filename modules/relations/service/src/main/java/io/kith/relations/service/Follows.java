package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.limit.RateLimiter;
import io.kith.relations.api.RelationsErrors;
import io.kith.relations.api.events.FollowRequested;
import io.kith.relations.api.events.FriendshipEnded;
import io.kith.relations.api.events.FriendshipFormed;
import io.kith.relations.api.events.UserFollowed;
import io.kith.relations.api.events.UserUnfollowed;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import static io.kith.relations.service.Paging.before;
import static io.kith.relations.service.Paging.clamp;

/**
 * Following: follow (or ask to, when the target requires approval), unfollow, the friendship that two follows make,
 * and the follower, following and friend lists with their counts. Requests and blocks make and remove follows through
 * {@link #doFollow} and {@link #removeFollow}.
 */
final class Follows {

  private static final long MINUTE = 60_000L;

  private final EdgeStore edges;
  private final HotSets sets;
  private final GroupStore groups;
  private final Targets targets;
  private final UserLists lists;
  private final EventPublisher events;
  private final RelationsSettings settings;
  private final RateLimiter limiter;

  Follows(EdgeStore edges, HotSets sets, GroupStore groups, Targets targets, UserLists lists, EventPublisher events,
          RelationsSettings settings, RateLimiter limiter) {
    this.edges = edges;
    this.sets = sets;
    this.groups = groups;
    this.targets = targets;
    this.lists = lists;
    this.events = events;
    this.settings = settings;
    this.limiter = limiter;
  }

  Future<JsonObject> follow(long actor, long target) {
    return throttleFollows(actor)
        .compose(t -> targets.other(actor, target))
        .compose(approval -> notBlocking(actor, target).map(approval))
        .compose(approval -> notBlockedBy(actor, target).map(approval))
        .compose(approval -> edges.exists(EdgeStore.FOLLOW, actor, target).compose(already -> already
            ? Future.succeededFuture(state("following")) : startFollowing(actor, target, approval)));
  }

  private Future<Void> notBlocking(long actor, long target) {
    return sets.contains(HotSets.BLOCKS, actor, target).compose(blocking -> blocking
        ? Failures.<Void>fail(RelationsErrors.BLOCKING, "you block this user; unblock them first")
        : Future.succeededFuture());
  }

  private Future<Void> notBlockedBy(long actor, long target) {
    // the blocker looks absent to the blocked user, as their profile does (404 by id and by username): a
    // pending request to a user whose profile is missing would be something no ordinary account shows
    return sets.contains(HotSets.BLOCKED_BY, actor, target).compose(blocked -> blocked
        ? Failures.<Void>fail(RelationsErrors.USER_NOT_FOUND, "no such user")
        : Future.succeededFuture());
  }

  /** A new follow within the actor's limit: a pending request when the target requires approval, else the edge. */
  private Future<JsonObject> startFollowing(long actor, long target, boolean approval) {
    return targets.withinLimit(actor, EdgeStore.FOLLOW).compose(v -> approval
        ? request(actor, target)
        : doFollow(actor, target).map(x -> state("following")));
  }

  private Future<JsonObject> request(long actor, long target) {
    return edges.insert(EdgeStore.REQUEST, actor, target).map(created -> {
      if (created) {
        events.publish(new FollowRequested(actor, target));
      }
      return state("requested");
    });
  }

  private static JsonObject state(String s) {
    return new JsonObject().put("state", s);
  }

  /** Creates the follow edge a→b with its counts, hot set, event and friendship. */
  Future<Void> doFollow(long a, long b) {
    return edges.insert(EdgeStore.FOLLOW, a, b).compose(created -> {
      if (!created) {
        return Future.succeededFuture();
      }
      return Future.all(edges.inc(a, "following", 1), edges.incFollowers(b, 1),
              sets.add(HotSets.FOLLOWING, a, b), edges.delete(EdgeStore.REQUEST, a, b))
          .compose(x -> {
            events.publish(new UserFollowed(a, b));
            return formFriendshipIfMutual(a, b);
          })
          // a block committed while this follow was being made wins: undo the follow
          .compose(x -> Future.all(edges.exists(EdgeStore.BLOCK, a, b), edges.exists(EdgeStore.BLOCK, b, a)))
          .compose(blocks -> blocks.<Boolean>resultAt(0) || blocks.<Boolean>resultAt(1)
              ? removeFollow(a, b) : Future.succeededFuture());
    });
  }

  private Future<Void> formFriendshipIfMutual(long a, long b) {
    return edges.exists(EdgeStore.FOLLOW, b, a).compose(mutual -> mutual
        ? Future.all(addFriendEdge(a, b), addFriendEdge(b, a)).compose(added -> friendshipFormed(a, b, added))
        : Future.succeededFuture());
  }

  private Future<Void> friendshipFormed(long a, long b, CompositeFuture added) {
    long low = Math.min(a, b);
    boolean canonicalNew = low == a ? added.<Boolean>resultAt(0) : added.<Boolean>resultAt(1);
    if (canonicalNew) {
      events.publish(new FriendshipFormed(a, b));
    }
    // a concurrent unfollow may have removed a follow edge meanwhile: re-check so no stale friendship stays
    return Future.all(edges.exists(EdgeStore.FOLLOW, a, b), edges.exists(EdgeStore.FOLLOW, b, a))
        .compose(still -> still.<Boolean>resultAt(0) && still.<Boolean>resultAt(1)
            ? Future.succeededFuture() : endFriendship(a, b));
  }

  private Future<Boolean> addFriendEdge(long a, long b) {
    return edges.insert(EdgeStore.FRIEND, a, b).compose(created -> !created ? Future.succeededFuture(false)
        : Future.all(edges.inc(a, "friends", 1), sets.add(HotSets.FRIENDS, a, b)).map(x -> true));
  }

  private Future<Boolean> removeFriendEdge(long a, long b) {
    return edges.delete(EdgeStore.FRIEND, a, b).compose(deleted -> !deleted ? Future.succeededFuture(false)
        : Future.all(edges.inc(a, "friends", -1), sets.remove(HotSets.FRIENDS, a, b),
            groups.removeEverywhere(a, b)).map(x -> true));
  }

  private Future<Void> endFriendship(long a, long b) {
    return Future.all(removeFriendEdge(a, b), removeFriendEdge(b, a)).map(removed -> {
      long low = Math.min(a, b);
      boolean canonicalGone = low == a ? removed.<Boolean>resultAt(0) : removed.<Boolean>resultAt(1);
      if (canonicalGone) {
        events.publish(new FriendshipEnded(a, b));
      }
      return null;
    });
  }

  Future<Void> unfollow(long actor, long target) {
    if (actor == target) {
      return Failures.fail(RelationsErrors.SELF_RELATION, "you cannot unfollow yourself");
    }
    return throttleFollows(actor).compose(t -> removeFollow(actor, target));
  }

  /**
   * Takes {@code follower}'s follow of the actor away through the unfollow path, so the same event cleans their home
   * timeline; not rate limited: it only shrinks the actor's own audience, bounded by its size.
   */
  Future<Void> removeFollower(long actor, long follower) {
    if (actor == follower) {
      return Failures.fail(RelationsErrors.SELF_RELATION, "you cannot remove yourself as a follower");
    }
    return removeFollow(follower, actor);
  }

  /** The Redis key of {@code actor}'s follow rate-limit window (an erasure deletes it). */
  static String limitKey(long actor) {
    return "rl:relations:follows:" + actor;
  }

  /** Counts a follow or unfollow of {@code actor}: {@code rate_limited} past {@code follows-per-minute}. */
  private Future<Void> throttleFollows(long actor) {
    return limiter.enforce(limitKey(actor), MINUTE, settings.followsPerMinute(),
        "too many follows and unfollows (at most " + settings.followsPerMinute() + " a minute); retry later");
  }

  /** Removes a→b (and a pending request a→b) with counts, hot set, events and friendship. */
  Future<Void> removeFollow(long a, long b) {
    return edges.delete(EdgeStore.REQUEST, a, b)
        .compose(v -> edges.delete(EdgeStore.FOLLOW, a, b))
        .compose(deleted -> {
          if (!deleted) {
            return Future.succeededFuture();
          }
          return Future.all(edges.inc(a, "following", -1), edges.incFollowers(b, -1),
                  sets.remove(HotSets.FOLLOWING, a, b))
              .compose(x -> {
                events.publish(new UserUnfollowed(a, b));
                return endFriendship(a, b);
              });
        });
  }

  Future<JsonObject> followers(long viewer, long userId, int limit, String cursor) {
    return Failures.guard(() -> {
      Long before = before(cursor);
      return targets.visibleList(viewer, userId).compose(v -> lists.shownPage(viewer, UserLists.BLOCKED_EITHER_WAY,
          (older, count) -> edges.page(EdgeStore.FOLLOW, "b", userId, older, count), "a", before, clamp(limit)));
    });
  }

  Future<JsonObject> following(long viewer, long userId, int limit, String cursor) {
    return Failures.guard(() -> {
      Long before = before(cursor);
      return targets.visibleList(viewer, userId).compose(v -> lists.shownPage(viewer, UserLists.BLOCKED_EITHER_WAY,
          (older, count) -> edges.page(EdgeStore.FOLLOW, "a", userId, older, count), "b", before, clamp(limit)));
    });
  }

  Future<JsonObject> friends(long actor, int limit, String cursor) {
    return Failures.guard(() -> lists.page(edges.page(EdgeStore.FRIEND, "a", actor, before(cursor), clamp(limit)),
        clamp(limit), "b", actor));
  }

  Future<JsonObject> counts(long userId) {
    return edges.counts(userId);
  }

  Future<JsonObject> countsFor(long viewer, long userId) {
    return targets.visibleList(viewer, userId).compose(v -> edges.counts(userId));
  }
}
