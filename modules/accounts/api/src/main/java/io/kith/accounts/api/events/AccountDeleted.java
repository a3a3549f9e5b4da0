package io.kith.accounts.api.events;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * An account was erased by accounts after its deletion grace period. Every domain consumes it (with
 * {@code EventLog.once}) and erases everything of the user, recording what it erased with
 * {@code io.kith.platform.events.Erasures}; see the accounts README, "Deletion".
 *
 * @param userId    the deleted account; its id is never given to anyone else
 * @param deletedAt when accounts finished erasing its own data (epoch milliseconds)
 */
public record AccountDeleted(long userId, long deletedAt) implements Event {

  @Override
  public String eventType() {
    return AccountsEvents.ACCOUNT_DELETED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("user_id", userId).put("deleted_at", deletedAt);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static AccountDeleted fromJson(JsonObject json) {
    return new AccountDeleted(json.getLong("user_id", 0L), json.getLong("deleted_at", 0L));
  }
}
