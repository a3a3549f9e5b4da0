package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.vertx.core.json.JsonObject;

/**
 * A user became a participant; the organiser is told.
 *
 * @param activity the activity
 * @param organiser its organiser
 * @param title its title
 * @param user the new participant
 * @param via {@code join}, {@code invitation} or {@code promoted} (from the waitlist when a place freed up)
 */
public record ActivityJoined(long activity, long organiser, String title, long user, String via)
    implements ActivitiesEvent {

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_JOINED;
  }

  @Override
  public JsonObject toJson() {
    return base().put("user", user).put("via", via);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityJoined fromJson(JsonObject json) {
    return new ActivityJoined(json.getLong("activity", 0L), json.getLong("organiser", 0L), json.getString("title"),
        json.getLong("user", 0L), json.getString("via"));
  }
}
