package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upcoming open public activities near a position: candidates from the Redis GEO set → those the viewer may see →
 * ordered by start or distance → one page by offset, each view with its {@code distance_km}.
 */
final class Nearby {

  private final ActivitiesSettings settings;
  private final HotActivities hot;
  private final ActivityViews views;

  Nearby(ActivitiesSettings settings, HotActivities hot, ActivityViews views) {
    this.settings = settings;
    this.hot = hot;
    this.views = views;
  }

  /** A nearby query, checked. */
  private record Query(double lat, double lon, double radius, String order, int limit, int offset) {
  }

  /** See {@link io.kith.activities.api.ActivitiesService#nearby}. */
  Future<JsonObject> nearby(long viewer, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      double lat = Input.required(q, "lat", 90);
      double lon = Input.required(q, "lon", 180);
      Object r = q.getValue("radius_km");
      if (!(r instanceof Number) || !Double.isFinite(((Number) r).doubleValue())
          || ((Number) r).doubleValue() <= 0 || ((Number) r).doubleValue() > Activities.MAX_RADIUS_KM) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "radius_km",
            "radius_km must be more than 0 and at most " + (int) Activities.MAX_RADIUS_KM);
      }
      double radius = ((Number) r).doubleValue();
      Object o = q.getValue("order");
      String order = o == null ? Activities.BY_START : String.valueOf(o);
      if (!List.of(Activities.BY_START, Activities.BY_DISTANCE).contains(order)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "order", "order must be start or distance");
      }
      int limit = Input.limit(q);
      int offset = Input.offsetCursor(q);
      return near(viewer, new Query(lat, lon, radius, order, limit, offset), System.currentTimeMillis());
    });
  }

  private Future<JsonObject> near(long viewer, Query q, long now) {
    return hot.near(q.lat(), q.lon(), q.radius(), settings.nearbyCandidates()).compose(hits -> {
      Map<Long, Double> distance = new LinkedHashMap<>();
      hits.forEach(h -> distance.put((long) h[0], h[1]));
      return views.visibleMany(viewer, new ArrayList<>(distance.keySet()))
          .compose(seen -> page(viewer, q, distance, ranked(seen, q.order(), distance, now)));
    });
  }

  /** The open public activities not started yet, in the order asked (then by id). */
  private static List<HotActivities.Hot> ranked(List<HotActivities.Hot> seen, String order,
                                                Map<Long, Double> distance, long now) {
    List<HotActivities.Hot> open = new ArrayList<>(seen.stream()
        .filter(h -> Activities.OPEN.equals(h.doc().getString("status"))
            && Activities.PUBLIC.equals(h.doc().getString("visibility")) && h.doc().getLong("start") > now)
        .toList());
    Comparator<HotActivities.Hot> byId = Comparator.comparingLong(h -> h.doc().getLong("_id"));
    open.sort(Activities.BY_DISTANCE.equals(order)
        ? Comparator.<HotActivities.Hot>comparingDouble(h -> distance.get(h.doc().getLong("_id")))
            .thenComparing(byId)
        : Comparator.<HotActivities.Hot>comparingLong(h -> h.doc().getLong("start")).thenComparing(byId));
    return open;
  }

  private Future<JsonObject> page(long viewer, Query q, Map<Long, Double> distance, List<HotActivities.Hot> open) {
    int offset = q.offset();
    int limit = q.limit();
    List<HotActivities.Hot> shown = open.subList(Math.min(offset, open.size()),
        Math.min(offset + limit, open.size()));
    return views.viewsOf(viewer, shown.stream().map(HotActivities.Hot::doc).toList(), shown).map(views -> {
      for (int i = 0; i < views.size(); i++) {
        double km = distance.get(shown.get(i).doc().getLong("_id"));
        views.get(i).put("distance_km", Math.round(km * 1000.0) / 1000.0);
      }
      return new JsonObject().put("items", new JsonArray(views))
          .put("next", offset + limit < open.size() ? Integer.toString(offset + limit) : null);
    });
  }
}
