package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The organiser invited users to an activity.
 *
 * @param activity the activity
 * @param organiser its organiser
 * @param title its title
 * @param start its start (epoch ms)
 * @param invited the invited users
 */
public record ActivityInvited(long activity, long organiser, String title, long start, List<Long> invited)
    implements ActivitiesEvent {

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_INVITED;
  }

  @Override
  public JsonObject toJson() {
    return base().put("start", start).put("invited", new JsonArray(new ArrayList<>(invited)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityInvited fromJson(JsonObject json) {
    return new ActivityInvited(json.getLong("activity", 0L), json.getLong("organiser", 0L), json.getString("title"),
        json.getLong("start", 0L), Event.longs(json.getJsonArray("invited")));
  }
}
