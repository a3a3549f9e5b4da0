package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.events.ActivitiesEvent;
import io.kith.activities.api.events.ActivityJoined;
import io.kith.activities.api.events.ActivityLeft;
import io.kith.messaging.api.MessagingInternal;
import io.kith.platform.Platform;
import io.kith.platform.events.ConsumerSet;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps each activity's discussion group chat (a messaging managed group, ref {@code activity:<id>}) in step with its
 * participants, from the activities' own events: {@code ActivityCreated} makes the group, {@code ActivityJoined}
 * and {@code ActivityLeft} add or remove the user. Joining and leaving never wait for messaging, so a messaging outage
 * never fails them; a failed step is retried by the event log (the entry stays pending and is claimed again), and
 * marks the activity {@code disc_dirty} so that the repair timer resynchronises the whole group once messaging answers
 * again, even after the event log gave up on the entry.
 *
 * <p>Handlers read the participation's current state instead of trusting the event, so retries, duplicates and
 * events handled out of order all converge on the present membership.
 */
final class Discussion {

  private static final Logger LOG = LoggerFactory.getLogger(Discussion.class);
  /** Consumer group of this module on its own stream. */
  static final String GROUP = "activities-discussion";
  /** Most ids per setManagedMembers call. */
  private static final int CHUNK = 500;
  /** Longest group name messaging takes. */
  private static final int NAME = 50;
  private static final int REPAIR_BATCH = 20;

  private final Platform platform;
  private final ActivitiesSettings settings;
  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final Effects effects;
  private final MessagingInternal messaging;
  private final ConsumerSet consumers;
  private long timer = -1;
  private boolean repairing;

  Discussion(Platform platform, ActivitiesSettings settings, ActivityStore activities, ParticipantStore participants,
             Effects effects, MessagingInternal messaging) {
    this.platform = platform;
    this.settings = settings;
    this.activities = activities;
    this.participants = participants;
    this.effects = effects;
    this.messaging = messaging;
    this.consumers = new ConsumerSet(platform.events());
  }

  Future<Void> start() {
    timer = platform.vertx().setPeriodic(settings.repairIntervalSeconds() * 1000L, id -> repair());
    return consumers.once(ActivitiesEvents.DOMAIN, GROUP, this::handle);
  }

  Future<Void> stop() {
    if (timer >= 0) {
      platform.vertx().cancelTimer(timer);
    }
    return consumers.stop();
  }

  private Future<?> handle(DomainEvent event) {
    ActivitiesEvent read = ActivitiesEvent.fromJson(event.type(), event.payload());
    long id = read == null ? 0L : read.activity();
    Future<?> work = switch (event.type()) {
      case ActivitiesEvents.ACTIVITY_CREATED -> group(id);
      case ActivitiesEvents.ACTIVITY_JOINED -> member(id, ActivityJoined.fromJson(event.payload()).user());
      case ActivitiesEvents.ACTIVITY_LEFT -> member(id, ActivityLeft.fromJson(event.payload()).user());
      default -> Future.succeededFuture();
    };
    return work.recover(e -> activities.discussionDirty(id, true).transform(x -> Future.failedFuture(e)));
  }

  /** Brings a joining or leaving user's group membership in line with the activity's participants. */
  private Future<?> member(long id, long user) {
    return group(id).compose(doc -> doc == null ? Future.succeededFuture() : syncUser(doc, user));
  }

  /**
   * The activity's record once it has its group: made now when it has none yet (then every current participant is
   * added). Null when the activity does not exist.
   */
  private Future<JsonObject> group(long id) {
    return activities.byId(id).compose(doc -> {
      if (doc == null || doc.getLong("discussion") != null) {
        return Future.succeededFuture(doc);
      }
      String title = doc.getString("title");
      String name = title.codePointCount(0, title.length()) <= NAME ? title
          : title.substring(0, title.offsetByCodePoints(0, NAME));
      return messaging.managedGroup(doc.getLong("organiser"), "activity:" + id, new JsonObject().put("name", name))
          .compose(view -> activities.setDiscussion(id, view.getLong("id"), System.currentTimeMillis()))
          .compose(withGroup -> effects.activity(withGroup).compose(v -> resync(withGroup)).map(withGroup));
    });
  }

  /** Adds or removes one user as their participation is now. */
  private Future<Void> syncUser(JsonObject doc, long user) {
    return participants.find(doc.getLong("_id"), user).compose(part -> {
      boolean member = part != null && Activities.JOINED.equals(part.getString("status"));
      return messaging.setManagedMembers(doc.getLong("organiser"), doc.getLong("discussion"),
          member ? List.of(user) : List.of(), member ? List.of() : List.of(user));
    });
  }

  /** Puts every joined participant in the group and takes out everyone who left or was removed. */
  private Future<Void> resync(JsonObject doc) {
    long id = doc.getLong("_id");
    long owner = doc.getLong("organiser");
    long group = doc.getLong("discussion");
    int most = settings.maxParticipants() + settings.maxWaitlist() + 10_000;
    Future<List<Long>> in = participants.joinedIds(id, settings.maxParticipants());
    Future<List<Long>> out = participants.userIds(id, List.of(Activities.NONE, Activities.REMOVED,
        Activities.WAITLISTED), most);
    return Future.all(in, out).compose(v -> {
      Future<Void> chain = Future.succeededFuture();
      for (List<Long> add : chunks(in.result())) {
        chain = chain.compose(x -> messaging.setManagedMembers(owner, group, add, List.of()));
      }
      for (List<Long> remove : chunks(out.result())) {
        chain = chain.compose(x -> messaging.setManagedMembers(owner, group, List.of(), remove));
      }
      return chain;
    });
  }

  private static List<List<Long>> chunks(List<Long> ids) {
    List<List<Long>> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += CHUNK) {
      out.add(ids.subList(i, Math.min(ids.size(), i + CHUNK)));
    }
    return out;
  }

  /**
   * Makes missing groups and resynchronises lagging ones, a few activities per run, those tried longest ago first (so
   * one that keeps failing does not hold up the others).
   */
  Future<Void> repair() {
    if (repairing) {
      return Future.succeededFuture();
    }
    repairing = true;
    return activities.needingDiscussion(System.currentTimeMillis(), REPAIR_BATCH).compose(docs -> {
      Future<Void> chain = Future.succeededFuture();
      for (JsonObject d : docs) {
        long id = d.getLong("_id");
        chain = chain.compose(v -> activities.discussionTried(id, System.currentTimeMillis())
            .compose(x -> group(id))
            .compose(doc -> doc == null || doc.getLong("discussion") == null ? Future.succeededFuture()
                : (d.getLong("discussion") == null ? Future.<Void>succeededFuture() : resync(doc))
                    .compose(x -> activities.discussionDirty(id, false)))
            .<Void>mapEmpty()
            .recover(e -> {
              LOG.debug("Discussion of activity {} still not in step: {}", id, e.toString());
              return Future.succeededFuture();
            }));
      }
      return chain;
    }).eventually(() -> {
      repairing = false;
      return Future.succeededFuture();
    });
  }
}
