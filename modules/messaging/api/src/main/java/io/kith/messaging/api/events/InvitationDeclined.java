package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.vertx.core.json.JsonObject;

/**
 * An invited user declined a friend group's invitation.
 *
 * @param group the group
 * @param user who declined
 */
public record InvitationDeclined(long group, long user) implements MessagingEvent {

  @Override
  public String eventType() {
    return MessagingEvents.INVITATION_DECLINED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("group", group).put("user", user);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static InvitationDeclined fromJson(JsonObject json) {
    return new InvitationDeclined(json.getLong("group", 0L), json.getLong("user", 0L));
  }
}
