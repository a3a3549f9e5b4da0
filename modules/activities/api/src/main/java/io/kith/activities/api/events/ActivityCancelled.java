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
 * @param organiserDeleted the organiser's account was deleted (the activity is cancelled by its erasure, and the
 *     participants' notices name no actor); in the payload as {@code organiser_deleted: true} only when set
 */
public record ActivityCancelled(long activity, long organiser, String title, long start, List<Long> participants,
                                boolean organiserDeleted) implements ActivitiesEvent {

  /** The organiser's own cancel. */
  public ActivityCancelled(long activity, long organiser, String title, long start, List<Long> participants) {
    this(activity, organiser, title, start, participants, false);
  }

  @Override
  public String eventType() {
    return ActivitiesEvents.ACTIVITY_CANCELLED;
  }

  @Override
  public JsonObject toJson() {
    JsonObject json = base().put("start", start).put("participants", new JsonArray(new ArrayList<>(participants)));
    return organiserDeleted ? json.put("organiser_deleted", true) : json;
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ActivityCancelled fromJson(JsonObject json) {
    return new ActivityCancelled(json.getLong("activity", 0L), json.getLong("organiser", 0L), json.getString("title"),
        json.getLong("start", 0L), Event.longs(json.getJsonArray("participants")),
        json.getBoolean("organiser_deleted", false));
  }
}
