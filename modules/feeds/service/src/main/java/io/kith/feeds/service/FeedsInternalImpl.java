package io.kith.feeds.service;

import io.kith.feeds.api.FeedsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The feeds operations other domains call on trust; like {@link FeedsServiceImpl}, it only delegates. */
final class FeedsInternalImpl implements FeedsInternal {

  private final Posts posts;
  private final ModeratorRemovals removals;

  FeedsInternalImpl(Posts posts, ModeratorRemovals removals) {
    this.posts = posts;
    this.removals = removals;
  }

  @Override
  public Future<JsonObject> visiblePosts(long viewer, List<Long> postIds) {
    return posts.visiblePosts(viewer, postIds);
  }

  @Override
  public Future<JsonObject> commentSeenBy(long viewer, long commentId) {
    return removals.commentSeenBy(viewer, commentId);
  }

  @Override
  public Future<JsonObject> removeByModerator(String type, long id, JsonObject removal) {
    return removals.remove(type, id, removal);
  }

  @Override
  public Future<JsonObject> releaseHeld(String type, long id) {
    return removals.release(type, id);
  }

  @Override
  public Future<JsonObject> contentForModerator(String type, long id) {
    return removals.forModerator(type, id);
  }
}
