package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.vertx.core.json.JsonObject;

/**
 * An activity was created.
 *
 * @param activity the activity
 * @param organiser its organiser
 * @param title its title
 * @param start its start (epoch ms)
 * @param end its end (epoch ms)
 * @param visibility who may see it
 */
public record ActivityCreated(long activity, long organiser, String title, long start, long end, String visibility)
    implements ActivitiesEvent {

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_CREATED;
  }

  @Override
  public JsonObject toJson() {
    return base().put("start", start).put("end", end).put("visibility", visibility);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityCreated fromJson(JsonObject json) {
    return new ActivityCreated(json.getLong("activity", 0L), json.getLong("organiser", 0L), json.getString("title"),
        json.getLong("start", 0L), json.getLong("end", 0L), json.getString("visibility"));
  }
}
