package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reminder claim against a start moved later between a sweep's read of the due set and its claim, played
 * deterministically: the test drives one {@link Reminders#remind} itself with the time the sweep read the queue at.
 */
@DisplayName("Activities reminders")
class RemindersTest extends ActivitiesTestBase {

  private Reminders reminders() {
    ActivitiesSettings settings = ActivitiesSettings.from(new JsonObject());
    ActivityStore store = new ActivityStore(platform.mongo());
    ParticipantStore parts = new ParticipantStore(platform.mongo());
    HotActivities hot = new HotActivities(platform.redis(), settings.warmMillis());
    WarmStart loader = new WarmStart(store, parts, hot, settings.warmMillis());
    return new Reminders(platform, settings, store, parts, hot, loader, new Effects(platform, hot, loader),
        relationsInternal);
  }

  @Test
  @DisplayName("a start moved later after the sweep read the due entry is re-queued at the new time, not sent now")
  void movedLaterBetweenReadAndClaim() throws Exception {
    Reminders reminders = reminders();
    HotActivities hot = new HotActivities(platform.redis(), DAY);
    ActivityStore store = new ActivityStore(platform.mongo());
    long organiser = newUser();
    long user = newUser();
    long id = createId(organiser, body(DAY));
    join(user, id);
    long oldRemindAt = await(store.byId(id)).getLong("remind_at");
    // the sweep reads the due set at this time (the old entry is due) ...
    long sweptAt = oldRemindAt + 1;
    // ... then the organiser moves the start a day later (its copy re-queues the entry at the new time) ...
    JsonObject doc = await(store.byId(id));
    long newStart = doc.getLong("start") + DAY;
    await(activities.update(organiser, id, new JsonObject().put("start", newStart).put("end", newStart + HOUR)));
    long newRemindAt = await(store.byId(id)).getLong("remind_at");
    assertTrue(newRemindAt > sweptAt);
    // ... then the sweep's ZREM takes the (new) entry and it claims the reminder
    assertTrue(await(hot.takeDue(id)));
    try (EventRecorder events = recordEvents()) {
      await(reminders.remind(id, sweptAt));
      assertFalse(await(store.byId(id)).getBoolean("reminded"), "not claimed: the reminder is not due yet");
      assertEquals(List.of(id), await(hot.due(newRemindAt, 100_000)).stream().filter(x -> x == id).toList(),
          "re-queued");
      assertTrue(await(hot.due(newRemindAt - 1, 100_000)).stream().noneMatch(x -> x == id),
          "re-queued at the new reminder time");
      // at the new time the reminder is claimed and sent once, naming the participant
      assertTrue(await(hot.takeDue(id)));
      await(reminders.remind(id, newRemindAt));
      assertTrue(await(store.byId(id)).getBoolean("reminded"));
      List<io.kith.platform.events.DomainEvent> sent = events.await(ActivitiesEvents.ACTIVITY_STARTING_SOON, id, 1);
      assertEquals(1, sent.size());
      assertEquals(newStart, sent.get(0).payload().getLong("start"));
      assertEquals(List.of(user), longs(sent.get(0).payload().getJsonArray("participants")));
      assertNotNull(sent.get(0).payload().getJsonObject("place"));
    }
  }

  @Test
  @DisplayName("participants in a block with the organiser (either way) are left out of updated, reminder and cancelled")
  void blockedParticipantsNotTold() throws Exception {
    Reminders reminders = reminders();
    HotActivities hot = new HotActivities(platform.redis(), DAY);
    ActivityStore store = new ActivityStore(platform.mongo());
    List<Long> u = newUsers(4);
    long organiser = u.get(0);
    long id = createId(organiser, body(DAY));
    for (int i = 1; i < 4; i++) {
      join(u.get(i), id);
    }
    await(relations.block(organiser, u.get(2)));
    await(relations.block(u.get(3), organiser));
    try (EventRecorder events = recordEvents()) {
      await(activities.update(organiser, id, new JsonObject().put("title", "Renamed")));
      assertEquals(List.of(u.get(1)), longs(events.await(ActivitiesEvents.ACTIVITY_UPDATED, id, 1).get(0).payload()
          .getJsonArray("participants")));
      long remindAt = await(store.byId(id)).getLong("remind_at");
      assertTrue(await(hot.takeDue(id)));
      await(reminders.remind(id, remindAt));
      assertEquals(List.of(u.get(1)), longs(events.await(ActivitiesEvents.ACTIVITY_STARTING_SOON, id, 1).get(0)
          .payload().getJsonArray("participants")));
      await(activities.cancel(organiser, id));
      assertEquals(List.of(u.get(1)), longs(events.await(ActivitiesEvents.ACTIVITY_CANCELLED, id, 1).get(0)
          .payload().getJsonArray("participants")));
    }
    // the filter itself (the block consumer may also have taken them out meanwhile, see BlocksTest)
    assertEquals(List.of(u.get(1)), await(Access.withoutBlocks(relationsInternal, organiser,
        List.of(u.get(1), u.get(2), u.get(3)))));
  }
}
