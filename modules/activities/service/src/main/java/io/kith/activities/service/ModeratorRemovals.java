package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Moderation's side of activities (issue 22): an activity removed on a moderator's decision is cancelled as by its
 * organiser (the Redis copy follows, participants are told through {@code ActivityCancelled}) and marked removed, so
 * the visibility rule ({@link Access#canSee}) hides it from everyone; only the moderators' view still reads it.
 */
final class ModeratorRemovals {

  private final ActivityStore activities;
  private final Effects effects;
  private final Edits edits;

  ModeratorRemovals(ActivityStore activities, Effects effects, Edits edits) {
    this.activities = activities;
    this.effects = effects;
    this.edits = edits;
  }

  Future<JsonObject> remove(long activityId, JsonObject removal) {
    return activities.byId(activityId).compose(before -> {
      if (before == null) {
        return notFound();
      }
      long organiser = before.getLong("organiser");
      JsonObject owner = new JsonObject().put("owner", organiser);
      boolean wasOpen = Activities.OPEN.equals(before.getString("status"));
      return activities.markRemoved(activityId, removal, removal.getLong("at", System.currentTimeMillis()))
          .compose(after -> after == null ? Future.succeededFuture()
              : wasOpen ? edits.cancelled(organiser, after).mapEmpty() : effects.activity(after))
          .map(owner);
    });
  }

  Future<JsonObject> forModerator(long activityId) {
    return activities.byId(activityId).compose(doc -> {
      if (doc == null) {
        return notFound();
      }
      JsonObject view = doc.copy();
      view.put("id", view.remove("_id"));
      return Future.succeededFuture(view);
    });
  }

  private static <T> Future<T> notFound() {
    return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
  }
}
