package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Invitations: friends only, an answer that tells nothing about blocks or accounts, a cap per activity, a rate. */
@DisplayName("Activities invitations")
class InvitationsTest extends ActivitiesTestBase {

  @Override
  protected JsonObject activitiesConfig() {
    return new JsonObject().put("max-invitees", 4).put("invitees-per-hour", 10);
  }

  @Test
  @DisplayName("only friends are invited; the answer is the same for blocked, unknown and non-friend users")
  void friendsOnlyAndNoLeak() throws Exception {
    List<Long> u = newUsers(4);
    long organiser = u.get(0);
    long friend = u.get(1);
    long blocker = u.get(2);
    long stranger = u.get(3);
    long unknown = 99_999_998L;
    befriend(organiser, friend);
    befriend(organiser, blocker);
    await(relations.block(blocker, organiser));
    long id = createId(organiser, body().put("visibility", "invitation"));
    try (EventRecorder events = recordEvents()) {
      JsonObject answer = await(activities.invite(organiser, id, List.of(friend, blocker, stranger, unknown)));
      assertEquals(List.of(friend, blocker, stranger, unknown), longs(answer.getJsonArray("invited")),
          "every id asked is named, whatever became of it");
      DomainEvent e = events.await(ActivitiesEvents.ACTIVITY_INVITED, id, 1).get(0);
      assertEquals(List.of(friend), longs(e.payload().getJsonArray("invited")), "only the friend is invited (told)");
    }
    assertEquals(List.of(friend), allParticipants(organiser, id, "invited", 10));
    assertEquals("invited", await(activities.activity(friend, id)).getJsonObject("viewer").getString("status"));
    failsWith("activity_not_found", null, activities.activity(blocker, id));
    failsWith("activity_not_found", null, activities.activity(stranger, id));
  }

  @Test
  @DisplayName("an activity holds at most max-invitees invitations")
  void capPerActivity() throws Exception {
    List<Long> u = newUsers(6);
    long organiser = u.get(0);
    for (int i = 1; i < 6; i++) {
      befriend(organiser, u.get(i));
    }
    long id = createId(organiser, body());
    await(activities.invite(organiser, id, List.of(u.get(1), u.get(2), u.get(3))));
    failsWith("validation_failed", "users", activities.invite(organiser, id, List.of(u.get(4), u.get(5))));
    await(activities.invite(organiser, id, List.of(u.get(4))));
    assertEquals(List.of(u.get(1), u.get(2), u.get(3), u.get(4)).stream().sorted().toList(),
        allParticipants(organiser, id, "invited", 10));
    failsWith("validation_failed", "users", activities.invite(organiser, id, List.of(u.get(5))));
  }

  @Test
  @DisplayName("the hourly limit counts every id invited, not calls; a refused call counts nothing")
  void ratePerInvitee() throws Exception {
    long organiser = newUser();
    long id = createId(organiser, body());
    long other = createId(organiser, body());
    await(activities.invite(organiser, id, ghostUsers(4)));
    await(activities.invite(organiser, other, ghostUsers(4)));
    ServiceException limited = failsWith("rate_limited", null, activities.invite(organiser, id, ghostUsers(3)));
    assertTrue(limited.getDebugInfo().getJsonObject("extra").getLong("retry_after") >= 1, "retry_after: " + limited.getDebugInfo());
    await(activities.invite(organiser, id, ghostUsers(2)));
    failsWith("rate_limited", null, activities.invite(organiser, other, ghostUsers(1)));
    // another organiser has a window of their own
    long second = newUser();
    await(activities.invite(second, createId(second, body()), ghostUsers(4)));
  }
}
