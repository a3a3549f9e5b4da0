package io.kith.activities.service;

import io.kith.activities.api.ActivitiesInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The activities operations other domains call on trust; like {@link ActivitiesServiceImpl}, it only delegates. */
final class ActivitiesInternalImpl implements ActivitiesInternal {

  private final ActivityViews views;
  private final ModeratorRemovals removals;

  ActivitiesInternalImpl(ActivityViews views, ModeratorRemovals removals) {
    this.views = views;
    this.removals = removals;
  }

  @Override
  public Future<JsonObject> visibleActivities(long viewer, List<Long> activityIds) {
    return views.visibleActivities(viewer, activityIds);
  }

  @Override
  public Future<JsonObject> removeByModerator(long activityId, JsonObject removal) {
    return removals.remove(activityId, removal);
  }

  @Override
  public Future<JsonObject> contentForModerator(long activityId) {
    return removals.forModerator(activityId);
  }
}
