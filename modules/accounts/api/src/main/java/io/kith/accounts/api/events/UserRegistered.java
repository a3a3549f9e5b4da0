package io.kith.accounts.api.events;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * An account was created.
 *
 * @param userId the new account
 * @param username its username
 */
public record UserRegistered(long userId, String username) implements Event {

  @Override
  public String eventType() {
    return AccountsEvents.USER_REGISTERED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("user_id", userId).put("username", username);
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static UserRegistered fromJson(JsonObject json) {
    return new UserRegistered(json.getLong("user_id", 0L), json.getString("username"));
  }
}
