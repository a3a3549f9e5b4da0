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

@DisplayName("Joining and leaving, waitlist, invitations, and who may see what")
class JoinTest extends ActivitiesTestBase {

  @Test
  @DisplayName("join and leave are idempotent; the organiser is told of joins and ActivityLeft is appended once")
  void joinLeave() throws Exception {
    List<Long> u = newUsers(2);
    long id = createId(u.get(0), body());
    try (EventRecorder events = recordEvents()) {
      JsonObject first = await(activities.join(u.get(1), id));
      assertEquals("joined", first.getString("status"));
      assertEquals(1, first.getInteger("participant_count"));
      JsonObject again = await(activities.join(u.get(1), id));
      assertEquals("joined", again.getString("status"));
      assertEquals(1, again.getInteger("participant_count"));
      JsonObject view = await(activities.activity(u.get(1), id));
      assertEquals("joined", view.getJsonObject("viewer").getString("status"));
      assertEquals(1, view.getInteger("participant_count"));

      JsonObject left = await(activities.leave(u.get(1), id));
      assertEquals("none", left.getString("status"));
      assertEquals(0, left.getInteger("participant_count"));
      assertEquals("none", await(activities.leave(u.get(1), id)).getString("status"));

      DomainEvent joined = events.await(ActivitiesEvents.ACTIVITY_JOINED, id, 1).get(0);
      assertEquals(u.get(1), joined.payload().getLong("user"));
      assertEquals("join", joined.payload().getString("via"));
      assertEquals(u.get(0), joined.payload().getLong("organiser"));
      events.await(ActivitiesEvents.ACTIVITY_LEFT, id, 1);
      // joining again after leaving works, and each change was one event
      assertEquals("joined", join(u.get(1), id));
      events.await(ActivitiesEvents.ACTIVITY_JOINED, id, 2);
      assertEquals(1, events.of(ActivitiesEvents.ACTIVITY_LEFT, id).size());
    }
  }

  @Test
  @DisplayName("refused: full without waitlist, cancelled, started, the organiser, removed, blocked by the organiser")
  void refusals() throws Exception {
    List<Long> u = newUsers(6);
    long organiser = u.get(0);
    long full = createId(organiser, body().put("capacity", 1));
    join(u.get(1), full);
    failsWith("activity_full", null, activities.join(u.get(2), full));
    failsWith("organiser_cannot_join", null, activities.join(organiser, full));

    long cancelled = createId(organiser, body());
    await(activities.cancel(organiser, cancelled));
    failsWith("activity_cancelled", null, activities.join(u.get(2), cancelled));

    long soon = createId(organiser, body(1_500));
    long startsAt = await(activities.activity(organiser, soon)).getLong("start");
    pollUntil("the activity starts", () -> io.vertx.core.Future.succeededFuture(System.currentTimeMillis() > startsAt));
    failsWith("activity_started", null, activities.join(u.get(2), soon));

    long open = createId(organiser, body());
    join(u.get(3), open);
    await(activities.removeParticipant(organiser, open, u.get(3)));
    failsWith("participant_removed", null, activities.join(u.get(3), open));
    assertEquals("removed", await(activities.activity(u.get(3), open)).getJsonObject("viewer").getString("status"));
    // a new invitation (of a friend: only friends are invited) lets them back in
    befriend(organiser, u.get(3));
    await(activities.invite(organiser, open, List.of(u.get(3))));
    assertEquals("joined", join(u.get(3), open));

    await(relations.block(organiser, u.get(4)));
    failsWith("activity_not_found", null, activities.join(u.get(4), open));
    failsWith("activity_not_found", null, activities.activity(u.get(4), open));
    // and the other way round: a user who blocked the organiser does not see their activities either
    await(relations.block(u.get(5), organiser));
    failsWith("activity_not_found", null, activities.activity(u.get(5), open));
    failsWith("unauthenticated", null, activities.join(0, open));
  }

