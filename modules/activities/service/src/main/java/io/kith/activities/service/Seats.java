package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.activities.api.events.ActivityJoined;
import io.kith.platform.error.Failures;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Places and the waitlist: the only code that moves {@code joined_count} and {@code waiting} and participations
 * between {@code none}, {@code joined}, {@code waitlisted} and {@code removed}.
 *
 * <p>Joining claims a place on the activity document first (conditional {@code $inc}: {@code joined_count < cap},
 * nobody waiting, open, not started), then makes the participation (insert under the unique (activity, user) index,
 * or a conditional update from {@code none}); when that second step loses a race (the same user joining twice at once)
 * the place is given back. Leaving gives the place back and then fills free places from the waitlist in order:
 * claim a promotion (one place taken, one waiter fewer), then move the first waiter to {@code joined}; if they left
 * meanwhile, undo and take the next. Every step is a single-document atomic update, so any number of nodes may do
 * this at once and the count of joined participants never exceeds the capacity.
 */
final class Seats {

  /** Retries of a join whose claim lost to a concurrent change (capacity edit, a freed place). */
  private static final int JOIN_ATTEMPTS = 5;

  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final Effects effects;
  private final IdGenerator ids;
  private final ActivitiesSettings settings;
  /** The tail of each (activity, user) chain of joins on this node (touched on the verticle's event loop only). */
  private final Map<String, Future<?>> joining = new HashMap<>();

  Seats(ActivityStore activities, ParticipantStore participants, Effects effects, IdGenerator ids,
        ActivitiesSettings settings) {
    this.activities = activities;
    this.participants = participants;
    this.effects = effects;
    this.ids = ids;
    this.settings = settings;
  }

  /** The number of places an activity has: its capacity, or the configured cap when it has none. */
  int cap(JsonObject doc) {
    Integer capacity = doc.getInteger("capacity");
    return capacity == null ? settings.maxParticipants() : Math.min(capacity, settings.maxParticipants());
  }

  /**
   * The outcome of a join or leave: the user's participation (null: none), the activity afterwards, and whether this
   * call changed it (false when it answered an earlier state again).
   */
  record Outcome(JsonObject participation, JsonObject activity, boolean changed) {
    String status() {
      return participation == null ? Activities.NONE : participation.getString("status");
    }
  }

  // ---------------------------------------------------------------- join

  /**
   * Joins {@code user} to an activity they may see (checked by the caller), or puts them on its waitlist. The caller
   * has checked it is open, not started and not the organiser's.
   */
  Future<Outcome> join(JsonObject doc, long user) {
    return serially(doc.getLong("_id") + ":" + user, () -> attempt(doc, user, 0));
  }

  /**
   * Runs {@code work} after this node's earlier join of the same user and activity: a client retrying at once makes
   * one claim at a time instead of briefly holding several places (across nodes the unique index still decides).
   */
  private <T> Future<T> serially(String key, Supplier<Future<T>> work) {
    Future<?> tail = joining.getOrDefault(key, Future.succeededFuture());
    Future<T> mine = tail.transform(ignored -> Failures.guard(work));
    joining.put(key, mine);
    mine.onComplete(ar -> joining.remove(key, mine));
    return mine;
  }

  private Future<Outcome> attempt(JsonObject doc, long user, int attempt) {
    long id = doc.getLong("_id");
    return participants.find(id, user).compose(part -> claim(doc, user, part, attempt));
  }

  /**
   * The answer to a join, leave or removal that finds it was done already: a retry, whose first call may have stored
   * the change and then failed (or died) before copying it to Redis. The activity and the participation are copied
   * again (versioned copies: a copy already there changes nothing).
   */
  private Future<Outcome> copiedAgain(JsonObject doc, JsonObject part) {
    return activities.byId(doc.getLong("_id")).compose(latest -> {
      JsonObject now = latest == null ? doc : latest;
      return effects.activity(latest).compose(v -> effects.tryParticipant(part, now))
          .compose(taken -> Effects.copied(taken, new Outcome(part, now, false)));
    });
  }

