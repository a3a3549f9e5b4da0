package io.kith.app.activities;

import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.kith.app.activities.ActivitiesKith.API;
import static io.kith.app.activities.ActivitiesKith.activity;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Activities under concurrent joins over HTTP: the capacity holds exactly")
class ActivitiesConcurrencyHttpTest {

  private static final int USERS = 60;
  private static final int CAPACITY = 20;

  private ActivitiesKith kith;

  @BeforeAll
  void start() {
    kith = ActivitiesKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private List<Reply> joinAll(JsonObject activity, List<User> users) {
    String path = API + "/activities/" + activity.getLong("id") + "/participation";
    List<Future<Reply>> joins = new ArrayList<>();
    for (User u : users) {
      joins.add(kith.send(HttpMethod.PUT, path, u.access(), null));
    }
    Await.result(Future.join(joins));
    return joins.stream().map(Future::result).toList();
  }

  private static Map<String, Integer> outcomes(List<Reply> replies) {
    Map<String, Integer> out = new TreeMap<>();
    for (Reply r : replies) {
      String key = r.status() == 200 ? r.body().toJsonObject().getString("status")
          : r.status() + " " + r.body().toJsonObject().getString("code");
      out.merge(key, 1, Integer::sum);
    }
    return out;
  }

  @Test
  @DisplayName("60 users join a capacity-20 activity at once: exactly 20 joined, 40 refused activity_full")
  void exactCapacity() {
    User org = kith.register();
    List<User> users = kith.register(USERS);
    JsonObject a = kith.create(org, activity("Rush").put("capacity", CAPACITY));

    List<Reply> replies = joinAll(a, users);

    assertEquals(Map.of("joined", CAPACITY, "409 activity_full", USERS - CAPACITY), outcomes(replies));
    JsonObject view = kith.get("/activities/" + a.getLong("id"), org).expect(200);
    assertEquals(CAPACITY, view.getInteger("participant_count"));
    Set<Long> joined = new HashSet<>();
    for (int i = 0; i < users.size(); i++) {
      if (replies.get(i).status() == 200) {
        joined.add(users.get(i).id());
      }
    }
    assertEquals(joined, new HashSet<>(kith.all("/activities/" + a.getLong("id") + "/participants", org, 7).stream()
        .map(p -> p.getJsonObject("user").getLong("id")).toList()), "the participants are exactly those told so");

    // the same users again, all at once: the joined stay joined, the others are refused again, never one over
    List<Reply> again = joinAll(a, users);
    assertEquals(CAPACITY, again.stream().filter(r -> r.status() == 200).count(), "joining again is idempotent");
    assertEquals(CAPACITY, kith.get("/activities/" + a.getLong("id"), org).expect(200)
        .getInteger("participant_count"));
  }

  @Test
  @DisplayName("with a waitlist, concurrent joins fill the places, queue the rest in order, and leaves promote exactly")
  void concurrentWaitlist() {
    User org = kith.register();
    List<User> users = kith.register(30);
    JsonObject a = kith.create(org, activity("Rush with a line").put("capacity", 10).put("waitlist", true));
    String path = API + "/activities/" + a.getLong("id") + "/participation";

    Map<String, Integer> first = outcomes(joinAll(a, users));
    assertEquals(Map.of("joined", 10, "waitlisted", 20), first);

    // five joined users leave while the waiting ones join again: still exactly 10 places taken, 15 waiting
    List<User> joined = kith.all("/activities/" + a.getLong("id") + "/participants", org, 100).stream()
        .map(p -> p.getJsonObject("user").getLong("id"))
        .map(id -> users.stream().filter(u -> u.id() == id).findFirst().orElseThrow()).toList();
    List<Future<Reply>> mixed = new ArrayList<>();
    for (User u : joined.subList(0, 5)) {
      mixed.add(kith.send(HttpMethod.DELETE, path, u.access(), null));
    }
    for (User u : users) {
      if (!joined.contains(u)) {
        mixed.add(kith.send(HttpMethod.PUT, path, u.access(), null));
      }
    }
    Await.result(Future.join(mixed));
    JsonObject view = kith.get("/activities/" + a.getLong("id"), org).expect(200);
    assertEquals(10, view.getInteger("participant_count"));
    assertEquals(15, view.getInteger("waitlist_count"));
    assertEquals(15, kith.all("/activities/" + a.getLong("id") + "/participants?status=waitlisted", org, 100).size());
  }
}
