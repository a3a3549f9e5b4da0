package io.kith.accounts.api.events;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Profile fields or settings changed.
 *
 * @param userId whose profile
 * @param fields the names of the changed fields
 */
public record ProfileUpdated(long userId, List<String> fields) implements Event {

  @Override
  public String eventType() {
    return AccountsEvents.PROFILE_UPDATED;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("user_id", userId).put("fields", new JsonArray(new ArrayList<>(fields)));
  }

  /** Reads a payload as {@link #toJson} writes it (and as the stream has always held it). */
  public static ProfileUpdated fromJson(JsonObject json) {
    return new ProfileUpdated(json.getLong("user_id", 0L), Event.strings(json.getJsonArray("fields")));
  }
}
