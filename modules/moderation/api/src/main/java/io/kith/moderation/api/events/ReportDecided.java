package io.kith.moderation.api.events;

import io.kith.moderation.api.ModerationEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * A report was decided; its reporter is told.
 *
 * @param reportId   the report
 * @param reporterId who filed it
 * @param decision   what was decided ({@code dismiss}, ...)
 * @param targetType what was reported
 * @param targetId   its id
 */
public record ReportDecided(long reportId, long reporterId, String decision, String targetType, long targetId)
    implements Event {

  @Override
  public String eventType() {
    return ModerationEvents.REPORT_DECIDED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("report_id", reportId).put("reporter_id", reporterId).put("decision", decision)
        .put("target_type", targetType).put("target_id", targetId);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static ReportDecided fromJson(JsonObject json) {
    return new ReportDecided(json.getLong("report_id", 0L), json.getLong("reporter_id", 0L),
        json.getString("decision"), json.getString("target_type"), json.getLong("target_id", 0L));
  }
}
