package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.page.Page;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Creating, editing and cancelling activities")
class OrganiserTest extends ActivitiesTestBase {

  @Test
  @DisplayName("an activity is created with its fields and defaults, read back by others, and ActivityCreated is appended")
  void create() throws Exception {
    long organiser = newUser();
    long reader = newUser();
    try (EventRecorder events = recordEvents()) {
      JsonObject body = body().put("capacity", 10).put("waitlist", true)
          .put("place", new JsonObject().put("name", "Café Nord").put("lat", 52.52).put("lon", 13.405))
          .put("cover", new JsonObject().put("url", "https://example.org/cover.jpg"));
      JsonObject view = create(organiser, body);
      long id = view.getLong("id");
      assertEquals(body.getString("title"), view.getString("title"));
      assertEquals(body.getLong("start"), view.getLong("start"));
      assertEquals(10, view.getInteger("capacity"));
      assertTrue(view.getBoolean("waitlist"));
      assertEquals("public", view.getString("visibility"));
      assertEquals("open", view.getString("status"));
      assertEquals(0, view.getInteger("participant_count"));
      assertEquals(52.52, view.getJsonObject("place").getDouble("lat"));
      assertEquals("https://example.org/cover.jpg", view.getJsonObject("cover").getString("url"));
      assertEquals(organiser, view.getJsonObject("organiser").getLong("id"));
      assertTrue(view.getJsonObject("organiser").containsKey("username"), "organiser summary: " + view);
      assertEquals("organiser", view.getJsonObject("viewer").getString("status"));

      JsonObject seen = await(activities.activity(reader, id));
      assertEquals(view.getString("title"), seen.getString("title"));
      assertEquals("none", seen.getJsonObject("viewer").getString("status"));
      assertEquals(id, await(activities.activity(0, id)).getLong("id"), "anonymous readers see public activities");

      DomainEvent created = events.await(ActivitiesEvents.ACTIVITY_CREATED, id, 1).get(0);
      assertEquals(new JsonObject().put("activity", id).put("organiser", organiser).put("title", body.getString("title"))
          .put("start", body.getLong("start")).put("end", body.getLong("end")).put("visibility", "public"),
          created.payload());
    }
  }

  @Test
  @DisplayName("invalid titles, times, places, coordinates, capacities, visibilities and covers are refused naming the field")
  void validation() throws Exception {
    long u = newUser();
    long now = System.currentTimeMillis();
    failsWith("validation_failed", "title", activities.create(u, body().put("title", " ")));
    failsWith("validation_failed", "title", activities.create(u, body().put("title", "x".repeat(101))));
    create(u, body().put("title", "😀".repeat(100)));
    failsWith("validation_failed", "introduction", activities.create(u, body().put("introduction", "x".repeat(5001))));
    failsWith("validation_failed", "start", activities.create(u, body().put("start", now - 1000)));
    failsWith("validation_failed", "start", activities.create(u, body().putNull("start")));
    failsWith("validation_failed", "start", activities.create(u, body().put("start", "tomorrow")));
    JsonObject b = body();
    failsWith("validation_failed", "end", activities.create(u, b.put("end", b.getLong("start"))));
    JsonObject b2 = body();
    failsWith("validation_failed", "end", activities.create(u, b2.put("end", b2.getLong("start") + 31 * DAY)));
    failsWith("validation_failed", "start", activities.create(u, body(3 * 365 * DAY)));
    failsWith("validation_failed", "place", activities.create(u, body().putNull("place")));
    failsWith("validation_failed", "place.name", activities.create(u, body().put("place", new JsonObject())));
    failsWith("validation_failed", "place.lat", activities.create(u, body().put("place",
        new JsonObject().put("name", "x").put("lat", 90.5).put("lon", 0))));
    failsWith("validation_failed", "place.lon", activities.create(u, body().put("place",
        new JsonObject().put("name", "x").put("lat", 10).put("lon", -180.01))));
    failsWith("validation_failed", "place.lon", activities.create(u, body().put("place",
        new JsonObject().put("name", "x").put("lat", 10))));
    failsWith("validation_failed", "capacity", activities.create(u, body().put("capacity", 0)));
    failsWith("validation_failed", "capacity", activities.create(u, body().put("capacity", 5001)));
    failsWith("validation_failed", "capacity", activities.create(u, body().put("capacity", 2.5)));
    failsWith("validation_failed", "visibility", activities.create(u, body().put("visibility", "secret")));
    failsWith("validation_failed", "waitlist", activities.create(u, body().put("waitlist", "yes")));
    failsWith("validation_failed", "cover.url", activities.create(u, body().put("cover",
        new JsonObject().put("url", "http://example.org/a.jpg"))));
    failsWith("validation_failed", "cover.url", activities.create(u, body().put("cover",
        new JsonObject().put("url", "https://example.org/" + "a".repeat(500)))));
    failsWith("validation_failed", "cover", activities.create(u, body().put("cover",
        new JsonObject().put("url", "https://example.org/a.jpg").put("media", 1))));
    failsWith("validation_failed", "cover.media", activities.create(u, body().put("cover",
        new JsonObject().put("media", 123456789L))));
    failsWith("validation_failed", "colour", activities.create(u, body().put("colour", "red")));
    failsWith("unauthenticated", null, activities.create(0, body()));
  }