  /** Claims a place for a user not taking part yet (their participation {@code part}, or null). */
  private Future<Outcome> claim(JsonObject doc, long user, JsonObject part, int attempt) {
    long id = doc.getLong("_id");
    if (part != null) {
      String status = part.getString("status");
      if (Activities.JOINED.equals(status) || Activities.WAITLISTED.equals(status)) {
        return copiedAgain(doc, part);
      }
      if (Activities.REMOVED.equals(status)) {
        return Failures.fail(ActivitiesErrors.PARTICIPANT_REMOVED,
            "the organiser removed you from this activity");
      }
    }
    if (attempt >= JOIN_ATTEMPTS) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_FULL, "no place could be taken; try again");
    }
    long now = System.currentTimeMillis();
    String via = part != null && part.getBoolean("invited", false) ? "invitation" : "join";
    return activities.claimPlace(id, doc.getInteger("capacity"), cap(doc), now).compose(claimed -> claimed != null
        ? seat(id, claimed, user, part, via, now, attempt)
        : activities.byId(id).compose(now2 -> refusedPlace(now2, user, part, attempt)));
  }

  /** A place was claimed: the user's participation takes it. */
  private Future<Outcome> seat(long id, JsonObject claimed, long user, JsonObject part, String via, long now,
                               int attempt) {
    return become(claimed, user, part, Activities.JOINED, now).compose(made -> made != null
        ? joined(claimed, made, via).compose(taken -> Effects.copied(taken, new Outcome(made, claimed, true)))
        // the same user's other join won: give the place back, answer what that one made
        : giveBack(id, -1, 0).compose(v -> attempt(claimed, user, attempt + 1)));
  }

  /** No place was claimed: why, and what then (waitlist, retry, refusal). */
  private Future<Outcome> refusedPlace(JsonObject doc, long user, JsonObject part, int attempt) {
    long now = System.currentTimeMillis();
    Future<Outcome> refused = notJoinable(doc, now);
    if (refused != null) {
      return refused;
    }
    boolean placeFree = doc.getInteger("joined_count", 0) < cap(doc);
    if (placeFree && doc.getInteger("waiting", 0) <= 0) {
      // a place was freed or the capacity changed between the read and the claim
      return attempt(doc, user, attempt + 1);
    }
    // the same user's concurrent join (another node) may hold the place that made it look full
    return participants.find(doc.getLong("_id"), user).compose(latest -> {
      if (latest != null && (Activities.JOINED.equals(latest.getString("status"))
          || Activities.WAITLISTED.equals(latest.getString("status")))) {
        return Future.succeededFuture(new Outcome(latest, doc, false));
      }
      if (!doc.getBoolean("waitlist", false)) {
        return Failures.fail(ActivitiesErrors.ACTIVITY_FULL, "every place is taken");
      }
      return waitFor(doc, user, latest, now);
    });
  }

  /** The refusal for an activity that cannot be joined any more, or null. */
  static <T> Future<T> notJoinable(JsonObject doc, long now) {
    if (doc == null) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
    }
    if (Activities.CANCELLED.equals(doc.getString("status"))) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_CANCELLED, "the activity was cancelled");
    }
    if (doc.getLong("start") <= now) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_STARTED, "the activity has already started");
    }
    return null;
  }

  private Future<Outcome> waitFor(JsonObject doc, long user, JsonObject part, long now) {
    long id = doc.getLong("_id");
    return activities.claimWaitSlot(id, settings.maxWaitlist(), now).compose(slot -> slot == null
        ? noWaitSlot(id)
        : become(slot, user, part, Activities.WAITLISTED, now).compose(made -> waiting(id, slot, user, made)));
  }

  /** No waitlist slot was claimed: the activity cannot be joined any more, or its waitlist is full. */
  private Future<Outcome> noWaitSlot(long id) {
    return activities.byId(id).compose(d -> {
      Future<Outcome> refused = notJoinable(d, System.currentTimeMillis());
      return refused != null ? refused
          : Failures.fail(ActivitiesErrors.WAITLIST_FULL, "every place is taken and the waitlist is full");
    });
  }

  /** A waitlist slot was claimed: the user waits ({@code made}), or the same user's other join won (null). */
  private Future<Outcome> waiting(long id, JsonObject slot, long user, JsonObject made) {
    if (made == null) {
      return giveBack(id, 0, -1).compose(v -> attempt(slot, user, JOIN_ATTEMPTS - 1));
    }
    return effects.activity(slot).compose(v -> effects.tryParticipant(made, slot))
        // a place may have been freed while this user was being put on the waitlist
        .compose(taken -> fill(id).map(taken))
        .compose(taken -> participants.find(id, user)
            .compose(now2 -> activities.byId(id).map(d -> new Outcome(now2, d, true)))
            .compose(out -> Effects.copied(taken, out)));
  }

  /**
   * Makes the participation: an insert for a first one, else a conditional update from {@code none}. Null when a
   * concurrent change of the same user won.
   */
  private Future<JsonObject> become(JsonObject doc, long user, JsonObject part, String status, long now) {
    long id = doc.getLong("_id");
    long seq = ids.next();
    if (part == null) {
      return participants.insert(id, user, status, false, seq, doc.getLong("start"), now)
          .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture(null) : Future.failedFuture(e));
    }
    return participants.transition(id, user, List.of(Activities.NONE),
        new JsonObject().put("status", status).put("seq", seq).put("since", now).put("start", doc.getLong("start")));
  }

  /** Copies a new place and appends its event; answers whether Redis took the participation's copy. */
  private Future<Boolean> joined(JsonObject doc, JsonObject part, String via) {
    return effects.activity(doc)
        .compose(v -> effects.tryParticipant(part, doc))
        .compose(taken -> effects.emit(new ActivityJoined(doc.getLong("_id"), doc.getLong("organiser"),
            doc.getString("title"), part.getLong("user"), via)).map(taken));
  }

  /** Gives back a place ({@code -1, 0}) or a waitlist slot ({@code 0, -1}); then fills free places. */
  private Future<Void> giveBack(long id, int joined, int waiting) {
    return activities.move(id, joined, waiting, System.currentTimeMillis())
        .compose(effects::activity)
        .compose(v -> joined < 0 ? fill(id) : Future.succeededFuture());
  }

  // ---------------------------------------------------------------- leave and remove

  /**
   * Takes {@code user} out of an activity's places or waitlist: to {@code none} (left) or {@code removed} (by the
   * organiser, who also takes back the invitation). Null participation when they were not taking part.
   */
  Future<Outcome> leave(JsonObject doc, long user, boolean removed) {
    long id = doc.getLong("_id");
    return participants.find(id, user).compose(part -> {
      String status = part == null ? Activities.NONE : part.getString("status");
      boolean joined = Activities.JOINED.equals(status);
      if (!joined && !Activities.WAITLISTED.equals(status)) {
        return part == null ? Future.succeededFuture(new Outcome(null, doc, false)) : copiedAgain(doc, part);
      }
      JsonObject set = new JsonObject().put("status", removed ? Activities.REMOVED : Activities.NONE)
          .put("since", System.currentTimeMillis());
      if (removed) {
        set.put("invited", false);
      }
      return participants.transition(id, user, List.of(status), set).compose(moved -> moved == null
          // a concurrent leave or promotion changed it first: look again
          ? leave(doc, user, removed)
          : gaveUp(id, moved, joined));
    });
  }

  /** The user left ({@code moved}): their place or slot goes back, and a place is filled from the waitlist. */
  private Future<Outcome> gaveUp(long id, JsonObject moved, boolean joined) {
    return activities.move(id, joined ? -1 : 0, joined ? 0 : -1, System.currentTimeMillis())
        // a refused copy is not refused to the caller: their event (appended by the caller) would be lost with it
        .compose(after -> effects.activity(after)
            .compose(v -> effects.participant(moved, after))
            .compose(v -> joined ? fill(id) : Future.succeededFuture())
            .compose(v -> activities.byId(id))
            .map(latest -> new Outcome(moved, latest == null ? after : latest, true)));
  }

  // ---------------------------------------------------------------- the waitlist

  /** Gives free places to waiting users, first come first served, while there are both. */
  Future<Void> fill(long id) {
    return fillStep(id, 0);
  }

  private Future<Void> fillStep(long id, int steps) {
    if (steps > 2 * settings.maxParticipants() + 10) {
      return Future.succeededFuture();
    }
    long now = System.currentTimeMillis();
    return activities.byId(id).compose(doc -> {
      if (doc == null || !Activities.OPEN.equals(doc.getString("status")) || doc.getLong("start") <= now
          || doc.getInteger("waiting", 0) <= 0 || doc.getInteger("joined_count", 0) >= cap(doc)) {
        return Future.succeededFuture();
      }
      return participants.firstWaiting(id).compose(first -> promoteFirst(id, doc, first, steps, now));
    });
  }

  /** Claims a free place for the first waiting user and promotes them; then looks again. */
  private Future<Void> promoteFirst(long id, JsonObject doc, JsonObject first, int steps, long now) {
    if (first == null) {
      // the counter says someone waits but nobody does yet: a waiter between its slot and its record
      return Future.succeededFuture();
    }
    return activities.claimPromotion(id, doc.getInteger("capacity"), cap(doc), now).compose(claimed -> claimed == null
        ? fillStep(id, steps + 1)
        : promote(id, claimed, first.getLong("user"), now).compose(v -> fillStep(id, steps + 1)));
  }

  private Future<Void> promote(long id, JsonObject claimed, long user, long now) {
    return participants.transition(id, user, List.of(Activities.WAITLISTED), new JsonObject()
            .put("status", Activities.JOINED).put("seq", ids.next()).put("since", now))
        .compose(promoted -> promoted == null
            // the waiter left meanwhile (and gave back their slot): undo and look again
            ? activities.move(id, -1, 1, System.currentTimeMillis()).compose(effects::activity)
            // the promoted user is not the caller: a refused copy of theirs is left to the repair
            : joined(claimed, promoted, "promoted").mapEmpty());
  }
}
