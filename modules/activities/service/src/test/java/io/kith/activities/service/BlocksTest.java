package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.page.Page;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A block (either way) takes the other user out of the organiser's upcoming activities, as a plain leave. */
@DisplayName("Activities and blocks")
class BlocksTest extends ActivitiesTestBase {

  @Test
  @DisplayName("the organiser blocking a participant, or a participant blocking the organiser, frees the place")
  void blockLeaves() throws Exception {
    List<Long> u = newUsers(5);
    long organiser = u.get(0);
    long other = createId(u.get(4), body().put("capacity", 1));
    long id = createId(organiser, body().put("capacity", 1).put("waitlist", true));
    long second = createId(organiser, body());
    try (EventRecorder events = recordEvents()) {
      assertEquals("joined", join(u.get(1), id));
      assertEquals("waitlisted", join(u.get(2), id));
      assertEquals("joined", join(u.get(3), second));
      assertEquals("joined", join(u.get(1), other));
      await(relations.block(organiser, u.get(1)));
      pollUntil("the blocked participant's place goes to the first waiter", () ->
          activities.participants(organiser, id, filters(new JsonObject()), pageOf(new JsonObject()))
              .map(Page::toJson).map(p -> userIds(p).equals(List.of(u.get(2)))));
      DomainEvent left = events.await(ActivitiesEvents.ACTIVITY_LEFT, id, 1).get(0);
      assertEquals(u.get(1), left.payload().getLong("user"));
      assertFalse(left.payload().containsKey("removed_by"), "nobody is told of a removal");
      assertEquals("promoted", events.await(ActivitiesEvents.ACTIVITY_JOINED, id, 2).get(1).payload()
          .getString("via"));
      // someone else's activity is untouched
      assertEquals(List.of(u.get(1)), allParticipants(u.get(4), other, "joined", 10));

      await(relations.block(u.get(3), organiser));
      pollUntil("a participant who blocked the organiser is out", () ->
          activities.participants(organiser, second, filters(new JsonObject()), pageOf(new JsonObject()))
              .map(Page::toJson).map(p -> userIds(p).isEmpty()));
      // after an unblock they may join again
      await(relations.unblock(u.get(3), organiser));
      assertEquals("joined", join(u.get(3), second));
    }
  }
}
