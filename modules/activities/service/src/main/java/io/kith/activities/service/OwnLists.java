package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A user's own lists: the activities they organise and those they hold a place in, upcoming or past. Read from the
 * user's Redis list (rebuilt when incomplete) in rounds; past pages older than the Redis window come from MongoDB.
 */
final class OwnLists {

  /** Rounds of reading further when filtering leaves a list page short. */
  private static final int LIST_ROUNDS = 5;

  private final ActivitiesSettings settings;
  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final HotActivities hot;
  private final WarmStart loader;
  private final ActivityViews views;

  OwnLists(ActivitiesSettings settings, ActivityStore activities, ParticipantStore participants, HotActivities hot,
           WarmStart loader, ActivityViews views) {
    this.settings = settings;
    this.activities = activities;
    this.participants = participants;
    this.hot = hot;
    this.loader = loader;
    this.views = views;
  }

  /** See {@link io.kith.activities.api.ActivitiesService#organised}. */
  Future<JsonObject> organised(long actor, JsonObject query) {
    return ownList(actor, query, true);
  }

  /** See {@link io.kith.activities.api.ActivitiesService#joined}. */
  Future<JsonObject> joined(long actor, JsonObject query) {
    return ownList(actor, query, false);
  }

  private Future<JsonObject> ownList(long actor, JsonObject query, boolean own) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = Input.limit(q);
      Object w = q.getValue("when");
      String when = w == null ? "upcoming" : String.valueOf(w);
      if (!List.of("upcoming", "past").contains(when)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "when", "when must be upcoming or past");
      }
      long[] cursor = Input.startCursor(q);
      String key = own ? HotActivities.ownList(actor) : HotActivities.joinedList(actor);
      return hot.listComplete(key)
          .compose(complete -> complete ? Future.succeededFuture() : loader.rebuildList(actor, own))
          .compose(v -> "past".equals(when)
              ? pastPage(actor, key, own, cursor, limit)
              : upcomingPage(actor, key, own, cursor, limit));
    });
  }

  private Future<JsonObject> upcomingPage(long actor, String key, boolean own, long[] cursor, int limit) {
    long now = System.currentTimeMillis();
    // ongoing activities started at most the longest duration ago
    String min = cursor == null ? Long.toString(now - Activities.MAX_DURATION_MS) : Long.toString(cursor[0]);
    List<Hot2> page = new ArrayList<>();
    return scan(actor, key, own, min, "+inf", false, 0, LIST_ROUNDS, limit + 1, page, h -> {
      JsonObject d = h.doc();
      return d.getLong("end") > now && Input.after(d, cursor);
    }).compose(v -> listAnswer(actor, page, limit));
  }

  private Future<JsonObject> pastPage(long actor, String key, boolean own, long[] cursor, int limit) {
    long now = System.currentTimeMillis();
    long windowStart = now - settings.warmMillis();
    String max = cursor == null ? Long.toString(now) : Long.toString(cursor[0]);
    List<Hot2> page = new ArrayList<>();
    return scan(actor, key, own, Long.toString(windowStart), max, true, 0, LIST_ROUNDS, limit + 1, page, h -> {
      JsonObject d = h.doc();
      return d.getLong("end") <= now && Input.before(d, cursor) && d.getLong("start") >= windowStart;
    }).compose(exhausted -> page.size() > limit || !exhausted
        ? listAnswer(actor, page, limit)
        : olderPage(actor, own, cursor, windowStart, now, limit, page));
  }

  /** The rest of a past page from MongoDB: activities older than the Redis window. */
  private Future<JsonObject> olderPage(long actor, boolean own, long[] cursor, long windowStart, long now, int limit,
                                       List<Hot2> page) {
    Long cs = cursor == null || cursor[0] >= windowStart ? null : cursor[0];
    Long ci = cs == null ? null : cursor[1];
    int want = limit + 1 - page.size();
    return older(actor, own, windowStart, cs, ci, want)
        .compose(docs -> addSeen(actor, own, docs, now, page))
        .compose(v -> listAnswer(actor, page, limit));
  }

  /** The user's activities that started before {@code windowStart} (and the cursor), newest first. */
  private Future<List<JsonObject>> older(long actor, boolean own, long windowStart, Long cs, Long ci, int want) {
    if (own) {
      return activities.organisedBefore(actor, windowStart, cs, ci, want);
    }
    return participants.joinedBefore(actor, windowStart, cs, ci, want)
        .compose(parts -> activities.byIds(parts.stream().map(p -> p.getLong("activity")).toList())
            .map(docs -> inOrderOf(parts, docs)));
  }

  /** The records of {@code parts}' activities in the order of {@code parts} (those missing left out). */
  private static List<JsonObject> inOrderOf(List<JsonObject> parts, List<JsonObject> docs) {
    Map<Long, JsonObject> byId = new HashMap<>();
    docs.forEach(d -> byId.put(d.getLong("_id"), d));
    return parts.stream().map(p -> byId.get(p.getLong("activity"))).filter(Objects::nonNull).toList();
  }

  /** Adds to the page the activities that are over and the user may see. */
  private Future<Void> addSeen(long actor, boolean own, List<JsonObject> docs, long now, List<Hot2> page) {
    List<Long> organisers = docs.stream().map(d -> d.getLong("organiser")).toList();
    return views.tiesOf(actor, organisers).map(ties -> {
      for (JsonObject d : docs) {
        if (d.getLong("end") <= now
            && Access.canSee(actor, d, involvedByList(own), ties.get(d.getLong("organiser")))) {
          page.add(new Hot2(d, null));
        }
      }
      return null;
    });
  }

  /** An entry of a list page: the record, and the viewer's part when read from Redis. */
  private record Hot2(JsonObject doc, HotActivities.Hot hot) {
  }

  /** The part a user has in an activity of their joined list (read from MongoDB: they hold a place). */
  private static HotActivities.Hot involvedByList(boolean own) {
    return own ? null : new HotActivities.Hot(null, 0L, null, false, false, 0);
  }

  /**
   * Reads a user list from Redis in rounds until {@code want} entries pass {@code keep} (and the viewer may see them,
   * and for joined lists still holds a place); answers whether the list was read to its end.
   */
  private Future<Boolean> scan(long actor, String key, boolean own, String min, String max, boolean descending,
                               int offset, int rounds, int want, List<Hot2> page, Predicate<HotActivities.Hot> keep) {
    int batch = Math.max(2 * want, 20);
    return hot.listRange(key, min, max, descending, offset, batch)
        .compose(entries -> views.visibleMany(actor, entries.stream().map(e -> e[0]).toList())
            .map(seen -> take(actor, own, seen, want, page, keep, entries.size())))
        .compose(read -> {
          boolean end = read < batch;
          if (page.size() >= want || end || rounds <= 1) {
            return Future.succeededFuture(end);
          }
          return scan(actor, key, own, min, max, descending, offset + read, rounds - 1, want, page, keep);
        });
  }

  /** Adds the entries that belong on the page until it holds {@code want}; answers {@code read}. */
  private static int take(long actor, boolean own, List<HotActivities.Hot> seen, int want, List<Hot2> page,
                          Predicate<HotActivities.Hot> keep, int read) {
    for (HotActivities.Hot h : seen) {
      if (page.size() >= want) {
        break;
      }
      if (!own && h.joinedAt() == null) {
        continue;
      }
      if (own && h.doc().getLong("organiser") != actor) {
        continue;
      }
      if (keep.test(h)) {
        page.add(new Hot2(h.doc(), h));
      }
    }
    return read;
  }

  private Future<JsonObject> listAnswer(long viewer, List<Hot2> page, int limit) {
    boolean more = page.size() > limit;
    List<Hot2> shown = more ? page.subList(0, limit) : page;
    return views.viewsOf(viewer, shown.stream().map(Hot2::doc).toList(), shown.stream().map(Hot2::hot).toList())
        .map(views -> {
          JsonObject last = shown.isEmpty() ? null : shown.get(shown.size() - 1).doc();
          return new JsonObject().put("items", new JsonArray(views))
              .put("next", more ? Input.startCursorOf(last) : null);
        });
  }
}
