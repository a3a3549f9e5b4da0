package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.activities.api.events.ActivityLeft;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * A user joining and leaving an activity: the checks around {@link Seats} (which holds the places and the waitlist)
 * and the membership answer.
 */
final class Joining {

  private final Seats seats;
  private final Effects effects;
  private final ActivityViews views;

  Joining(Seats seats, Effects effects, ActivityViews views) {
    this.seats = seats;
    this.effects = effects;
    this.views = views;
  }

  /** See {@link io.kith.activities.api.ActivitiesService#join}. */
  Future<JsonObject> join(long actor, long activityId) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      return views.visibleOne(actor, activityId).compose(h -> joinSeen(actor, h.doc()));
    });
  }

  private Future<JsonObject> joinSeen(long actor, JsonObject doc) {
    if (doc.getLong("organiser") == actor) {
      return Failures.fail(ActivitiesErrors.ORGANISER_CANNOT_JOIN, "you organise this activity");
    }
    Future<JsonObject> refused = Seats.notJoinable(doc, System.currentTimeMillis());
    if (refused != null) {
      return refused;
    }
    long activityId = doc.getLong("_id");
    return seats.join(doc, actor).compose(out -> membership(activityId, actor, out));
  }

  /** See {@link io.kith.activities.api.ActivitiesService#leave}. */
  Future<JsonObject> leave(long actor, long activityId) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      return views.one(actor, activityId).compose(h -> h == null
          ? Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity")
          : seats.leave(h.doc(), actor, false).compose(out -> left(actor, h.doc(), out)));
    });
  }

  private Future<JsonObject> left(long actor, JsonObject doc, Seats.Outcome out) {
    long activityId = doc.getLong("_id");
    if (out.changed()) {
      return effects.emit(new ActivityLeft(doc.getLong("_id"), doc.getLong("organiser"), doc.getString("title"),
          actor, null))
          .compose(v -> membership(activityId, actor, out));
    }
    // not taking part: answer only to someone who may see the activity
    return views.visibleOne(actor, activityId).compose(v -> membership(activityId, actor, out));
  }

  /** The answer of join and leave: {@code {activity, status, position?, participant_count, waitlist_count}}. */
  private Future<JsonObject> membership(long activityId, long actor, Seats.Outcome out) {
    return views.one(actor, activityId).map(h -> {
      JsonObject doc = h == null ? out.activity() : h.doc();
      String status = out.status();
      if (Activities.NONE.equals(status) && out.participation() != null
          && out.participation().getBoolean("invited", false)) {
        status = Activities.INVITED;
      }
      JsonObject answer = new JsonObject().put("activity", activityId).put("status", status)
          .put("participant_count", doc.getInteger("joined_count", 0))
          .put("waitlist_count", doc.getInteger("waiting", 0));
      if (Activities.WAITLISTED.equals(status) && h != null && h.waitRank() != null) {
        answer.put("position", h.waitRank() + 1);
      }
      return answer;
    });
  }
}
