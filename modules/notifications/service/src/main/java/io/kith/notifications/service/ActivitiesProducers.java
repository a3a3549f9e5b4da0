package io.kith.notifications.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.notifications.api.Notifications;
import io.kith.notifications.service.Notifier.Notice;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Notifications from the activities stream (consumer group {@value #GROUP}); every one names the activity and its
 * title:
 * <ul>
 *   <li>{@code ActivityUpdated} with {@code start}, {@code end} or {@code place} changed: an
 *   {@link Notifications#ACTIVITY_UPDATED} to each participant, one per activity (slot
 *   {@code activity_updated:<activity>}), each newer change replacing it; the same new values twice make one.</li>
 *   <li>{@code ActivityCancelled}: an {@link Notifications#ACTIVITY_CANCELLED} to each participant (with no actor when
 *   {@code organiser_deleted}: the organiser's account was erased); the pending invitations to the activity go.</li>
 *   <li>{@code ActivityJoined}: an {@link Notifications#ACTIVITY_JOINED} to the organiser; the joiner's invitation
 *   (answered) and removal notice (over) go.</li>
 *   <li>{@code ActivityLeft}: with {@code removed_by}, an {@link Notifications#ACTIVITY_REMOVED} to the removed user;
 *   either way the organiser's notice of that user's joining goes.</li>
 *   <li>{@code ActivityInvited}: an {@link Notifications#ACTIVITY_INVITATION} to each invited user.</li>
 *   <li>{@code ActivityStartingSoon}: an {@link Notifications#ACTIVITY_STARTING_SOON} to the organiser and each
 *   participant, once per activity and start time (slot {@code activity_starting_soon:<activity>}: a reminder for a
 *   moved start replaces the earlier one). It has no actor, so only a muted type stops it.</li>
 * </ul>
 * {@code ActivityCreated} makes nothing.
 */
final class ActivitiesProducers {

  static final String GROUP = "notifications-activities";
  /** Longest activity title or place name kept in a notification, in code points. */
  static final int MAX_TEXT = 200;
  /** The changes participants are told about. */
  private static final List<String> TOLD = List.of("start", "end", "place");

  private final SystemChanges system;
  private final Notifier notifier;

  ActivitiesProducers(SystemChanges system, Notifier notifier) {
    this.system = system;
    this.notifier = notifier;
  }

  Future<?> handle(DomainEvent e) {
    String type = e.type();
    if (!List.of(ActivitiesEvents.ACTIVITY_UPDATED, ActivitiesEvents.ACTIVITY_CANCELLED,
        ActivitiesEvents.ACTIVITY_JOINED, ActivitiesEvents.ACTIVITY_LEFT, ActivitiesEvents.ACTIVITY_INVITED,
        ActivitiesEvents.ACTIVITY_STARTING_SOON).contains(type)) {
      return Future.succeededFuture();
    }
    JsonObject p = e.payload();
    long activity = Payloads.id(p, "activity");
    long organiser = Payloads.id(p, "organiser");
    if (activity == 0 || organiser == 0) {
      return Payloads.skipped(e, "needs activity and organiser");
    }
    JsonObject base = new JsonObject().put("activity", activity);
    String title = Payloads.text(p, "title", MAX_TEXT);
    if (title != null) {
      base.put("title", title);
    }
    return switch (type) {
      case ActivitiesEvents.ACTIVITY_UPDATED -> updated(p, activity, organiser, base);
      case ActivitiesEvents.ACTIVITY_CANCELLED -> cancelled(p, activity, organiser, base);
      case ActivitiesEvents.ACTIVITY_JOINED -> joined(e, p, activity, organiser, base);
      case ActivitiesEvents.ACTIVITY_LEFT -> left(e, p, activity, organiser, base);
      case ActivitiesEvents.ACTIVITY_INVITED -> each(Payloads.ids(p, "invited"), Notifications.ACTIVITY_INVITATION,
          "activity_invitation:" + activity, null, withTimes(p, base.put("from_user", organiser), false));
      default -> startingSoon(p, activity, organiser, base);
    };
  }

  private Future<?> updated(JsonObject p, long activity, long organiser, JsonObject base) {
    JsonArray changed = new JsonArray();
    if (p.getValue("changed") instanceof JsonArray names) {
      TOLD.stream().filter(names::contains).forEach(changed::add);
    }
    if (changed.isEmpty()) {
      return Future.succeededFuture();
    }
    JsonObject fields = withTimes(p, base.put("from_user", organiser).put("changed", changed), true);
    // the key follows the new values: the same update delivered twice is one notification, a new change a new one
    String key = "activity_updated:" + activity + ":" + Payloads.digest(p, "start", "end", "place");
    return each(Payloads.ids(p, "participants"), Notifications.ACTIVITY_UPDATED, key,
        "activity_updated:" + activity, fields);
  }

  private Future<?> cancelled(JsonObject p, long activity, long organiser, JsonObject base) {
    Future<Void> invitations = system.purge(new JsonObject().put("activity", activity)
        .put("type", Notifications.ACTIVITY_INVITATION));
    // cancelled by the erasure of the organiser's account: told without an actor, so the notice is not erased with
    // what the deleted user caused, whichever of the two erasures runs first
    if (!Boolean.TRUE.equals(p.getValue("organiser_deleted"))) {
      base.put("from_user", organiser);
    }
    return Future.all(invitations, each(Payloads.ids(p, "participants"), Notifications.ACTIVITY_CANCELLED,
        "activity_cancelled:" + activity, null, withTimes(p, base, false)));
  }

  private Future<?> joined(DomainEvent e, JsonObject p, long activity, long organiser, JsonObject base) {
    long user = Payloads.id(p, "user");
    if (user == 0) {
      return Payloads.skipped(e, "needs user");
    }
    Future<Void> answered = system.purge(new JsonObject().put("to", user).put("key", new JsonObject().put("$in",
        new JsonArray().add("activity_invitation:" + activity).add("activity_removed:" + activity))));
    return Future.all(answered, notifier.notify(new Notice(organiser, Notifications.ACTIVITY_JOINED,
        joinedKey(activity, user), null, base.put("from_user", user))));
  }

  private Future<?> left(DomainEvent e, JsonObject p, long activity, long organiser, JsonObject base) {
    long user = Payloads.id(p, "user");
    if (user == 0) {
      return Payloads.skipped(e, "needs user");
    }
    // like an unlike: the organiser's "X joined" goes when X is no longer in
    Future<Void> joinedGone = system.purge(new JsonObject().put("to", organiser)
        .put("key", joinedKey(activity, user)));
    long removedBy = Payloads.id(p, "removed_by");
    if (removedBy == 0) {
      return joinedGone;
    }
    return Future.all(joinedGone, notifier.notify(new Notice(user, Notifications.ACTIVITY_REMOVED,
        "activity_removed:" + activity, null, base.put("from_user", removedBy))));
  }

  private Future<?> startingSoon(JsonObject p, long activity, long organiser, JsonObject base) {
    Set<Long> told = new LinkedHashSet<>();
    told.add(organiser);
    told.addAll(Payloads.ids(p, "participants"));
    String key = "activity_starting_soon:" + activity + ":" + Payloads.digest(p, "start");
    return each(new ArrayList<>(told), Notifications.ACTIVITY_STARTING_SOON, key,
        "activity_starting_soon:" + activity, withTimes(p, base, true));
  }

  private Future<?> each(List<Long> users, String type, String key, String slot, JsonObject fields) {
    List<Future<Void>> all = new ArrayList<>();
    for (long user : users) {
      all.add(notifier.notify(new Notice(user, type, key, slot, fields)));
    }
    return Future.all(all);
  }

  /** Adds {@code start} (and with {@code more}, {@code end} and the place's name) when the payload has them. */
  private static JsonObject withTimes(JsonObject p, JsonObject fields, boolean more) {
    Long start = Payloads.time(p, "start");
    if (start != null) {
      fields.put("start", start);
    }
    if (more) {
      Long end = Payloads.time(p, "end");
      if (end != null) {
        fields.put("end", end);
      }
      if (p.getValue("place") instanceof JsonObject place) {
        String name = Payloads.text(place, "name", MAX_TEXT);
        if (name != null) {
          fields.put("place", name);
        }
      }
    }
    return fields;
  }

  private static String joinedKey(long activity, long user) {
    return "activity_joined:" + activity + ":" + user;
  }
}
