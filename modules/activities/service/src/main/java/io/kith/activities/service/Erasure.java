package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.activities.api.events.ActivityLeft;
import io.kith.platform.Platform;
import io.kith.platform.events.ErasureSteps;
import io.kith.platform.events.ErasureSteps.Step;
import io.kith.platform.events.Erasures;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Erases a deleted account's activities data when accounts' {@code AccountDeleted} arrives (consumer group
 * {@value #GROUP}, {@code once}-guarded), in idempotent steps run by the platform's {@link ErasureSteps} and recorded
 * in {@link Erasures} (domain {@value #DOMAIN}; a step the report holds is skipped, so a crashed erasure resumes):
 * <ol>
 *   <li>{@code cancelled}: the user's open activities that have not ended are cancelled by the organiser's own cancel
 *   path, so participants get the notice a cancel gives ({@code ActivityCancelled}, {@code organiser_deleted});</li>
 *   <li>{@code left}: where the user holds a place or waits, they leave by the participant's own leave path, so the
 *   place goes to the first waiter and the counts stay exact ({@code ActivityLeft});</li>
 *   <li>{@code organised}: every activity the user organised is deleted with its participations and its Redis keys;
 *   the participants' joined lists lose their marker, so their next read recounts them from MongoDB;</li>
 *   <li>{@code participations}: the user's remaining participations (left, removed, invited) are deleted and the user
 *   taken out of those activities' Redis sets;</li>
 *   <li>{@code redis}: the user's own and joined lists, the keys of any organised activity a crash left behind in
 *   them, and the user's rate-limit windows.</li>
 * </ol>
 * Nothing of an organised activity stays visible: a participant keeps only the cancel notice in notifications.
 */
final class Erasure {

  /** Consumer group of this module on the accounts stream. */
  static final String GROUP = "activities-erasure";
  /** The domain name of the erasure reports. */
  static final String DOMAIN = "activities";
  /** Records read per round. */
  private static final int BATCH = 100;

  private final Platform platform;
  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final Seats seats;
  private final Edits edits;
  private final Effects effects;
  private final HotActivities hot;
  private final Erasures erasures;

  Erasure(Platform platform, ActivityStore activities, ParticipantStore participants, Seats seats, Edits edits,
          Effects effects, HotActivities hot) {
    this.platform = platform;
    this.activities = activities;
    this.participants = participants;
    this.seats = seats;
    this.edits = edits;
    this.effects = effects;
    this.hot = hot;
    this.erasures = new Erasures(platform.mongo());
  }

  /** Runs every step not recorded yet, in order, then finishes the report. */
  Future<JsonObject> erase(long user) {
    return ErasureSteps.run(erasures, DOMAIN, user, List.of(
        new Step("cancelled", "activities_cancelled", this::cancelOpen),
        new Step("left", "places_left", this::leaveAll),
        new Step("organised", "activities", this::deleteOrganised),
        new Step("participations", "participations", this::deleteParticipations),
        new Step("redis", "redis_keys", this::dropRedis)));
  }

  // ---------------------------------------------------------------- cancelled

  private Future<Long> cancelOpen(long user) {
    return cancelFrom(user, 0L, 0L);
  }

  private Future<Long> cancelFrom(long user, long afterId, long sofar) {
    long now = System.currentTimeMillis();
    return activities.organisedPage(user, afterId, true, BATCH).compose(page -> {
      Future<Long> cancelled = Future.succeededFuture(0L);
      for (JsonObject doc : page) {
        // an activity that is over is not cancelled (nobody is told of it); it is deleted with the rest
        cancelled = doc.getLong("end") <= now ? cancelled
            : cancelled.compose(n -> edits.cancelOfDeleted(doc).map(done -> done ? n + 1 : n));
      }
      return cancelled.compose(n -> page.size() < BATCH ? Future.succeededFuture(sofar + n)
          : cancelFrom(user, page.get(page.size() - 1).getLong("_id"), sofar + n));
    });
  }

  // ---------------------------------------------------------------- left

  private Future<Long> leaveAll(long user) {
    return leaveFrom(user, null, 0L);
  }

  private Future<Long> leaveFrom(long user, String afterId, long sofar) {
    return participants.ofUser(user, List.of(Activities.JOINED, Activities.WAITLISTED), afterId, BATCH)
        .compose(page -> {
          Future<Long> left = Future.succeededFuture(0L);
          for (JsonObject part : page) {
            left = left.compose(n -> leaveOne(part.getLong("activity"), user).map(changed -> changed ? n + 1 : n));
          }
          return left.compose(n -> page.size() < BATCH ? Future.succeededFuture(sofar + n)
              : leaveFrom(user, page.get(page.size() - 1).getString("_id"), sofar + n));
        });
  }

  /** The participant's own leave: the place or slot goes back, the first waiter is promoted, the event appended. */
  private Future<Boolean> leaveOne(long id, long user) {
    return activities.byId(id).compose(doc -> doc == null ? Future.succeededFuture(false)
        : seats.leave(doc, user, false).compose(out -> !out.changed() ? Future.succeededFuture(false)
            : effects.emit(new ActivityLeft(id, doc.getLong("organiser"), doc.getString("title"), user, null))
                .map(true)));
  }

  // ---------------------------------------------------------------- organised

  /**
   * Deletes the user's activities a batch at a time: the participants are read first (their lists are recounted
   * after), then the participations go, then the activities, then their Redis keys. A batch cut short by a crash is
   * found again (the activities are deleted last); keys it left in Redis are dropped by the {@code redis} step.
   */
  private Future<Long> deleteOrganised(long user) {
    return activities.organisedPage(user, 0L, false, BATCH).compose(page -> {
      if (page.isEmpty()) {
        return Future.succeededFuture(0L);
      }
      List<Long> ids = page.stream().map(d -> d.getLong("_id")).toList();
      return participantsOf(ids, null, new LinkedHashSet<>())
          .compose(users -> participants.delete("activity", ids)
              .compose(x -> activities.deleteOrganised(user, ids))
              .compose(n -> dropActivities(ids)
                  .compose(x -> hot.forgetLists(users.stream().map(HotActivities::joinedList).toList()))
                  .map(n)))
          .compose(n -> deleteOrganised(user).map(more -> n + more));
    });
  }

  /** Every user with a participation in these activities. */
  private Future<Set<Long>> participantsOf(List<Long> ids, String afterId, Set<Long> users) {
    return participants.ofActivities(ids, afterId, 1_000).compose(page -> {
      page.forEach(p -> users.add(p.getLong("user")));
      return page.size() < 1_000 ? Future.succeededFuture(users)
          : participantsOf(ids, page.get(page.size() - 1).getString("_id"), users);
    });
  }

  // ---------------------------------------------------------------- participations

  private Future<Long> deleteParticipations(long user) {
    return participants.ofUser(user, null, null, BATCH).compose(page -> {
      if (page.isEmpty()) {
        return Future.succeededFuture(0L);
      }
      List<Long> ids = page.stream().map(p -> p.getLong("activity")).toList();
      return dropParticipant(user, ids)
          .compose(v -> participants.delete("_id", page.stream().map(p -> p.getString("_id")).toList()))
          .compose(n -> deleteParticipations(user).map(more -> n + more));
    });
  }

  // ---------------------------------------------------------------- redis

  private Future<Long> dropRedis(long user) {
    RateLimiter limiter = new RateLimiter(platform.redis());
    RedisAPI api = RedisAPI.api(platform.redis());
    String own = HotActivities.ownList(user);
    return api.zrange(List.of(own, "0", "-1")).map(Erasure::activityIds).compose(this::dropActivities)
        .compose(keys -> api.del(List.of(own, HotActivities.joinedList(user))).map(n -> keys + n.toLong()))
        .compose(n -> Future.all(limiter.reset(Quotas.key("create", user)),
            limiter.reset(Quotas.key("invitees", user))).map(n));
  }

  /** The activity ids of a user list (its completeness marker left out). */
  private static List<Long> activityIds(Response members) {
    List<Long> ids = new ArrayList<>();
    for (Response m : members) {
      if (!HotActivities.MARKER.equals(m.toString())) {
        ids.add(m.toLong());
      }
    }
    return ids;
  }

  /** Drops deleted activities' hash and participant keys, nearby and reminder entries; answers how many keys went. */
  private Future<Long> dropActivities(List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(0L);
    }
    List<Request> batch = new ArrayList<>();
    for (long id : ids) {
      batch.add(Request.cmd(Command.DEL).arg(HotActivities.activity(id)).arg(HotActivities.joinedSet(id))
          .arg(HotActivities.waitSet(id)).arg(HotActivities.invitedSet(id)).arg(HotActivities.removedSet(id))
          .arg(HotActivities.versions(id)));
    }
    for (String set : List.of(HotActivities.GEO, HotActivities.GEO_STARTS, HotActivities.DUE)) {
      Request zrem = Request.cmd(Command.ZREM).arg(set);
      ids.forEach(zrem::arg);
      batch.add(zrem);
    }
    return platform.redis().batch(batch).map(all -> {
      long gone = 0;
      for (int i = 0; i < ids.size(); i++) {
        gone += all.get(i).toLong();
      }
      return gone;
    });
  }

  /** Takes a user out of these activities' participant keys. */
  private Future<Void> dropParticipant(long user, List<Long> ids) {
    List<Request> batch = new ArrayList<>();
    for (long id : ids) {
      batch.add(Request.cmd(Command.ZREM).arg(HotActivities.joinedSet(id)).arg(user));
      batch.add(Request.cmd(Command.ZREM).arg(HotActivities.waitSet(id)).arg(user));
      batch.add(Request.cmd(Command.SREM).arg(HotActivities.invitedSet(id)).arg(user));
      batch.add(Request.cmd(Command.SREM).arg(HotActivities.removedSet(id)).arg(user));
      batch.add(Request.cmd(Command.HDEL).arg(HotActivities.versions(id)).arg(user));
    }
    return platform.redis().batch(batch).mapEmpty();
  }
}
