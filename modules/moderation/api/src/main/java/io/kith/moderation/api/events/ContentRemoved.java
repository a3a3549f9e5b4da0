package io.kith.moderation.api.events;

import io.kith.moderation.api.ModerationEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * A moderator removed content on a report: the post, comment, message, group or activity is unavailable to everyone
 * but moderators from now on.
 *
 * @param targetType what was removed ({@code post}, {@code comment}, {@code message}, {@code group}, {@code activity})
 * @param targetId   its id
 * @param owner      the user it belonged to (its author, sender, owner or organiser)
 * @param reportId   the report the decision closed
 */
public record ContentRemoved(String targetType, long targetId, long owner, long reportId) implements Event {

  @Override
  public String eventType() {
    return ModerationEvents.CONTENT_REMOVED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("target_type", targetType).put("target_id", targetId).put("owner", owner)
        .put("report_id", reportId);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static ContentRemoved fromJson(JsonObject json) {
    return new ContentRemoved(json.getString("target_type"), json.getLong("target_id", 0L),
        json.getLong("owner", 0L), json.getLong("report_id", 0L));
  }
}
