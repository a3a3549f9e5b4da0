package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

import static io.kith.relations.service.RelationsServiceImpl.items;

/** The relations queries other domains ask on trust; like {@link RelationsServiceImpl}, it only delegates. */
final class RelationsInternalImpl implements RelationsInternal {

  private final Follows follows;
  private final GraphQueries queries;

  RelationsInternalImpl(Follows follows, GraphQueries queries) {
    this.follows = follows;
    this.queries = queries;
  }

  @Override
  public Future<JsonObject> counts(long userId) {
    return follows.counts(userId);
  }

  @Override
  public Future<JsonObject> ties(long viewer, List<Long> userIds) {
    return queries.ties(viewer, userIds);
  }

  @Override
  public Future<Page> eligibleFollowers(long author, PageRequest page) {
    return items(queries.eligibleFollowers(author, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Page> followingIds(long userId, PageRequest page) {
    return items(queries.followingIds(userId, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Page> friendIds(long userId, PageRequest page) {
    return items(queries.friendIds(userId, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<JsonObject> placements(long viewer) {
    return queries.placements(viewer);
  }

  @Override
  public Future<JsonObject> placementsBy(long viewer, List<Long> owners) {
    return queries.placementsBy(viewer, owners);
  }
}
