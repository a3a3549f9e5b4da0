package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.vertx.core.json.JsonObject;

/**
 * A pending group invitation passed its lifetime and was removed.
 *
 * @param group the group
 * @param user the invited user
 * @param expiredAt the moment it expired (epoch ms)
 */
public record InvitationExpired(long group, long user, long expiredAt) implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.INVITATION_EXPIRED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("group", group).put("user", user).put("expired_at", expiredAt);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static InvitationExpired fromJson(JsonObject json) {
    return new InvitationExpired(json.getLong("group", 0L), json.getLong("user", 0L), json.getLong("expired_at", 0L));
  }
}
