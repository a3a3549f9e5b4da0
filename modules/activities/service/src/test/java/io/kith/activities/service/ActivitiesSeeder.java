package io.kith.activities.service;

import io.vertx.core.json.JsonObject;

/**
 * The activities domain's MongoDB storage as a seeder sees it: the collection and the record of a new activity,
 * which the bench bulk-inserts into a running Kith (a hundred thousand activities in seconds), bypassing the service.
 *
 * <p>It lives in this module's test-jar, built on the store's own constant, so no other module copies the
 * activities domain's collection name or document shape.
 */
public final class ActivitiesSeeder {

  /** The activity collection. */
  public static final String ACTIVITIES = ActivityStore.COLLECTION;
  /** {@code activities.reminder-before-seconds} by default, in milliseconds. */
  public static final long REMINDER_BEFORE_MS = 3_600_000L;

  private ActivitiesSeeder() {
  }

  /**
   * The record of a new open activity, as the service's create stores it, from a create body
   * ({@code title, start, end, place, visibility}).
   */
  public static JsonObject activity(JsonObject body, long id, long organiser, long now) {
    long start = body.getLong("start");
    return new JsonObject().put("_id", id).put("title", body.getString("title")).put("introduction", "")
        .put("start", start).put("end", body.getLong("end")).put("place", body.getJsonObject("place").copy())
        .putNull("capacity").put("waitlist", false).put("visibility", body.getString("visibility")).putNull("cover")
        .put("organiser", organiser).put("status", "open").put("joined_count", 0).put("waiting", 0)
        .putNull("discussion").put("disc_dirty", false).put("remind_at", start - REMINDER_BEFORE_MS)
        .put("reminded", false).put("created", now).put("updated", now).put("v", 1L);
  }
}
