package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.limit.RateLimiter;
import io.kith.relations.api.events.UserBlocked;
import io.kith.relations.api.events.UserUnblocked;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import static io.kith.relations.service.Paging.before;
import static io.kith.relations.service.Paging.clamp;

/**
 * Blocks, mutes ("don't see his posts") and hides ("don't let him see mine"): setting and clearing them, and the
 * actor's lists of each. A block also ends the follows both ways and the blocked user's pending request.
 */
final class Blocks {

  private static final long MINUTE = 60_000L;

  private final EdgeStore edges;
  private final HotSets sets;
  private final Follows follows;
  private final Targets targets;
  private final UserLists lists;
  private final EventPublisher events;
  private final RelationsSettings settings;
  private final RateLimiter limiter;

  Blocks(EdgeStore edges, HotSets sets, Follows follows, Targets targets, UserLists lists, EventPublisher events,
         RelationsSettings settings, RateLimiter limiter) {
    this.edges = edges;
    this.sets = sets;
    this.follows = follows;
    this.targets = targets;
    this.lists = lists;
    this.events = events;
    this.settings = settings;
    this.limiter = limiter;
  }

  Future<Void> block(long actor, long target) {
    return targets.other(actor, target).compose(x -> throttleBlocks(actor))
        .compose(x -> targets.withinLimit(actor, EdgeStore.BLOCK))
        .compose(x -> edges.insert(EdgeStore.BLOCK, actor, target))
        .compose(created -> cutTies(actor, target).map(x -> {
          if (created) {
            events.publish(new UserBlocked(actor, target));
          }
          return null;
        }));
  }

  /** What a new block changes besides its edge: the hot sets, the follows both ways, the target's request. */
  private Future<Void> cutTies(long actor, long target) {
    return Future.all(sets.add(HotSets.BLOCKS, actor, target), sets.add(HotSets.BLOCKED_BY, target, actor))
        .compose(x -> Future.all(follows.removeFollow(actor, target), follows.removeFollow(target, actor)))
        .compose(x -> edges.delete(EdgeStore.REQUEST, target, actor))
        .mapEmpty();
  }

  Future<Void> unblock(long actor, long target) {
    // requests a blocked user's follow stored while blocked (before such follows were refused) were never shown:
    // they go with the block
    return throttleBlocks(actor).compose(t -> edges.delete(EdgeStore.REQUEST, target, actor))
        .compose(x -> edges.delete(EdgeStore.BLOCK, actor, target))
        .compose(deleted ->
        Future.all(sets.remove(HotSets.BLOCKS, actor, target), sets.remove(HotSets.BLOCKED_BY, target, actor))
            .map(x -> {
              if (deleted) {
                events.publish(new UserUnblocked(actor, target));
              }
              return null;
            }));
  }

  /** The Redis key of {@code actor}'s block rate-limit window (an erasure deletes it). */
  static String limitKey(long actor) {
    return "rl:relations:blocks:" + actor;
  }

  /** Counts a block or unblock of {@code actor}: {@code rate_limited} past {@code blocks-per-minute}. */
  private Future<Void> throttleBlocks(long actor) {
    return limiter.enforce(limitKey(actor), MINUTE, settings.blocksPerMinute(),
        "too many blocks and unblocks (at most " + settings.blocksPerMinute() + " a minute); retry later");
  }

  Future<JsonObject> blocks(long actor, int limit, String cursor) {
    return Failures.guard(() -> lists.page(edges.page(EdgeStore.BLOCK, "a", actor, before(cursor), clamp(limit)),
        clamp(limit), "b", actor));
  }

  Future<Void> mute(long actor, long target) {
    return setEdge(EdgeStore.MUTE, HotSets.MUTES, actor, target);
  }

  Future<Void> unmute(long actor, long target) {
    return clearEdge(EdgeStore.MUTE, HotSets.MUTES, actor, target);
  }

  Future<JsonObject> mutes(long actor, int limit, String cursor) {
    return Failures.guard(() -> lists.shownPage(actor, UserLists.BLOCKING_VIEWER,
        (older, count) -> edges.page(EdgeStore.MUTE, "a", actor, older, count), "b", before(cursor), clamp(limit)));
  }

  Future<Void> hide(long actor, long target) {
    return setEdge(EdgeStore.HIDE, HotSets.HIDES, actor, target)
        .compose(v -> sets.add(HotSets.HIDDEN_BY, target, actor));
  }

  Future<Void> unhide(long actor, long target) {
    return clearEdge(EdgeStore.HIDE, HotSets.HIDES, actor, target)
        .compose(v -> sets.remove(HotSets.HIDDEN_BY, target, actor));
  }

  Future<JsonObject> hides(long actor, int limit, String cursor) {
    return Failures.guard(() -> lists.shownPage(actor, UserLists.BLOCKING_VIEWER,
        (older, count) -> edges.page(EdgeStore.HIDE, "a", actor, older, count), "b", before(cursor), clamp(limit)));
  }

  private Future<Void> setEdge(String type, String set, long actor, long target) {
    return targets.present(actor, target).compose(x -> targets.withinLimit(actor, type))
        .compose(x -> edges.insert(type, actor, target))
        .compose(created -> sets.add(set, actor, target));
  }

  private Future<Void> clearEdge(String type, String set, long actor, long target) {
    return edges.delete(type, actor, target).compose(x -> sets.remove(set, actor, target));
  }
}
