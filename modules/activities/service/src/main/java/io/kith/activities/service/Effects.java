package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.events.ActivitiesEvent;
import io.kith.platform.Platform;
import io.kith.platform.store.StoreFailures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What follows a MongoDB write: the Redis copies (derived: a failure never fails the write, and is repaired) and the
 * domain event (appended after the write; a failure is logged).
 *
 * <p>A copy that Redis refused (it was restarting, say) would otherwise be missing for good: the activity hash keeps
 * its {@code loaded} mark and the user's joined list its completeness marker, so no read looks at MongoDB again. So
 * the activity and the user are noted here, and {@link #repair} brings them back once Redis answers (at every sweep,
 * and at once after a copy succeeds): the activity is loaded again from MongoDB (every participation, through the
 * versioned copies), and the user's joined list loses its marker, so that its next read rebuilds it from MongoDB.
 * The notes live on this node only; a join, leave or removal retried after a refusal copies the stored state again
 * (see {@link Seats}), which covers a node that died before its repair.
 */
final class Effects {

  private static final Logger LOG = LoggerFactory.getLogger(Effects.class);
  /** Activities (and as many users) noted at most; beyond, the whole warm load is redone instead. */
  static final int MAX_NOTED = 10_000;
  /** Activities reloaded per repair run. */
  private static final int REPAIR_BATCH = 50;

  private final Platform platform;
  private final HotActivities hot;
  private final WarmStart loader;
  private final Set<Long> staleActivities = ConcurrentHashMap.newKeySet();
  private final Set<Long> staleLists = ConcurrentHashMap.newKeySet();
  private volatile boolean reloadAll;
  private volatile boolean repairing;

  Effects(Platform platform, HotActivities hot, WarmStart loader) {
    this.platform = platform;
    this.hot = hot;
    this.loader = loader;
  }

  /** Copies an activity record to Redis; never fails (a refused copy is repaired later). */
  Future<Void> activity(JsonObject doc) {
    if (doc == null) {
      return Future.succeededFuture();
    }
    return hot.putActivity(doc, false, System.currentTimeMillis()).onSuccess(v -> repairNow()).recover(e -> {
      LOG.warn("Cannot copy activity {} to Redis (repaired once it answers): {}", doc.getLong("_id"), e.toString());
      note(doc.getLong("_id"), null);
      return Future.succeededFuture();
    });
  }

  /** Copies a participation to Redis; never fails (a refused copy is repaired later). */
  Future<Void> participant(JsonObject part, JsonObject activityDoc) {
    return tryParticipant(part, activityDoc).mapEmpty();
  }

  /**
   * Copies a participation to Redis; never fails, answers whether Redis took it (a refused copy is repaired later).
   * A user's own join, leave or removal is answered only once this is true (see {@link #copied}).
   */
  Future<Boolean> tryParticipant(JsonObject part, JsonObject activityDoc) {
    if (part == null) {
      return Future.succeededFuture(true);
    }
    long now = System.currentTimeMillis();
    return hot.putParticipant(part, activityDoc, now).map(v -> {
      repairNow();
      return true;
    }).recover(e -> {
      LOG.warn("Cannot copy participation {} to Redis (repaired once it answers): {}", part.getString("_id"),
          e.toString());
      note(part.getLong("activity"), part.getLong("user"));
      return Future.succeededFuture(false);
    });
  }

  /**
   * {@code value} when the copy was taken, else 503 {@code unavailable}: the change is stored (and its event
   * appended), and the client's retry, which finds it done, copies it again before it is acknowledged. So an
   * acknowledged join is in the user's lists whatever the repair's timing.
   */
  static <T> Future<T> copied(boolean taken, T value) {
    return taken ? Future.succeededFuture(value) : Future.failedFuture(StoreFailures.unavailable("Redis"));
  }

  private void note(long activity, Long user) {
    if (staleActivities.size() >= MAX_NOTED || staleLists.size() >= MAX_NOTED) {
      reloadAll = true;
      return;
    }
    staleActivities.add(activity);
    if (user != null) {
      staleLists.add(user);
    }
  }

  /** Redis answers again: what it refused is repaired now rather than at the next sweep. */
  private void repairNow() {
    if (!staleActivities.isEmpty() || !staleLists.isEmpty() || reloadAll) {
      repair();
    }
  }

  /**
   * Brings back what refused copies left out of Redis: up to {@value #REPAIR_BATCH} activities per run, and the
   * noted users' lists; what still fails stays noted for the next run. Never fails.
   */
  Future<Void> repair() {
    if (repairing || (staleActivities.isEmpty() && staleLists.isEmpty() && !reloadAll)) {
      return Future.succeededFuture();
    }
    repairing = true;
    return (reloadAll ? reloadAll() : Future.<Void>succeededFuture())
        .compose(v -> forgetLists())
        .compose(v -> reloadActivities())
        .recover(e -> {
          LOG.debug("Redis copies of activities not repaired yet: {}", e.toString());
          return Future.succeededFuture();
        })
        .eventually(() -> {
          repairing = false;
          return Future.succeededFuture();
        });
  }

  /** Too much was noted: the warm marker goes, so the next sweep reloads every activity and list of the window. */
  private Future<Void> reloadAll() {
    return hot.forgetWarm().onSuccess(v -> {
      LOG.warn("More than {} Redis copies of activities were refused: reloading them all", MAX_NOTED);
      reloadAll = false;
      staleActivities.clear();
      staleLists.clear();
    });
  }

  private Future<Void> forgetLists() {
    // taken off before the work and put back when it fails, so a copy refused meanwhile stays noted
    List<Long> users = new ArrayList<>(staleLists);
    users.forEach(staleLists::remove);
    return hot.forgetLists(users.stream().map(HotActivities::joinedList).toList())
        .onFailure(e -> staleLists.addAll(users));
  }

  private Future<Void> reloadActivities() {
    List<Long> ids = staleActivities.stream().limit(REPAIR_BATCH).toList();
    ids.forEach(staleActivities::remove);
    List<Future<JsonObject>> loads = new ArrayList<>();
    ids.forEach(id -> loads.add(loader.loadOne(id).onFailure(e -> staleActivities.add(id))));
    return Future.join(loads).mapEmpty();
  }

  /** Appends an event of the activities stream; never fails (a lost event is logged). */
  Future<Void> emit(ActivitiesEvent event) {
    return platform.events().publisher(ActivitiesEvents.DOMAIN).publish(event);
  }
}
