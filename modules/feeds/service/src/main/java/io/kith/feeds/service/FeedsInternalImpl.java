package io.kith.feeds.service;

import io.kith.feeds.api.FeedsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The feeds operations other domains call on trust; like {@link FeedsServiceImpl}, it only delegates. */
final class FeedsInternalImpl implements FeedsInternal {

  private final Posts posts;

  FeedsInternalImpl(Posts posts) {
    this.posts = posts;
  }

  @Override
  public Future<JsonObject> visiblePosts(long viewer, List<Long> postIds) {
    return posts.visiblePosts(viewer, postIds);
  }
}
