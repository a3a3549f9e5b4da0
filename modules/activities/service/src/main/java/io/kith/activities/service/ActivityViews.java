package io.kith.activities.service;

import io.kith.accounts.api.UserSummaries;
import io.kith.accounts.api.AccountsService;
import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The activity as seen by someone: reading one activity and other domains' batch visibility question, and what every
 * feature uses to find activities (Redis first, loading a miss), apply the one visibility rule ({@link Access}) and
 * build the activity view.
 */
final class ActivityViews {

  /** Most ids of one relations or accounts batch question. */
  private static final int BATCH = 1_000;

  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final HotActivities hot;
  private final WarmStart loader;
  private final RelationsInternal relations;
  private final AccountsService accounts;

  ActivityViews(ActivityStore activities, ParticipantStore participants, HotActivities hot, WarmStart loader,
                RelationsInternal relations, AccountsService accounts) {
    this.activities = activities;
    this.participants = participants;
    this.hot = hot;
    this.loader = loader;
    this.relations = relations;
    this.accounts = accounts;
  }

  /** See {@link io.kith.activities.api.ActivitiesService#activity}. */
  Future<JsonObject> activity(long viewer, long activityId) {
    return visibleOne(viewer, activityId).compose(h -> viewOf(viewer, h.doc(), h));
  }

