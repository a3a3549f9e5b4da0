package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The organiser cancelled an activity.
 *
 * @param activity the activity
 * @param organiser its organiser
 * @param title its title
 * @param start its start (epoch ms)
 * @param participants the participants at the time (the organiser excluded)
 */
public record ActivityCancelled(long activity, long organiser, String title, long start, List<Long> participants)
    implements ActivitiesEvent {

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_CANCELLED;
  }

  @Override
  public JsonObject toJson() {
    return base().put("start", start).put("participants", new JsonArray(new ArrayList<>(participants)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityCancelled fromJson(JsonObject json) {
    return new ActivityCancelled(json.getLong("activity", 0L), json.getLong("organiser", 0L), json.getString("title"),
        json.getLong("start", 0L), Event.longs(json.getJsonArray("participants")));
  }
}
