package io.kith.activities.service;

import io.kith.activities.api.ActivitiesInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The activities operations other domains call on trust; like {@link ActivitiesServiceImpl}, it only delegates. */
final class ActivitiesInternalImpl implements ActivitiesInternal {

  private final ActivityViews views;

  ActivitiesInternalImpl(ActivityViews views) {
    this.views = views;
  }

  @Override
  public Future<JsonObject> visibleActivities(long viewer, List<Long> activityIds) {
    return views.visibleActivities(viewer, activityIds);
  }
}
