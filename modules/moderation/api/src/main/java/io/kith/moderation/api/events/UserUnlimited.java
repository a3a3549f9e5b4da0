package io.kith.moderation.api.events;

import io.kith.moderation.api.ModerationEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * A limit was ended (an unlimit, or an overturned appeal).
 *
 * @param sanctionId the sanction (the decision a user may appeal)
 * @param userId     the sanctioned user
 * @param reason     the moderator's reason, shown to the user
 */
public record UserUnlimited(long sanctionId, long userId, String reason) implements Event {

  @Override
  public String eventType() {
    return ModerationEvents.USER_UNLIMITED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("sanction_id", sanctionId).put("user_id", userId).put("reason", reason);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static UserUnlimited fromJson(JsonObject json) {
    return new UserUnlimited(json.getLong("sanction_id", 0L), json.getLong("user_id", 0L), json.getString("reason"));
  }
}
