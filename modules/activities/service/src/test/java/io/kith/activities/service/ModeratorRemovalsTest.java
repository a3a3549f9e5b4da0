package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.page.Page;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Activities' moderation operations: removeByModerator and contentForModerator")
class ModeratorRemovalsTest extends ActivitiesTestBase {

  private static JsonObject removal(long moderator) {
    return new JsonObject().put("by", moderator).put("reason", "rules").put("report_id", 9L)
        .put("at", System.currentTimeMillis());
  }

  @Test
  @DisplayName("a removed open activity is cancelled with its participants named, then activity_not_found to "
      + "everyone, its organiser included, out of the organiser's and participants' lists and other domains' visible batch; moderators still read it")
  void open() throws Exception {
    List<Long> u = newUsers(3);
    long organiser = u.get(0);
    long participant = u.get(1);
    long id = createId(organiser, body());
    assertEquals("joined", join(participant, id));
    try (EventRecorder events = recordEvents()) {
      assertEquals(organiser, await(activitiesInternal.removeByModerator(id, removal(u.get(2)))).getLong("owner"));
      List<DomainEvent> cancelled = events.await(ActivitiesEvents.ACTIVITY_CANCELLED, id, 1);
      assertEquals(List.of(participant), longs(cancelled.get(0).payload().getJsonArray("participants")));
      failsWith("activity_not_found", null, activities.activity(participant, id));
      failsWith("activity_not_found", null, activities.activity(organiser, id));
      failsWith("activity_not_found", null, activities.activity(u.get(2), id));
      assertTrue(await(activitiesInternal.visibleActivities(participant, List.of(id))).getJsonArray("items")
          .isEmpty());
      assertTrue(ids(await(activities.organised(organiser, filters(new JsonObject()), pageOf(new JsonObject()))
          .map(Page::toJson))).isEmpty(), "the organiser's list skips it");
      assertTrue(ids(await(activities.joined(participant, filters(new JsonObject()), pageOf(new JsonObject()))
          .map(Page::toJson))).isEmpty(), "the participant's list skips it");
      JsonObject review = await(activitiesInternal.contentForModerator(id));
      assertEquals("cancelled", review.getString("status"));
      assertEquals(u.get(2), review.getJsonObject("removed").getLong("by"));
      // again: the same answer, no second cancellation
      assertEquals(organiser, await(activitiesInternal.removeByModerator(id, removal(u.get(2)))).getLong("owner"));
      assertEquals(1, events.of(ActivitiesEvents.ACTIVITY_CANCELLED, id).size());
    }
  }

  @Test
  @DisplayName("an activity its organiser cancelled is removed without a second cancellation; a missing one is "
      + "activity_not_found")
  void cancelledAndMissing() throws Exception {
    List<Long> u = newUsers(2);
    long id = createId(u.get(0), body());
    await(activities.cancel(u.get(0), id));
    try (EventRecorder events = recordEvents()) {
      await(activitiesInternal.removeByModerator(id, removal(u.get(1))));
      failsWith("activity_not_found", null, activities.activity(u.get(0), id));
      assertEquals(0, events.of(ActivitiesEvents.ACTIVITY_CANCELLED, id).size());
    }
    failsWith("activity_not_found", null, activitiesInternal.removeByModerator(id + 1_000_000, removal(u.get(1))));
    failsWith("activity_not_found", null, activitiesInternal.contentForModerator(id + 1_000_000));
  }
}
