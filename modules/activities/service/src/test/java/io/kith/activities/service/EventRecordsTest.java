package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.events.ActivitiesEvent;
import io.kith.activities.api.events.ActivityCancelled;
import io.kith.activities.api.events.ActivityCreated;
import io.kith.activities.api.events.ActivityInvited;
import io.kith.activities.api.events.ActivityJoined;
import io.kith.activities.api.events.ActivityLeft;
import io.kith.activities.api.events.ActivityStartingSoon;
import io.kith.activities.api.events.ActivityUpdated;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The typed activities events write and read the payloads the stream has always held. */
class EventRecordsTest {

  /** The members every payload started with: what {@code Effects.base(doc)} wrote before the records. */
  private static JsonObject base() {
    return new JsonObject().put("activity", 5L).put("organiser", 1L).put("title", "Run");
  }

  @Test
  @DisplayName("every activities event writes its payload byte for byte as the emitters wrote it and reads back equal")
  void roundTrip() {
    JsonObject place = new JsonObject().put("name", "Park").put("lat", 52.5).put("lon", 13.4);
    Map<ActivitiesEvent, JsonObject> before = new LinkedHashMap<>();
    before.put(new ActivityCreated(5, 1, "Run", 100, 200, "public"),
        base().put("start", 100L).put("end", 200L).put("visibility", "public"));
    before.put(new ActivityUpdated(5, 1, "Run", List.of("start", "place"), 100, 200, place, List.of(2L, 3L)),
        base().put("changed", new JsonArray(List.of("start", "place"))).put("start", 100L).put("end", 200L)
            .put("place", place).put("participants", new JsonArray(List.of(2L, 3L))));
    before.put(new ActivityCancelled(5, 1, "Run", 100, List.of()),
        base().put("start", 100L).put("participants", new JsonArray()));
    before.put(new ActivityJoined(5, 1, "Run", 2, "promoted"), base().put("user", 2L).put("via", "promoted"));
    before.put(new ActivityLeft(5, 1, "Run", 2, null), base().put("user", 2L));
    before.put(new ActivityLeft(5, 1, "Run", 2, 1L), base().put("user", 2L).put("removed_by", 1L));
    before.put(new ActivityInvited(5, 1, "Run", 100, List.of(4L)),
        base().put("start", 100L).put("invited", new JsonArray(List.of(4L))));
    before.put(new ActivityStartingSoon(5, 1, "Run", 100, place, List.of(2L)),
        base().put("start", 100L).put("place", place).put("participants", new JsonArray(List.of(2L))));
    before.forEach((event, json) -> {
      assertEquals(json.encode(), event.toJson().encode(), event.eventType());
      assertEquals(event, ActivitiesEvent.fromJson(event.eventType(), new JsonObject(json.encode())));
    });
    assertEquals(8, before.size());
  }

  @Test
  @DisplayName("stored activities payloads read as consumers read them: removed_by absent is null, unknown types skipped")
  void readsStoredPayloads() {
    ActivitiesEvent left = ActivitiesEvent.fromJson(ActivitiesEvents.ACTIVITY_LEFT,
        new JsonObject("{\"activity\":5,\"organiser\":1,\"title\":\"Run\",\"user\":2}"));
    assertEquals(new ActivityLeft(5, 1, "Run", 2, null), left);
    assertEquals(5L, left.activity());
    assertNull(ActivitiesEvent.fromJson("ActivityPostponed", base()));
  }
}