  @Test
  @DisplayName("friends-only: friends see and join; non-friends get 404 and cannot be invited")
  void friendsOnly() throws Exception {
    List<Long> u = newUsers(4);
    long organiser = u.get(0);
    befriend(organiser, u.get(1));
    await(relations.follow(u.get(2), organiser));
    long id = createId(organiser, body().put("visibility", "friends"));
    assertEquals("joined", join(u.get(1), id));
    failsWith("activity_not_found", null, activities.activity(u.get(2), id));
    failsWith("activity_not_found", null, activities.join(u.get(2), id));
    failsWith("activity_not_found", null, activities.activity(0, id));
    failsWith("activity_not_found", null, activities.participants(u.get(2), id, filters(new JsonObject()),
        pageOf(new JsonObject())).map(Page::toJson));
    assertTrue(await(activitiesInternal.visibleActivities(u.get(2), List.of(id))).getJsonArray("items").isEmpty());
    assertEquals(List.of(id), longs(await(activitiesInternal.visibleActivities(u.get(1), List.of(id)))
        .getJsonArray("items")));
    // inviting a non-friend is accepted as asked but makes no invitation
    assertEquals(List.of(u.get(3)), longs(await(activities.invite(organiser, id, List.of(u.get(3))))
        .getJsonArray("invited")));
    failsWith("activity_not_found", null, activities.activity(u.get(3), id));
    assertTrue(allParticipants(organiser, id, "invited", 10).isEmpty());
  }

  @Test
  @DisplayName("invitation-only: only invitees and participants see it; joining by invitation says so in the event")
  void invitationOnly() throws Exception {
    List<Long> u = newUsers(4);
    long organiser = u.get(0);
    befriend(organiser, u.get(1));
    befriend(organiser, u.get(2));
    long id = createId(organiser, body().put("visibility", "invitation"));
    try (EventRecorder events = recordEvents()) {
      JsonObject invited = await(activities.invite(organiser, id, List.of(u.get(1), u.get(1), 99_999_999L)));
      assertEquals(List.of(u.get(1), 99_999_999L), longs(invited.getJsonArray("invited")),
          "the answer names every id asked (unknown users are not told apart)");
      assertEquals(List.of(u.get(1)), longs(await(activities.invite(organiser, id, List.of(u.get(1))))
          .getJsonArray("invited")), "the same answer again");
      DomainEvent e = events.await(ActivitiesEvents.ACTIVITY_INVITED, id, 1).get(0);
      assertEquals(List.of(u.get(1)), longs(e.payload().getJsonArray("invited")), "only the one invitation made");
      failsWith("activity_not_found", null, activities.activity(u.get(2), id));
      failsWith("activity_not_found", null, activities.join(u.get(2), id));
      failsWith("activity_not_found", null, activities.join(u.get(3), id));
      assertEquals("joined", join(u.get(1), id));
      assertEquals("invitation", events.await(ActivitiesEvents.ACTIVITY_JOINED, id, 1).get(0).payload()
          .getString("via"));
      JsonObject invitees = await(activities.participants(organiser, id, filters(new JsonObject().put("status",
          "invited")), pageOf(new JsonObject().put("status", "invited"))).map(Page::toJson));
      assertEquals(List.of(u.get(1)), userIds(invitees));
      assertEquals("joined", invitees.getJsonArray("items").getJsonObject(0).getString("status"),
          "an invitee who joined is listed as joined");
      // after leaving, the invitation still holds: the user sees it and may come back
      await(activities.leave(u.get(1), id));
      assertEquals("invited", await(activities.activity(u.get(1), id)).getJsonObject("viewer").getString("status"));
      assertEquals("joined", join(u.get(1), id));
      failsWith("not_organiser", null, activities.invite(u.get(1), id, List.of(u.get(2))));
      failsWith("validation_failed", "users", activities.invite(organiser, id, List.of()));
    }
  }