  @Test
  @DisplayName("the organiser edits; participants are told which fields changed, with the new time and place")
  void edit() throws Exception {
    List<Long> u = newUsers(3);
    long organiser = u.get(0);
    long id = createId(organiser, body().put("capacity", 5));
    join(u.get(1), id);
    join(u.get(2), id);
    try (EventRecorder events = recordEvents()) {
      long start = System.currentTimeMillis() + 2 * DAY;
      JsonObject changed = await(activities.update(organiser, id, new JsonObject().put("start", start)
          .put("end", start + HOUR).put("place", new JsonObject().put("name", "The lake")).put("title", "Renamed")
          .put("introduction", null).put("capacity", 2)));
      assertEquals(start, changed.getLong("start"));
      assertEquals("The lake", changed.getJsonObject("place").getString("name"));
      assertEquals("", changed.getString("introduction"));
      assertEquals(2, changed.getInteger("capacity"));
      DomainEvent e = events.await(ActivitiesEvents.ACTIVITY_UPDATED, id, 1).get(0);
      assertEquals(new JsonArray().add("title").add("introduction").add("start").add("end").add("place")
          .add("capacity"), e.payload().getJsonArray("changed"));
      assertEquals(start, e.payload().getLong("start"));
      assertEquals("The lake", e.payload().getJsonObject("place").getString("name"));
      assertEquals(List.of(u.get(1), u.get(2)), longs(e.payload().getJsonArray("participants")));
      assertEquals("Renamed", e.payload().getString("title"));
      // the joined list follows the new start
      JsonObject mine = await(activities.joined(u.get(1), filters(new JsonObject()), pageOf(new JsonObject()))
          .map(Page::toJson));
      assertEquals(start, mine.getJsonArray("items").getJsonObject(0).getLong("start"));
    }
    // an edit that changes nothing appends nothing and answers the view
    JsonObject same = await(activities.update(organiser, id, new JsonObject().put("title", "Renamed")));
    assertEquals("Renamed", same.getString("title"));
  }

  @Test
  @DisplayName("edits are refused: someone else's activity, invalid values, a capacity below the participants, a cancelled one")
  void editRefusals() throws Exception {
    List<Long> u = newUsers(4);
    long organiser = u.get(0);
    long id = createId(organiser, body().put("capacity", 5));
    failsWith("not_organiser", null, activities.update(u.get(1), id, new JsonObject().put("title", "Mine now")));
    failsWith("not_organiser", null, activities.cancel(u.get(1), id));
    long hidden = createId(organiser, body().put("visibility", "invitation"));
    failsWith("activity_not_found", null, activities.update(u.get(1), hidden, new JsonObject().put("title", "x")));
    failsWith("activity_not_found", null, activities.cancel(u.get(1), hidden));
    failsWith("activity_not_found", null, activities.update(organiser, 987654321L, new JsonObject().put("title", "x")));
    failsWith("validation_failed", "start", activities.update(organiser, id,
        new JsonObject().put("start", System.currentTimeMillis() - 1)));
    JsonObject view = await(activities.activity(organiser, id));
    failsWith("validation_failed", "end", activities.update(organiser, id,
        new JsonObject().put("end", view.getLong("start") - 1)));
    failsWith("validation_failed", "title", activities.update(organiser, id, new JsonObject()));
    failsWith("validation_failed", "title", activities.update(organiser, id, new JsonObject().putNull("title")));
    join(u.get(1), id);
    join(u.get(2), id);
    join(u.get(3), id);
    failsWith("validation_failed", "capacity", activities.update(organiser, id, new JsonObject().put("capacity", 2)));
    assertEquals(3, await(activities.update(organiser, id, new JsonObject().put("capacity", 3)))
        .getInteger("capacity"));
    await(activities.cancel(organiser, id));
    failsWith("activity_cancelled", null, activities.update(organiser, id, new JsonObject().put("title", "x")));
  }

  @Test
  @DisplayName("cancelling tells the participants, keeps the activity readable as cancelled, and is idempotent")
  void cancel() throws Exception {
    List<Long> u = newUsers(3);
    long id = createId(u.get(0), body());
    join(u.get(1), id);
    try (EventRecorder events = recordEvents()) {
      JsonObject cancelled = await(activities.cancel(u.get(0), id));
      assertEquals("cancelled", cancelled.getString("status"));
      assertEquals("cancelled", await(activities.cancel(u.get(0), id)).getString("status"));
      JsonObject seen = await(activities.activity(u.get(1), id));
      assertEquals("cancelled", seen.getString("status"));
      assertEquals("joined", seen.getJsonObject("viewer").getString("status"));
      List<DomainEvent> e = events.await(ActivitiesEvents.ACTIVITY_CANCELLED, id, 1);
      assertEquals(List.of(u.get(1)), longs(e.get(0).payload().getJsonArray("participants")));
      assertEquals(1, events.of(ActivitiesEvents.ACTIVITY_CANCELLED, id).size());
    }
    failsWith("activity_cancelled", null, activities.join(u.get(2), id));
  }

  @Test
  @DisplayName("a missing activity and an invalid id are activity_not_found")
  void missing() throws Exception {
    long u = newUser();
    failsWith("activity_not_found", null, activities.activity(u, 42L));
    failsWith("activity_not_found", null, activities.activity(u, -1L));
    failsWith("activity_not_found", null, activities.join(u, 42L));
    JsonObject none = await(activitiesInternal.visibleActivities(u, List.of(42L)));
    assertTrue(none.getJsonArray("items").isEmpty());
  }
}
