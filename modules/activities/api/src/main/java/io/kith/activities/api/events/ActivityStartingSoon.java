package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * An activity starts soon (the reminder, appended once per activity even with several nodes); the organiser and every
 * participant are told.
 *
 * @param activity the activity
 * @param organiser its organiser
 * @param title its title
 * @param start its start (epoch ms)
 * @param place its place {@code {name, ...}}
 * @param participants the participants at the time (the organiser excluded)
 */
public record ActivityStartingSoon(long activity, long organiser, String title, long start, JsonObject place,
                                   List<Long> participants)
    implements ActivitiesEvent {

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_STARTING_SOON;
  }

  @Override
  public JsonObject toJson() {
    return base().put("start", start).put("place", place == null ? null : place.copy())
        .put("participants", new JsonArray(new ArrayList<>(participants)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityStartingSoon fromJson(JsonObject json) {
    return new ActivityStartingSoon(json.getLong("activity", 0L), json.getLong("organiser", 0L),
        json.getString("title"), json.getLong("start", 0L), json.getJsonObject("place"),
        Event.longs(json.getJsonArray("participants")));
  }
}
