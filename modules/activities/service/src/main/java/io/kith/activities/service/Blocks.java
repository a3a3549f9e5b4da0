package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.events.ActivityLeft;
import io.kith.platform.Platform;
import io.kith.platform.events.ConsumerSet;
import io.kith.platform.events.DomainEvent;
import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.events.RelationsEvent;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;

/**
 * Consumes relations' {@code UserBlocked} (group {@value #GROUP}, {@code once}-guarded): a block, either way, takes
 * the other user out of the organiser's upcoming activities (open, not started) where they hold a place or wait, as a
 * plain leave: the place goes to the first waiter and {@code ActivityLeft} is appended without {@code removed_by}
 * (the discussion consumer takes them out of the group; notifications only withdraw the organiser's notice of the
 * join, nobody is told of a removal, so the block stays unseen). The user keeps an invitation they held (it is
 * unusable while the block stands: the activity is hidden from them) and may join again after an unblock.
 * Replays converge: a leave is idempotent, and a block no longer standing (a late retry after an unblock) does
 * nothing, so a user who came back after an unblock is not taken out again.
 */
final class Blocks {

  /** Consumer group of this module on the relations stream. */
  static final String GROUP = "activities-blocks";
  /** Most upcoming activities of one organiser looked at per block. */
  private static final int UPCOMING = 1_000;

  private final Platform platform;
  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final Seats seats;
  private final Effects effects;
  private final RelationsInternal relations;
  private final ConsumerSet consumers;

  Blocks(Platform platform, ActivityStore activities, ParticipantStore participants, Seats seats, Effects effects,
         RelationsInternal relations) {
    this.platform = platform;
    this.activities = activities;
    this.participants = participants;
    this.seats = seats;
    this.effects = effects;
    this.relations = relations;
    this.consumers = new ConsumerSet(platform.events());
  }

  Future<Void> start() {
    return consumers.once(RelationsEvents.DOMAIN, GROUP, this::handle);
  }

  Future<Void> stop() {
    return consumers.stop();
  }

  private Future<?> handle(DomainEvent event) {
    if (!RelationsEvents.USER_BLOCKED.equals(event.type())) {
      return Future.succeededFuture();
    }
    RelationsEvent blocked = RelationsEvent.fromJson(event.type(), event.payload());
    long from = blocked.from();
    long to = blocked.to();
    if (from <= 0 || to <= 0) {
      return Future.succeededFuture();
    }
    return relations.ties(from, List.of(to)).compose(ties -> !Access.blocked(ties.getJsonObject(Long.toString(to)))
        ? Future.succeededFuture()
        : Future.all(leaveAll(from, to), leaveAll(to, from)));
  }

  /** Takes {@code user} out of every upcoming activity {@code organiser} organises. */
  Future<Void> leaveAll(long organiser, long user) {
    long now = System.currentTimeMillis();
    return activities.organisedFrom(organiser, now, UPCOMING).compose(list -> {
      List<Future<Void>> each = new ArrayList<>();
      list.forEach(a -> each.add(leaveOne(a.getLong("_id"), user)));
      return Future.all(each).mapEmpty();
    });
  }

  private Future<Void> leaveOne(long id, long user) {
    return participants.find(id, user).compose(part -> {
      String status = part == null ? Activities.NONE : part.getString("status");
      if (!Activities.JOINED.equals(status) && !Activities.WAITLISTED.equals(status)) {
        return Future.succeededFuture();
      }
      return activities.byId(id).compose(doc -> doc == null || !Activities.OPEN.equals(doc.getString("status"))
          ? Future.succeededFuture()
          : seats.leave(doc, user, false).compose(out -> out.changed()
              ? effects.emit(new ActivityLeft(doc.getLong("_id"), doc.getLong("organiser"),
                  doc.getString("title"), user, null))
              : Future.succeededFuture()));
    });
  }
}
