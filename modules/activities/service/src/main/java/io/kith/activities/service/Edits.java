package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.activities.api.events.ActivityCancelled;
import io.kith.activities.api.events.ActivityUpdated;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The organiser changing their activity: an edit (plan → store → Redis copies, moved start, promotions →
 * {@code ActivityUpdated}) and cancelling (store → Redis copy → {@code ActivityCancelled}).
 */
final class Edits {

  private static final Logger LOG = LoggerFactory.getLogger(Edits.class);

  private final ActivitiesSettings settings;
  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final HotActivities hot;
  private final Seats seats;
  private final Effects effects;
  private final Covers covers;
  private final ActivityViews views;
  private final RelationsInternal relations;

  Edits(ActivitiesSettings settings, ActivityStore activities, ParticipantStore participants, HotActivities hot,
        Seats seats, Effects effects, Covers covers, ActivityViews views, RelationsInternal relations) {
    this.settings = settings;
    this.activities = activities;
    this.participants = participants;
    this.hot = hot;
    this.seats = seats;
    this.effects = effects;
    this.covers = covers;
    this.views = views;
    this.relations = relations;
  }

  /**
   * An edit as planned from the record and the changes: the fields that differ, the {@code $set}, the capacity the
   * stored update must still fit (null when unchanged) and whether the start moves.
   */
  private record Edit(List<String> changed, JsonObject set, Integer capFilter, boolean startChanged) {
  }

