package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.vertx.core.json.JsonObject;

/**
 * A participant left or was removed; a removed user is told.
 *
 * @param activity the activity
 * @param organiser its organiser
 * @param title its title
 * @param user who left
 * @param removedBy the organiser, when removed; null (absent) when the user left
 */
public record ActivityLeft(long activity, long organiser, String title, long user, Long removedBy)
    implements ActivitiesEvent {

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_LEFT;
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = base();
    json.put("user", user);
    if (removedBy != null) {
      json.put("removed_by", removedBy);
    }
    return json;
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityLeft fromJson(JsonObject json) {
    return new ActivityLeft(json.getLong("activity", 0L), json.getLong("organiser", 0L), json.getString("title"),
        json.getLong("user", 0L), json.getLong("removed_by"));
  }
}
