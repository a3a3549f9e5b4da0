package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.PresenceChanged;
import io.kith.accounts.api.events.ProfileUpdated;
import io.kith.accounts.api.events.UserRegistered;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The typed accounts events write and read the payloads the stream has always held. */
class EventRecordsTest {

  @Test
  @DisplayName("UserRegistered, ProfileUpdated and PresenceChanged write their payloads byte for byte as before")
  void writesTodaysPayloads() {
    // each expected payload is built as the emitter built it before the records
    assertEquals(new JsonObject().put("user_id", 12L).put("username", "ada").encode(),
        new UserRegistered(12, "ada").toJson().encode());
    assertEquals(new JsonObject().put("user_id", 12L).put("fields", new JsonArray(List.of("bio", "settings"))).encode(),
        new ProfileUpdated(12, List.of("bio", "settings")).toJson().encode());
    assertEquals(new JsonObject().put("user_id", 12L).put("online", true).put("mode", "away").encode(),
        new PresenceChanged(12, true, "away").toJson().encode());
    assertEquals(AccountsEvents.USER_REGISTERED, new UserRegistered(1, "a").eventType());
    assertEquals(AccountsEvents.PROFILE_UPDATED, new ProfileUpdated(1, List.of()).eventType());
    assertEquals(AccountsEvents.PRESENCE_CHANGED, new PresenceChanged(1, false, null).eventType());
  }

  @Test
  @DisplayName("stored accounts payloads read back to the records that write them")
  void readsStoredPayloads() {
    assertEquals(new UserRegistered(9007199254740991L, "zoë"),
        UserRegistered.fromJson(new JsonObject("{\"user_id\":9007199254740991,\"username\":\"zoë\"}")));
    assertEquals(new ProfileUpdated(3, List.of("nickname")),
        ProfileUpdated.fromJson(new JsonObject("{\"user_id\":3,\"fields\":[\"nickname\"]}")));
    assertEquals(new PresenceChanged(3, false, "invisible"),
        PresenceChanged.fromJson(new JsonObject("{\"user_id\":3,\"online\":false,\"mode\":\"invisible\"}")));
    PresenceChanged p = new PresenceChanged(5, true, "online");
    assertEquals(p, PresenceChanged.fromJson(new JsonObject(p.toJson().encode())));
  }
}