  /** See {@link io.kith.activities.api.ActivitiesService#update}. */
  Future<JsonObject> update(long actor, long activityId, JsonObject changes) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      JsonObject ch = ActivityDraft.changes(changes, settings.maxParticipants());
      return views.organisersOwn(actor, activityId).compose(doc -> edit(actor, doc, ch));
    });
  }

  private Future<JsonObject> edit(long actor, JsonObject doc, JsonObject ch) {
    long now = System.currentTimeMillis();
    if (doc.getLong("end") <= now) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_STARTED, "the activity is over");
    }
    Edit edit = plan(doc, ch, now);
    if (edit.changed().isEmpty()) {
      return views.viewOf(actor, doc, null);
    }
    long activityId = doc.getLong("_id");
    Future<Void> cover = edit.changed().contains("cover") ? covers.check(actor, activityId, ch.getJsonObject("cover"))
        : Future.succeededFuture();
    return cover.compose(v -> activities.update(activityId, actor, edit.set(), edit.capFilter(), now))
        .compose(updated -> updated == null ? notUpdated(activityId, edit.capFilter())
            : updated(actor, updated, edit));
  }

  /** What changes: checks the times (a moved start must be in the future) and builds the {@code $set}. */
  private Edit plan(JsonObject doc, JsonObject ch, long now) {
    long start = ch.containsKey("start") ? ch.getLong("start") : doc.getLong("start");
    long end = ch.containsKey("end") ? ch.getLong("end") : doc.getLong("end");
    boolean startChanged = start != doc.getLong("start");
    ActivityDraft.checkTimes(start, end, now, startChanged);
    List<String> changed = new ArrayList<>();
    for (String field : ActivityDraft.FIELDS) {
      if (ch.containsKey(field) && !same(ch.getValue(field), doc.getValue(field))) {
        changed.add(field);
      }
    }
    JsonObject set = new JsonObject();
    changed.forEach(f -> set.put(f, ch.getValue(f)));
    if (startChanged) {
      set.put("remind_at", Creation.remindAt(settings, start, now)).put("reminded", false);
    }
    Integer newCap = null;
    if (changed.contains("capacity")) {
      Integer capacity = ch.getInteger("capacity");
      newCap = capacity == null ? settings.maxParticipants() : capacity;
    }
    return new Edit(changed, set, newCap, startChanged);
  }

  /** Why the stored update matched nothing: cancelled, a capacity below who joined, or a concurrent change. */
  private Future<JsonObject> notUpdated(long activityId, Integer capFilter) {
    return activities.byId(activityId).compose(d -> {
      if (d != null && Activities.CANCELLED.equals(d.getString("status"))) {
        return Failures.fail(ActivitiesErrors.ACTIVITY_CANCELLED, "the activity was cancelled");
      }
      if (d != null && capFilter != null && d.getInteger("joined_count", 0) > capFilter) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "capacity", "capacity cannot be below the "
            + d.getInteger("joined_count") + " participants who joined");
      }
      return Failures.fail(KithErrors.CONFLICT, "the activity changed meanwhile; try again");
    });
  }

  private Future<JsonObject> updated(long actor, JsonObject updated, Edit edit) {
    long activityId = updated.getLong("_id");
    return afterUpdate(updated, edit.changed(), edit.startChanged())
        .compose(v -> activities.byId(activityId))
        .compose(latest -> views.viewOf(actor, latest == null ? updated : latest, null));
  }

  /** Redis copies, participants' lists, promotions and the event after an edit. */
  private Future<Void> afterUpdate(JsonObject doc, List<String> changed, boolean startChanged) {
    long id = doc.getLong("_id");
    Future<List<Long>> joined = participants.joinedIds(id, settings.maxParticipants());
    return effects.activity(doc).compose(v -> joined)
        .compose(users -> followUp(doc, users, changed, startChanged));
  }

  /** The moved start and promotions for {@code users} (who joined), then {@code ActivityUpdated} naming them. */
  private Future<Void> followUp(JsonObject doc, List<Long> users, List<String> changed, boolean startChanged) {
    long id = doc.getLong("_id");
    Future<List<Long>> told = toldOf(doc, users);
    Future<Void> moved = !startChanged ? Future.succeededFuture() : moveStart(id, users, doc.getLong("start"));
    Future<Void> promoted = changed.contains("capacity") || changed.contains("start")
        ? moved.compose(x -> seats.fill(id)) : moved;
    return promoted.compose(x -> told).compose(named -> effects.emit(new ActivityUpdated(doc.getLong("_id"),
        doc.getLong("organiser"), doc.getString("title"), changed, doc.getLong("start"), doc.getLong("end"),
        doc.getJsonObject("place"), named)));
  }

  /** The new start in the participations and the participants' joined lists (Redis: repaired by the next load). */
  private Future<Void> moveStart(long id, List<Long> users, long start) {
    return participants.setStart(id, start)
        .compose(x -> hot.restart(id, users, start).recover(e -> Future.succeededFuture()));
  }

  /**
   * The participants an event about the activity names: {@code users} without those in a block with the organiser.
   * When relations cannot answer nobody is named (logged): the edit is made, its event tells no one rather than
   * someone who should not be told.
   */
  private Future<List<Long>> toldOf(JsonObject doc, List<Long> users) {
    return Access.withoutBlocks(relations, doc.getLong("organiser"), users).recover(e -> {
      LOG.warn("Activity {}: participants not named in its event (relations: {})", doc.getLong("_id"), e.toString());
      return Future.succeededFuture(List.of());
    });
  }

  private static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    if (a instanceof JsonObject x && b instanceof JsonObject y) {
      if (!x.fieldNames().equals(y.fieldNames())) {
        return false;
      }
      for (String f : x.fieldNames()) {
        if (!same(x.getValue(f), y.getValue(f))) {
          return false;
        }
      }
      return true;
    }
    return Objects.equals(a, b);
  }

  /** See {@link io.kith.activities.api.ActivitiesService#cancel}. */
  Future<JsonObject> cancel(long actor, long activityId) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      return views.organisersOwn(actor, activityId).compose(doc -> cancelOpen(actor, doc));
    });
  }

  /** Cancels once: an already cancelled activity, or one cancelled meanwhile, answers its view unchanged. */
  private Future<JsonObject> cancelOpen(long actor, JsonObject doc) {
    if (Activities.CANCELLED.equals(doc.getString("status"))) {
      return views.viewOf(actor, doc, null);
    }
    long activityId = doc.getLong("_id");
    return activities.cancel(activityId, actor, System.currentTimeMillis())
        .compose(cancelled -> cancelled == null
            ? activities.byId(activityId).compose(d -> views.viewOf(actor, d, null))
            : cancelled(actor, cancelled));
  }

  /**
   * The Redis copy and {@code ActivityCancelled} naming the participants; answers the organiser's view. A moderator's
   * removal ({@link ModeratorRemovals}) ends the same way.
   */
  Future<JsonObject> cancelled(long actor, JsonObject cancelled) {
    return announce(cancelled, false).compose(v -> views.viewOf(actor, cancelled, null));
  }

  /**
   * Cancels an open activity of an organiser whose account is being erased, by the organiser's own path (so the
   * participants get the notice a cancel gives), its event marked {@code organiser_deleted}; true when this call
   * cancelled it.
   */
  Future<Boolean> cancelOfDeleted(JsonObject doc) {
    return activities.cancel(doc.getLong("_id"), doc.getLong("organiser"), System.currentTimeMillis())
        .compose(cancelled -> cancelled == null ? Future.succeededFuture(false)
            : announce(cancelled, true).map(true));
  }

  private Future<Void> announce(JsonObject cancelled, boolean organiserDeleted) {
    long activityId = cancelled.getLong("_id");
    return effects.activity(cancelled)
        .compose(v -> participants.joinedIds(activityId, settings.maxParticipants()))
        .compose(joined -> toldOf(cancelled, joined))
        .compose(users -> effects.emit(new ActivityCancelled(cancelled.getLong("_id"), cancelled.getLong("organiser"),
            cancelled.getString("title"), cancelled.getLong("start"), users, organiserDeleted)));
  }
}
