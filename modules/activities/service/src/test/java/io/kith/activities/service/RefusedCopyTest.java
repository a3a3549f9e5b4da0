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
    Meetup m = meetup(false);

    refuseCopies(m.id(), true);
    failsWith("unavailable", null, activities.join(m.joiner(), m.id()));
    assertFalse(joinedIds(m.joiner()).contains(m.id()), "while Redis refuses the copy, the list cannot show it");
    assertFalse(allParticipants(m.organiser(), m.id(), Activities.JOINED, 100).contains(m.joiner()));

    refuseCopies(m.id(), false);
    pollUntil("the join reaches the joiner's list and the participants", () -> listed(m, true));
    assertJoinedAgain(m);
  }

  @Test
  @DisplayName("a leave whose Redis copy was refused leaves the joiner's list and the participants once Redis answers "
      + "again")
  void refusedLeaveCopy() throws Exception {
    Meetup m = meetup(true);

    refuseCopies(m.id(), true);
    assertEquals(Activities.NONE, await(activities.leave(m.joiner(), m.id())).getString("status"));
    assertTrue(allParticipants(m.organiser(), m.id(), Activities.JOINED, 100).contains(m.joiner()),
        "while Redis refuses the copy, the participants still show the old state");

    refuseCopies(m.id(), false);
    pollUntil("the leave reaches the joiner's list and the participants", () -> listed(m, false));
    assertEquals(0, await(activities.activity(m.organiser(), m.id())).getInteger("participant_count"));
  }

  @Test
  @DisplayName("a join stored by a node that died before copying it to Redis is copied by the retried join")
  void retriedJoinCopies() throws Exception {
    Meetup m = meetup(false);
    // what the dead node did: the place and the participation, in MongoDB only
    ActivityStore store = new ActivityStore(platform.mongo());
    JsonObject doc = await(store.byId(m.id()));
    long now = System.currentTimeMillis();
    await(store.move(m.id(), 1, 0, now));
    await(new ParticipantStore(platform.mongo()).insert(m.id(), m.joiner(), Activities.JOINED, false,
        platform.ids().next(), doc.getLong("start"), now));
    assertEquals(List.of(), joinedIds(m.joiner()), "nothing reached Redis");

    assertJoinedAgain(m);
  }

  @Test
  @DisplayName("a participant removed while Redis refused the copy is out of the participants once it answers, and "
      + "cannot join again (participant_removed)")
  void refusedRemovalCopy() throws Exception {
    Meetup m = meetup(true);

    refuseCopies(m.id(), true);
    await(activities.removeParticipant(m.organiser(), m.id(), m.joiner()));
    refuseCopies(m.id(), false);
    pollUntil("the removal reaches the participants and the joiner's list", () -> listed(m, false));
    failsWith("participant_removed", null, activities.join(m.joiner(), m.id()));
    assertEquals(Activities.REMOVED, await(activities.activity(m.joiner(), m.id())).getJsonObject("viewer")
        .getString("status"));
  }

  /**
   * An organiser, a joiner and an activity; the joiner has joined it ({@code joined}) or not, and their list was read
   * once (built, with its completeness marker).
   */
  private Meetup meetup(boolean joined) throws Exception {
    List<Long> u = newUsers(2);
    long id = createId(u.get(0), body());
    if (joined) {
      assertEquals(Activities.JOINED, join(u.get(1), id));
    }
    assertEquals(joined ? List.of(id) : List.of(), joinedIds(u.get(1)));
    return new Meetup(u.get(0), u.get(1), id);
  }

  private record Meetup(long organiser, long joiner, long id) {
  }

  /** Whether the joiner's list and the activity's participants (read by the organiser) both show the join or not. */
  private Future<Boolean> listed(Meetup m, boolean shown) {
    return activities.joined(m.joiner(), filters(new JsonObject()), pageOf(new JsonObject())).map(Page::toJson)
        .compose(page -> activities.participants(m.organiser(), m.id(), filters(new JsonObject()),
                pageOf(new JsonObject())).map(Page::toJson)
            .map(parts -> ids(page).contains(m.id()) == shown && userIds(parts).contains(m.joiner()) == shown));
  }

  /** A retried join answers {@code joined} with one participant, and both lists show it at once. */
  private void assertJoinedAgain(Meetup m) throws Exception {
    JsonObject again = await(activities.join(m.joiner(), m.id()));
    assertEquals(Activities.JOINED, again.getString("status"));
    assertEquals(1, again.getInteger("participant_count"));
    assertEquals(List.of(m.id()), joinedIds(m.joiner()));
    assertEquals(List.of(m.joiner()), allParticipants(m.organiser(), m.id(), Activities.JOINED, 100));
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
