package io.kith.moderation.api.events;

import io.kith.moderation.api.ModerationEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * A moderator decided an appeal; the appellant is notified with the outcome and the reason.
 *
 * @param appealId the appeal
 * @param userId   the appellant
 * @param decision {@code uphold} or {@code overturn}
 * @param reason   the deciding moderator's reason, shown to the appellant
 */
public record AppealDecided(long appealId, long userId, String decision, String reason) implements Event {

  @Override
  public String eventType() {
    return ModerationEvents.APPEAL_DECIDED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("appeal_id", appealId).put("user_id", userId).put("decision", decision)
        .put("reason", reason);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static AppealDecided fromJson(JsonObject json) {
    return new AppealDecided(json.getLong("appeal_id", 0L), json.getLong("user_id", 0L), json.getString("decision"),
        json.getString("reason"));
  }
}
