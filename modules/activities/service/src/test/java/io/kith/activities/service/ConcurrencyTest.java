package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Capacity under concurrent joins and leaves")
class ConcurrencyTest extends ActivitiesTestBase {

  @Override
  protected JsonObject activitiesConfig() {
    return new JsonObject().put("max-waitlist", 500);
  }

  /** Outcome counts of many calls: status or failure code. */
  private static Map<String, Integer> outcomes(List<Future<JsonObject>> calls) throws Exception {
    await(Future.join(calls).otherwiseEmpty());
    Map<String, Integer> out = new HashMap<>();
    for (Future<JsonObject> f : calls) {
      String key = f.succeeded() ? f.result().getString("status") : Failures.codeOf(f.cause());
      out.merge(String.valueOf(key), 1, Integer::sum);
    }
    return out;
  }

  @Test
  @DisplayName("200 concurrent joins on capacity 50 without waitlist: exactly 50 participants, 150 activity_full")
  void exactCapacity() throws Exception {
    long organiser = newUser();
    long id = createId(organiser, body().put("capacity", 50));
    List<Long> users = ghostUsers(200);
    List<Future<JsonObject>> joins = new ArrayList<>();
    users.forEach(u -> joins.add(activities.join(u, id)));
    Map<String, Integer> out = outcomes(joins);
    assertEquals(Map.of("joined", 50, "activity_full", 150), out);
    JsonObject view = await(activities.activity(organiser, id));
    assertEquals(50, view.getInteger("participant_count"));
    List<Long> listed = allParticipants(organiser, id, "joined", 100);
    assertEquals(50, listed.size());
    assertEquals(50, new HashSet<>(listed).size());
    Long inMongo = await(platform.mongo().count(ParticipantStore.COLLECTION,
        new JsonObject().put("activity", id).put("status", "joined")));
    assertEquals(50L, inMongo);
  }

  @Test
  @DisplayName("200 concurrent joins on capacity 50 with a waitlist: 50 joined, 150 waiting in distinct positions")
  void exactCapacityWithWaitlist() throws Exception {
    long organiser = newUser();
    long id = createId(organiser, body().put("capacity", 50).put("waitlist", true));
    List<Long> users = ghostUsers(200);
    List<Future<JsonObject>> joins = new ArrayList<>();
    users.forEach(u -> joins.add(activities.join(u, id)));
    Map<String, Integer> out = outcomes(joins);
    assertEquals(Map.of("joined", 50, "waitlisted", 150), out);
    assertEquals(50, allParticipants(organiser, id, "joined", 100).size());
    List<Long> waiting = allParticipants(organiser, id, "waitlisted", 100);
    assertEquals(150, new HashSet<>(waiting).size());
    JsonObject view = await(activities.activity(organiser, id));
    assertEquals(50, view.getInteger("participant_count"));
    assertEquals(150, view.getInteger("waitlist_count"));

    // 20 participants leave at once: the first 20 waiting users get their places, in order
    List<Long> joined = allParticipants(organiser, id, "joined", 100);
    List<Future<JsonObject>> leaves = new ArrayList<>();
    joined.subList(0, 20).forEach(u -> leaves.add(activities.leave(u, id)));
    await(Future.all(leaves));
    List<Long> after = allParticipants(organiser, id, "joined", 100);
    assertEquals(50, after.size(), "the places are all taken again");
    assertTrue(after.containsAll(waiting.subList(0, 20)), "the first 20 waiting users were promoted");
    assertEquals(waiting.subList(20, 150), allParticipants(organiser, id, "waitlisted", 100), "the rest wait, in order");
    JsonObject now = await(activities.activity(organiser, id));
    assertEquals(50, now.getInteger("participant_count"));
    assertEquals(130, now.getInteger("waitlist_count"));
  }

  @Test
  @DisplayName("joins and leaves racing on a small activity never go over capacity, and the counts match the records")
  void churn() throws Exception {
    long organiser = newUser();
    long id = createId(organiser, body().put("capacity", 5).put("waitlist", true));
    List<Long> users = ghostUsers(30);
    for (int round = 0; round < 3; round++) {
      List<Future<JsonObject>> calls = new ArrayList<>();
      for (int i = 0; i < users.size(); i++) {
        long u = users.get(i);
        calls.add((i + round) % 3 == 0 ? activities.leave(u, id) : activities.join(u, id));
      }
      await(Future.join(calls).otherwiseEmpty());
      JsonObject view = await(activities.activity(organiser, id));
      Long joined = await(platform.mongo().count(ParticipantStore.COLLECTION,
          new JsonObject().put("activity", id).put("status", "joined")));
      Long waiting = await(platform.mongo().count(ParticipantStore.COLLECTION,
          new JsonObject().put("activity", id).put("status", "waitlisted")));
      assertTrue(joined <= 5, "never over capacity: " + joined);
      assertEquals(joined.intValue(), view.getInteger("participant_count"));
      assertEquals(waiting.intValue(), view.getInteger("waitlist_count"));
      assertTrue(joined == 5 || waiting == 0, "nobody waits while a place is free: " + joined + "/" + waiting);
      assertEquals(joined.intValue(), allParticipants(organiser, id, "joined", 100).size());
    }
  }

  @Test
  @DisplayName("the same user joining 10 times at once holds one place and ActivityJoined is appended once")
  void sameUserTwice() throws Exception {
    long organiser = newUser();
    long id = createId(organiser, body().put("capacity", 3));
    long user = ghostUsers(1).get(0);
    try (EventRecorder events = recordEvents()) {
      List<Future<JsonObject>> joins = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        joins.add(activities.join(user, id));
      }
      assertEquals(Map.of("joined", 10), outcomes(joins));
      assertEquals(1, await(activities.activity(organiser, id)).getInteger("participant_count"));
      events.await(ActivitiesEvents.ACTIVITY_JOINED, id, 1);
      assertEquals("joined", join(ghostUsers(1).get(0), id), "the other places are free");
      assertEquals(1, events.of(ActivitiesEvents.ACTIVITY_JOINED, id).stream()
          .filter(e -> e.payload().getLong("user") == user).count());
    }
  }
}
