package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.events.ActivityStartingSoon;
import io.kith.platform.Platform;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The sweep every node runs every {@code sweep-interval-ms}: reminders that are due, started activities out of the
 * nearby set, and a warm load when Redis lost its {@code act:warm} marker (it was emptied).
 *
 * <p>A reminder is sent exactly once however many nodes sweep: a node takes a due activity off {@code act:due} with
 * {@code ZREM} (only one node gets 1), then claims it on the record ({@code reminded: false -> true}, a conditional
 * update: after a Redis rebuild re-queued it, only one claim can still succeed), and only then appends
 * {@code ActivityStartingSoon}. If the append fails the claim is given back and the reminder re-queued.
 */
final class Reminders {

  private static final Logger LOG = LoggerFactory.getLogger(Reminders.class);
  private static final int DUE_BATCH = 100;

  private final Platform platform;
  private final ActivitiesSettings settings;
  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final HotActivities hot;
  private final WarmStart loader;
  private final Effects effects;
  private final RelationsInternal relations;
  private long timer = -1;
  private boolean sweeping;

  Reminders(Platform platform, ActivitiesSettings settings, ActivityStore activities, ParticipantStore participants,
            HotActivities hot, WarmStart loader, Effects effects, RelationsInternal relations) {
    this.platform = platform;
    this.settings = settings;
    this.activities = activities;
    this.participants = participants;
    this.hot = hot;
    this.loader = loader;
    this.effects = effects;
    this.relations = relations;
  }

  void start() {
    timer = platform.vertx().setPeriodic(settings.sweepIntervalMillis(), id -> sweep());
  }

  void stop() {
    if (timer >= 0) {
      platform.vertx().cancelTimer(timer);
    }
  }

  /** One sweep (skipped while the previous one runs). */
  Future<Void> sweep() {
    if (sweeping) {
      return Future.succeededFuture();
    }
    sweeping = true;
    long now = System.currentTimeMillis();
    Future<Void> warm = hot.warm().compose(ok -> ok ? Future.succeededFuture() : loader.loadAll().mapEmpty());
    return warm
        .compose(v -> effects.repair())
        .compose(v -> hot.sweepStarted(now))
        .compose(v -> hot.due(now, DUE_BATCH))
        .compose(due -> {
          List<Future<Void>> each = new ArrayList<>();
          due.forEach(id -> each.add(hot.takeDue(id)
              .compose(mine -> mine ? remind(id, System.currentTimeMillis()) : Future.succeededFuture())));
          return Future.join(each).mapEmpty();
        })
        .<Void>mapEmpty()
        .onFailure(e -> LOG.warn("Activities sweep failed (next one retries): {}", e.toString()))
        .eventually(() -> {
          sweeping = false;
          return Future.succeededFuture();
        });
  }

  /** Sends the reminder of an activity this node took off the queue at {@code now}. */
  Future<Void> remind(long id, long now) {
    return activities.claimReminder(id, now).compose(doc -> {
      if (doc == null) {
        // cancelled, started, reminded already (by another node after a rebuild), or not due: the start moved later
        // after this sweep read the old entry (and its ZREM may have taken the new one): re-queue at the new time
        return requeueIfPending(id, now);
      }
      // participants in a block with the organiser are not told (relations failing: re-queued below, retried)
      return participants.joinedIds(id, settings.maxParticipants())
          .compose(joined -> Access.withoutBlocks(relations, doc.getLong("organiser"), joined))
          .compose(users -> platform.events().publisher(ActivitiesEvents.DOMAIN).append(new ActivityStartingSoon(
              doc.getLong("_id"), doc.getLong("organiser"), doc.getString("title"), doc.getLong("start"),
              doc.getJsonObject("place"), users)))
          .compose(appended -> effects.activity(doc))
          .recover(e -> {
            LOG.warn("Reminder of activity {} not sent, re-queued: {}", id, e.toString());
            return activities.unclaimReminder(id, System.currentTimeMillis())
                .compose(back -> hot.requeueDue(id, doc.getLong("remind_at", now)));
          });
    });
  }

  /** Puts an unclaimed reminder back on the queue at the record's time when it is still to be sent later. */
  private Future<Void> requeueIfPending(long id, long now) {
    return activities.byId(id).compose(doc -> {
      Long remindAt = doc == null ? null : doc.getLong("remind_at");
      if (remindAt == null || remindAt <= now || doc.getBoolean("reminded", false)
          || !Activities.OPEN.equals(doc.getString("status")) || doc.getLong("start") <= now) {
        return Future.succeededFuture();
      }
      return hot.requeueDue(id, remindAt);
    });
  }
}