  @Test
  @DisplayName("the waitlist promotes the first waiting user when a participant leaves, in order, and tells them")
  void waitlist() throws Exception {
    List<Long> u = newUsers(5);
    long organiser = u.get(0);
    long id = createId(organiser, body().put("capacity", 1).put("waitlist", true));
    try (EventRecorder events = recordEvents()) {
      assertEquals("joined", join(u.get(1), id));
      JsonObject w1 = await(activities.join(u.get(2), id));
      assertEquals("waitlisted", w1.getString("status"));
      assertEquals(1, w1.getInteger("position"));
      JsonObject w2 = await(activities.join(u.get(3), id));
      assertEquals(2, w2.getInteger("position"));
      assertEquals(2, w2.getInteger("waitlist_count"));
      assertEquals("waitlisted", join(u.get(3), id), "idempotent while waiting");
      assertEquals(2, await(activities.activity(u.get(3), id)).getJsonObject("viewer").getInteger("position"));

      await(activities.leave(u.get(1), id));
      JsonObject after = await(activities.activity(u.get(2), id));
      assertEquals("joined", after.getJsonObject("viewer").getString("status"));
      assertEquals(1, after.getInteger("participant_count"));
      assertEquals(1, after.getInteger("waitlist_count"));
      assertEquals(1, await(activities.activity(u.get(3), id)).getJsonObject("viewer").getInteger("position"));
      DomainEvent promoted = events.of(ActivitiesEvents.ACTIVITY_JOINED, id).stream()
          .filter(e -> "promoted".equals(e.payload().getString("via"))).findFirst().orElse(null);
      if (promoted == null) {
        promoted = events.await(ActivitiesEvents.ACTIVITY_JOINED, id, 2).get(1);
      }
      assertEquals(u.get(2), promoted.payload().getLong("user"));
      assertEquals("promoted", promoted.payload().getString("via"));

      // a waiting user who leaves gives up their turn; the organiser removing the participant promotes the next
      await(activities.join(u.get(4), id));
      await(activities.leave(u.get(3), id));
      await(activities.removeParticipant(organiser, id, u.get(2)));
      assertEquals("joined", await(activities.activity(u.get(4), id)).getJsonObject("viewer").getString("status"));
      DomainEvent removed = events.await(ActivitiesEvents.ACTIVITY_LEFT, id, 3).stream()
          .filter(e -> e.payload().containsKey("removed_by")).findFirst().orElseThrow();
      assertEquals(u.get(2), removed.payload().getLong("user"));
      assertEquals(organiser, removed.payload().getLong("removed_by"));
      // raising the capacity promotes nobody now (the waitlist is empty) and keeps the participant
      await(activities.update(organiser, id, new JsonObject().put("capacity", 3)));
      assertEquals(List.of(u.get(4)), allParticipants(u.get(4), id, "joined", 10));
    }
  }

  @Test
  @DisplayName("a larger capacity promotes waiting users; a full waitlist refuses with waitlist_full")
  void capacityGrows() throws Exception {
    List<Long> u = newUsers(1);
    long organiser = u.get(0);
    List<Long> g = ghostUsers(5);
    long id = createId(organiser, body().put("capacity", 1).put("waitlist", true));
    join(g.get(0), id);
    join(g.get(1), id);
    join(g.get(2), id);
    await(activities.update(organiser, id, new JsonObject().put("capacity", 2)));
    assertEquals(List.of(g.get(0), g.get(1)), allParticipants(organiser, id, "joined", 10));
    assertEquals(List.of(g.get(2)), allParticipants(organiser, id, "waitlisted", 10));
    await(activities.update(organiser, id, new JsonObject().putNull("capacity")));
    assertEquals(List.of(g.get(0), g.get(1), g.get(2)), allParticipants(organiser, id, "joined", 10));
  }

  @Test
  @DisplayName("only the organiser removes participants; removing a non-participant changes nothing")
  void remove() throws Exception {
    List<Long> u = newUsers(3);
    long id = createId(u.get(0), body());
    join(u.get(1), id);
    failsWith("not_organiser", null, activities.removeParticipant(u.get(2), id, u.get(1)));
    await(activities.removeParticipant(u.get(0), id, u.get(2)));
    failsWith("validation_failed", "user", activities.removeParticipant(u.get(0), id, u.get(0)));
    await(activities.removeParticipant(u.get(0), id, u.get(1)));
    await(activities.removeParticipant(u.get(0), id, u.get(1)));
    assertTrue(allParticipants(u.get(0), id, "joined", 10).isEmpty());
  }
}
