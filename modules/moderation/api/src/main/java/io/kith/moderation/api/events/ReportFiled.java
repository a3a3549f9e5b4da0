package io.kith.moderation.api.events;

import io.kith.moderation.api.ModerationEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * A report was filed. It names the target and its owner but not the reporter.
 *
 * @param reportId    the report
 * @param targetType  what was reported ({@code user}, {@code post}, ...)
 * @param targetId    its id
 * @param targetOwner the user the target belongs to (the user itself for a user report)
 * @param category    why
 */
public record ReportFiled(long reportId, String targetType, long targetId, long targetOwner, String category)
    implements Event {

  @Override
  public String eventType() {
    return ModerationEvents.REPORT_FILED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("report_id", reportId).put("target_type", targetType).put("target_id", targetId)
        .put("target_owner", targetOwner).put("category", category);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static ReportFiled fromJson(JsonObject json) {
    return new ReportFiled(json.getLong("report_id", 0L), json.getString("target_type"),
        json.getLong("target_id", 0L), json.getLong("target_owner", 0L), json.getString("category"));
  }
}
