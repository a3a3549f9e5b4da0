package io.kith.moderation.api.events;

import io.kith.moderation.api.ModerationEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * A user was limited: their posts left the public surfaces and they may message only their followers until
 * {@code until}.
 *
 * @param sanctionId the sanction (the decision a user may appeal)
 * @param userId     the sanctioned user
 * @param until      when the limit ends (epoch ms; 0 = permanent)
 * @param reason     the moderator's reason, shown to the user
 */
public record UserLimited(long sanctionId, long userId, long until, String reason) implements Event {

  @Override
  public String eventType() {
    return ModerationEvents.USER_LIMITED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("sanction_id", sanctionId).put("user_id", userId).put("until", until)
        .put("reason", reason);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static UserLimited fromJson(JsonObject json) {
    return new UserLimited(json.getLong("sanction_id", 0L), json.getLong("user_id", 0L), json.getLong("until", 0L),
        json.getString("reason"));
  }
}
