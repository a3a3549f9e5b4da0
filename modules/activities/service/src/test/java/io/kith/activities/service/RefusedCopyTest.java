package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.page.Page;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Redis copy of a participation refused after its MongoDB write (as while Redis restarts), played deterministically:
 * the activity's participation versions key is made a string, so the copy script fails with WRONGTYPE while every
 * read still works; deleting it is Redis answering again.
 */
@DisplayName("Activities: Redis copies refused after the write")
class RefusedCopyTest extends ActivitiesTestBase {

  @Test
  @DisplayName("a join whose Redis copy was refused is answered 503 unavailable, yet stored: it shows in the joiner's "
      + "list and among the participants once Redis answers again, and the retried join acknowledges it")
  void refusedJoinCopy() throws Exception {
    List<Long> u = newUsers(2);
    long organiser = u.get(0);
    long joiner = u.get(1);
    long id = createId(organiser, body());
    assertEquals(List.of(), joinedIds(joiner), "the joiner's list is built (complete) before the join");

    refuseCopies(id, true);
    failsWith("unavailable", null, activities.join(joiner, id));
    assertFalse(joinedIds(joiner).contains(id), "while Redis refuses the copy, the list cannot show it");
    assertFalse(allParticipants(organiser, id, Activities.JOINED, 100).contains(joiner));

    refuseCopies(id, false);
    pollUntil("the join reaches the joiner's list and the participants", () -> activities.joined(joiner,
            filters(new JsonObject()), pageOf(new JsonObject())).map(Page::toJson)
        .compose(page -> activities.participants(organiser, id, filters(new JsonObject()), pageOf(new JsonObject()))
            .map(Page::toJson).map(parts -> ids(page).contains(id) && userIds(parts).contains(joiner))));

    JsonObject again = await(activities.join(joiner, id));
    assertEquals(Activities.JOINED, again.getString("status"));
    assertEquals(1, again.getInteger("participant_count"));
    assertEquals(List.of(id), joinedIds(joiner));
    assertEquals(List.of(joiner), allParticipants(organiser, id, Activities.JOINED, 100));
  }

  @Test
  @DisplayName("a leave whose Redis copy was refused leaves the joiner's list and the participants once Redis answers "
      + "again")
  void refusedLeaveCopy() throws Exception {
    List<Long> u = newUsers(2);
    long organiser = u.get(0);
    long joiner = u.get(1);
    long id = createId(organiser, body());
    join(joiner, id);
    assertEquals(List.of(id), joinedIds(joiner));

    refuseCopies(id, true);
    assertEquals(Activities.NONE, await(activities.leave(joiner, id)).getString("status"));
    assertTrue(allParticipants(organiser, id, Activities.JOINED, 100).contains(joiner),
        "while Redis refuses the copy, the participants still show the old state");

    refuseCopies(id, false);
    pollUntil("the leave reaches the joiner's list and the participants", () -> activities.joined(joiner,
            filters(new JsonObject()), pageOf(new JsonObject())).map(Page::toJson)
        .compose(page -> activities.participants(organiser, id, filters(new JsonObject()), pageOf(new JsonObject()))
            .map(Page::toJson).map(parts -> ids(page).isEmpty() && userIds(parts).isEmpty())));
    assertEquals(0, await(activities.activity(organiser, id)).getInteger("participant_count"));
  }

  @Test
  @DisplayName("a join stored by a node that died before copying it to Redis is copied by the retried join")
  void retriedJoinCopies() throws Exception {
    List<Long> u = newUsers(2);
    long organiser = u.get(0);
    long joiner = u.get(1);
    long id = createId(organiser, body());
    assertEquals(List.of(), joinedIds(joiner));
    // what the dead node did: the place and the participation, in MongoDB only
    ActivityStore store = new ActivityStore(platform.mongo());
    JsonObject doc = await(store.byId(id));
    long now = System.currentTimeMillis();
    await(store.move(id, 1, 0, now));
    await(new ParticipantStore(platform.mongo()).insert(id, joiner, Activities.JOINED, false, platform.ids().next(),
        doc.getLong("start"), now));
    assertEquals(List.of(), joinedIds(joiner), "nothing reached Redis");

    JsonObject again = await(activities.join(joiner, id));
    assertEquals(Activities.JOINED, again.getString("status"));
    assertEquals(1, again.getInteger("participant_count"));
    assertEquals(List.of(id), joinedIds(joiner));
    assertEquals(List.of(joiner), allParticipants(organiser, id, Activities.JOINED, 100));
  }

  @Test
  @DisplayName("a participant removed while Redis refused the copy is out of the participants once it answers, and "
      + "cannot join again (participant_removed)")
  void refusedRemovalCopy() throws Exception {
    List<Long> u = newUsers(2);
    long organiser = u.get(0);
    long joiner = u.get(1);
    long id = createId(organiser, body());
    join(joiner, id);

    refuseCopies(id, true);
    await(activities.removeParticipant(organiser, id, joiner));
    refuseCopies(id, false);
    pollUntil("the removal reaches the participants and the joiner's list", () -> activities.joined(joiner,
            filters(new JsonObject()), pageOf(new JsonObject())).map(Page::toJson)
        .compose(page -> activities.participants(organiser, id, filters(new JsonObject()), pageOf(new JsonObject()))
            .map(Page::toJson).map(parts -> ids(page).isEmpty() && userIds(parts).isEmpty())));
    failsWith("participant_removed", null, activities.join(joiner, id));
    assertEquals(Activities.REMOVED, await(activities.activity(joiner, id)).getJsonObject("viewer").getString("status"));
  }

  /** Makes the copy script of an activity's participations fail (true) or work again (false). */
  private void refuseCopies(long id, boolean refuse) throws Exception {
    await(refuse ? platform.redisApi().set(List.of(HotActivities.versions(id), "refused")).mapEmpty()
        : platform.redisApi().del(List.of(HotActivities.versions(id))).mapEmpty());
  }

  private List<Long> joinedIds(long user) throws Exception {
    return ids(await(activities.joined(user, filters(new JsonObject()), pageOf(new JsonObject())).map(Page::toJson)));
  }
}