  /** See {@link io.kith.activities.api.ActivitiesInternal#visibleActivities}. */
  Future<JsonObject> visibleActivities(long viewer, List<Long> activityIds) {
    return Failures.guard(() -> {
      if (activityIds == null || activityIds.size() > Activities.MAX_VISIBLE_BATCH) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "activities",
            "ask about at most " + Activities.MAX_VISIBLE_BATCH + " activities");
      }
      List<Long> ids = activityIds.stream().filter(Objects::nonNull).filter(id -> id > 0).distinct().toList();
      return visibleMany(viewer, ids).map(seen -> new JsonObject().put("items",
          new JsonArray(seen.stream().map(h -> h.doc().getLong("_id")).toList())));
    });
  }

  /** The activity if the actor organises it; else not_organiser (visible) or activity_not_found. */
  Future<JsonObject> organisersOwn(long actor, long activityId) {
    if (activityId <= 0) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
    }
    return activities.byId(activityId).compose(doc -> {
      if (doc == null) {
        return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
      }
      if (doc.getLong("organiser") == actor) {
        return Future.succeededFuture(doc);
      }
      return visibleOne(actor, activityId).compose(seen -> Failures.fail(ActivitiesErrors.NOT_ORGANISER,
          "only the organiser may do this"));
    });
  }

  /** One activity and the viewer's part in it, from Redis (loading it on a miss); null when it does not exist. */
  Future<HotActivities.Hot> one(long viewer, long id) {
    if (id <= 0) {
      return Future.succeededFuture(null);
    }
    return many(viewer, List.of(id)).map(l -> l.isEmpty() ? null : l.get(0));
  }

  /** The activities that exist, with the viewer's part, in the order asked. */
  private Future<List<HotActivities.Hot>> many(long viewer, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return hot.read(ids, viewer).recover(e -> Future.succeededFuture(nulls(ids.size())))
        .compose(found -> loadMissing(viewer, ids, found));
  }

  /** {@code found} with the activities Redis had no copy of loaded one by one; those that do not exist left out. */
  private Future<List<HotActivities.Hot>> loadMissing(long viewer, List<Long> ids, List<HotActivities.Hot> found) {
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      if (found.get(i) == null) {
        missing.add(i);
      }
    }
    if (missing.isEmpty()) {
      return Future.succeededFuture(found);
    }
    List<Future<HotActivities.Hot>> loads = new ArrayList<>();
    for (int i : missing) {
      loads.add(loadOne(viewer, ids.get(i)));
    }
    return Future.all(loads).map(v -> {
      List<HotActivities.Hot> out = new ArrayList<>(found);
      for (int k = 0; k < missing.size(); k++) {
        out.set(missing.get(k), loads.get(k).result());
      }
      out.removeIf(Objects::isNull);
      return out;
    });
  }

  private static List<HotActivities.Hot> nulls(int n) {
    List<HotActivities.Hot> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(null);
    }
    return out;
  }

  /** Loads a missed activity into Redis and reads it again; from MongoDB alone when Redis cannot serve it. */
  private Future<HotActivities.Hot> loadOne(long viewer, long id) {
    return loader.loadOne(id).recover(e -> activities.byId(id)).compose(doc -> {
      if (doc == null) {
        return Future.succeededFuture(null);
      }
      return hot.read(List.of(id), viewer).otherwise(nulls(1)).compose(again -> again.get(0) != null
          ? Future.succeededFuture(again.get(0))
          : participants.find(id, viewer).map(p -> fromRecord(doc, p)));
    });
  }

  private static HotActivities.Hot fromRecord(JsonObject doc, JsonObject part) {
    String status = part == null ? Activities.NONE : part.getString("status");
    return new HotActivities.Hot(doc, Activities.JOINED.equals(status) ? part.getLong("seq") : null,
        Activities.WAITLISTED.equals(status) ? 0L : null, part != null && part.getBoolean("invited", false),
        Activities.REMOVED.equals(status), doc.getInteger("waiting", 0));
  }

  /** One activity the viewer may see, else activity_not_found. */
  Future<HotActivities.Hot> visibleOne(long viewer, long id) {
    return one(viewer, id).compose(h -> {
      if (h == null) {
        return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
      }
      return maySee(viewer, h).compose(ok -> ok ? Future.succeededFuture(h)
          : Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity"));
    });
  }

  private Future<Boolean> maySee(long viewer, HotActivities.Hot h) {
    long organiser = h.doc().getLong("organiser");
    return tiesOf(viewer, List.of(organiser)).map(t -> Access.canSee(viewer, h.doc(), h, t.get(organiser)));
  }

  /** The activities that exist and the viewer may see, in the order asked. */
  Future<List<HotActivities.Hot>> visibleMany(long viewer, List<Long> ids) {
    return many(viewer, ids).compose(found -> tiesOf(viewer, found.stream().map(h -> h.doc().getLong("organiser"))
        .toList()).map(ties -> found.stream().filter(h -> Access.canSee(viewer, h.doc(), h,
        ties.get(h.doc().getLong("organiser")))).toList()));
  }

  /** Relations flags of these organisers as seen by the viewer (empty for anonymous viewers and themselves). */
  Future<Map<Long, JsonObject>> tiesOf(long viewer, List<Long> organisers) {
    List<Long> others = organisers.stream().distinct().filter(o -> o != viewer).toList();
    if (viewer == 0 || others.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    List<Future<JsonObject>> parts = new ArrayList<>();
    for (int i = 0; i < others.size(); i += BATCH) {
      parts.add(relations.ties(viewer, others.subList(i, Math.min(others.size(), i + BATCH))));
    }
    return Future.all(parts).map(v -> {
      Map<Long, JsonObject> out = new HashMap<>();
      parts.forEach(p -> p.result().forEach(e -> out.put(Long.parseLong(e.getKey()), (JsonObject) e.getValue())));
      return out;
    });
  }

  Future<JsonObject> viewOf(long viewer, JsonObject doc, HotActivities.Hot h) {
    return viewsOf(viewer, List.of(doc), h == null ? null : java.util.Collections.singletonList(h)).map(l -> l.get(0));
  }

  /** Activity views with organiser summaries and the viewer's part (from {@code hots}, or unknown when null). */
  Future<List<JsonObject>> viewsOf(long viewer, List<JsonObject> docs, List<HotActivities.Hot> hots) {
    List<Long> organisers = docs.stream().map(d -> d.getLong("organiser")).distinct().toList();
    Future<JsonObject> summaries = UserSummaries.lookup(accounts, viewer, organisers).otherwise(new JsonObject());
    return summaries.map(names -> {
      List<JsonObject> out = new ArrayList<>();
      for (int i = 0; i < docs.size(); i++) {
        out.add(view(viewer, docs.get(i), hots == null ? null : hots.get(i), names));
      }
      return out;
    });
  }

  /** The activity view of one record: the organiser's summary from {@code names}, the viewer's part from {@code h}. */
  private static JsonObject view(long viewer, JsonObject d, HotActivities.Hot h, JsonObject names) {
    long organiser = d.getLong("organiser");
    JsonObject me = new JsonObject();
    if (viewer != 0 && viewer == organiser) {
      me.put("status", Activities.ORGANISER);
    } else if (h != null) {
      me.put("status", h.status());
      if (h.waitRank() != null) {
        me.put("position", h.waitRank() + 1);
      }
    } else {
      me.put("status", Activities.NONE);
    }
    return new JsonObject()
        .put("id", d.getLong("_id"))
        .put("organiser", UserSummaries.of(names, organiser))
        .put("title", d.getString("title"))
        .put("introduction", d.getString("introduction", ""))
        .put("start", d.getLong("start"))
        .put("end", d.getLong("end"))
        .put("place", d.getJsonObject("place"))
        .put("capacity", d.getInteger("capacity"))
        .put("waitlist", d.getBoolean("waitlist", false))
        .put("visibility", d.getString("visibility"))
        .put("cover", d.getJsonObject("cover"))
        .put("status", d.getString("status"))
        .put("participant_count", d.getInteger("joined_count", 0))
        .put("waitlist_count", d.getInteger("waiting", 0))
        .put("discussion", d.getLong("discussion"))
        .put("created", d.getLong("created"))
        .put("updated", d.getLong("updated"))
        .put("viewer", me);
  }
}
