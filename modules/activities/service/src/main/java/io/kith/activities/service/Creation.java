package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.events.ActivityCreated;
import io.kith.platform.error.Failures;
import io.kith.platform.id.IdGenerator;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Creating an activity: quota, cover, the MongoDB record, its Redis copy, {@code ActivityCreated}, the organiser's
 * view.
 */
final class Creation {

  private final IdGenerator ids;
  private final ActivitiesSettings settings;
  private final ActivityStore activities;
  private final HotActivities hot;
  private final Effects effects;
  private final Quotas quotas;
  private final Covers covers;
  private final ActivityViews views;

  Creation(IdGenerator ids, ActivitiesSettings settings, ActivityStore activities, HotActivities hot, Effects effects,
           Quotas quotas, Covers covers, ActivityViews views) {
    this.ids = ids;
    this.settings = settings;
    this.activities = activities;
    this.hot = hot;
    this.effects = effects;
    this.quotas = quotas;
    this.covers = covers;
    this.views = views;
  }

  /** See {@link io.kith.activities.api.ActivitiesService#create}. */
  Future<JsonObject> create(long actor, JsonObject body) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      long now = System.currentTimeMillis();
      JsonObject draft = ActivityDraft.create(body, now, settings.maxParticipants());
      // the id comes first: a cover is attached to the activity before it is stored
      long id = ids.next();
      return quotas.throttle("create", actor, settings.createsPerHour(), Quotas.HOUR, "activities per hour")
          .compose(v -> covers.check(actor, id, draft.getJsonObject("cover")))
          .compose(v -> insert(id, actor, draft, now))
          .compose(doc -> copyAndAnnounce(doc, now))
          .compose(doc -> views.viewOf(actor, doc, null));
    });
  }

  /** Stores the new record; answers it. */
  private Future<JsonObject> insert(long id, long actor, JsonObject draft, long now) {
    long start = draft.getLong("start");
    JsonObject doc = draft.copy().put("_id", id).put("organiser", actor).put("status", Activities.OPEN)
        .put("joined_count", 0).put("waiting", 0).putNull("discussion").put("disc_dirty", false)
        .put("remind_at", remindAt(settings, start, now)).put("reminded", false)
        .put("created", now).put("updated", now).put("v", 1L);
    return activities.insert(doc).map(doc);
  }

  /** The Redis copy (complete: a new activity has no participants) and {@code ActivityCreated}; answers the record. */
  private Future<JsonObject> copyAndAnnounce(JsonObject doc, long now) {
    return hot.putActivity(doc, true, now).recover(e -> effects.activity(doc))
        .compose(x -> effects.emit(new ActivityCreated(doc.getLong("_id"), doc.getLong("organiser"),
            doc.getString("title"), doc.getLong("start"), doc.getLong("end"), doc.getString("visibility"))))
        .map(doc);
  }

  /** When the reminder of an activity starting at {@code start} is due; null when that is already past. */
  static Long remindAt(ActivitiesSettings settings, long start, long now) {
    long at = start - settings.reminderBeforeSeconds() * 1000L;
    return at >= now ? at : null;
  }
}
