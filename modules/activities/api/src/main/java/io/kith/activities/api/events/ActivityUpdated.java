package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The organiser edited an activity; participants are told when {@code changed} holds {@code start}, {@code end} or
 * {@code place}.
 *
 * @param activity the activity
 * @param organiser its organiser
 * @param title its title
 * @param changed the names of the changed fields
 * @param start its start (epoch ms)
 * @param end its end (epoch ms)
 * @param place its place {@code {name, lat?, lon?}}
 * @param participants the participants at the time (the organiser excluded)
 */
public record ActivityUpdated(long activity, long organiser, String title, List<String> changed, long start, long end,
                              JsonObject place, List<Long> participants)
    implements ActivitiesEvent {

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_UPDATED;
  }

  @Override
  public JsonObject toJson() {
    return base().put("changed", new JsonArray(new ArrayList<>(changed))).put("start", start).put("end", end)
        .put("place", place == null ? null : place.copy())
        .put("participants", new JsonArray(new ArrayList<>(participants)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityUpdated fromJson(JsonObject json) {
    return new ActivityUpdated(json.getLong("activity", 0L), json.getLong("organiser", 0L), json.getString("title"),
        Event.strings(json.getJsonArray("changed")), json.getLong("start", 0L), json.getLong("end", 0L),
        json.getJsonObject("place"), Event.longs(json.getJsonArray("participants")));
  }
}
