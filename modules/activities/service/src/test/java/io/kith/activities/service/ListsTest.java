package io.kith.activities.service;

import io.kith.platform.page.Page;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Participants, my lists, nearby and friends' activities")
class ListsTest extends ActivitiesTestBase {

  @Test
  @DisplayName("participants page by cursor in join order with summaries and friend flags; blocked users are left out")
  void participants() throws Exception {
    List<Long> u = newUsers(8);
    long organiser = u.get(0);
    long viewer = u.get(1);
    befriend(viewer, u.get(3));
    befriend(viewer, u.get(5));
    long id = createId(organiser, body());
    List<Long> joiners = u.subList(2, 7);
    for (long j : joiners) {
      join(j, id);
    }
    join(viewer, id);
    JsonObject first = await(activities.participants(viewer, id, filters(new JsonObject().put("limit", 2)),
        pageOf(new JsonObject().put("limit", 2))).map(Page::toJson));
    assertEquals(List.of(u.get(2), u.get(3)), userIds(first));
    JsonObject item = first.getJsonArray("items").getJsonObject(1);
    assertTrue(item.getBoolean("friend"));
    assertFalse(first.getJsonArray("items").getJsonObject(0).getBoolean("friend"));
    assertTrue(item.getJsonObject("user").containsKey("username"));
    assertEquals("joined", item.getString("status"));
    assertTrue(item.getLong("since") > 0);
    List<Long> all = new ArrayList<>(joiners);
    all.add(viewer);
    assertEquals(all, allParticipants(viewer, id, "joined", 2));
    assertEquals(all, allParticipants(0, id, "joined", 100), "anonymous readers of a public activity");

    await(relations.block(viewer, u.get(4)));
    assertFalse(allParticipants(viewer, id, "joined", 100).contains(u.get(4)));
    assertTrue(allParticipants(organiser, id, "joined", 100).contains(u.get(4)), "the organiser sees everyone");

    failsWith("validation_failed", "limit", activities.participants(viewer, id, filters(new JsonObject().put("limit",
        0)), pageOf(new JsonObject().put("limit", 0))).map(Page::toJson));
    failsWith("validation_failed", "limit", activities.participants(viewer, id, filters(new JsonObject().put("limit",
        101)), pageOf(new JsonObject().put("limit", 101))).map(Page::toJson));
    failsWith("validation_failed", "cursor", activities.participants(viewer, id, filters(new JsonObject().put("cursor",
        "abc")), pageOf(new JsonObject().put("cursor", "abc"))).map(Page::toJson));
    failsWith("validation_failed", "status", activities.participants(viewer, id, filters(new JsonObject().put("status",
        "everyone")), pageOf(new JsonObject().put("status", "everyone"))).map(Page::toJson));
    failsWith("not_organiser", null, activities.participants(viewer, id, filters(new JsonObject().put("status",
        "waitlisted")), pageOf(new JsonObject().put("status", "waitlisted"))).map(Page::toJson));
    befriend(organiser, u.get(2));
    befriend(organiser, u.get(7));
    await(activities.invite(organiser, id, List.of(u.get(2), u.get(7))));
    assertEquals(List.of(u.get(7)), allParticipants(organiser, id, "invited", 10), "participants are not invited");
  }

  @Test
  @DisplayName("my organised and joined activities, upcoming soonest first and past latest first, paged by cursor")
  void myLists() throws Exception {
    List<Long> u = newUsers(2);
    long organiser = u.get(0);
    long joiner = u.get(1);
    long a = createId(organiser, body(DAY));
    long b = createId(organiser, body(2 * DAY));
    long d = createId(organiser, body(3 * DAY));
    JsonObject shortOne = body(1_500);
    shortOne.put("end", shortOne.getLong("start") + 1_000);
    long c = createId(organiser, shortOne);
    await(activities.cancel(organiser, d));
    for (long id : List.of(a, b, c)) {
      join(joiner, id);
    }
    await(activities.leave(joiner, b));
    long oldOne = insertOld(organiser, joiner, 40 * DAY);

    JsonObject page1 = await(activities.organised(organiser, filters(new JsonObject().put("limit", 2)),
        pageOf(new JsonObject().put("limit", 2))).map(Page::toJson));
    assertEquals(List.of(c, a), ids(page1), "upcoming (and ongoing) soonest first");
    JsonObject page2 = await(activities.organised(organiser, filters(new JsonObject().put("limit", 2)
        .put("cursor", page1.getString("next"))), pageOf(new JsonObject().put("limit", 2)
        .put("cursor", page1.getString("next")))).map(Page::toJson));
    assertEquals(List.of(b, d), ids(page2), "cancelled ones included");
    assertEquals("cancelled", page2.getJsonArray("items").getJsonObject(1).getString("status"));
    assertNull(page2.getString("next"));
    assertEquals(List.of(c, a), ids(await(activities.joined(joiner, filters(new JsonObject()),
        pageOf(new JsonObject())).map(Page::toJson))));

    long end = shortOne.getLong("end");
    pollUntil("the short activity ends", () -> Future.succeededFuture(System.currentTimeMillis() > end));
    assertEquals(List.of(a, b, d), ids(await(activities.organised(organiser, filters(new JsonObject()),
        pageOf(new JsonObject())).map(Page::toJson))));
    JsonObject past1 = await(activities.organised(organiser, filters(new JsonObject().put("when", "past").put("limit",
        1)), pageOf(new JsonObject().put("when", "past").put("limit", 1))).map(Page::toJson));
    assertEquals(List.of(c), ids(past1));
    JsonObject past2 = await(activities.organised(organiser, filters(new JsonObject().put("when", "past").put("limit",
        1)
        .put("cursor", past1.getString("next"))), pageOf(new JsonObject().put("when", "past").put("limit", 1)
        .put("cursor", past1.getString("next")))).map(Page::toJson));
    assertEquals(List.of(oldOne), ids(past2), "past the Redis window, from MongoDB");
    assertEquals(List.of(c, oldOne), ids(await(activities.joined(joiner, filters(new JsonObject().put("when", "past")),
        pageOf(new JsonObject().put("when", "past"))).map(Page::toJson))));
    assertEquals(List.of(a), ids(await(activities.joined(joiner, filters(new JsonObject()), pageOf(new JsonObject()))
        .map(Page::toJson))));

    // the lists are rebuilt from MongoDB when Redis lost them
    await(platform.redisApi().del(List.of(HotActivities.ownList(organiser), HotActivities.joinedList(joiner))));
    assertEquals(List.of(a, b, d), ids(await(activities.organised(organiser, filters(new JsonObject()),
        pageOf(new JsonObject())).map(Page::toJson))));
    assertEquals(List.of(a), ids(await(activities.joined(joiner, filters(new JsonObject()), pageOf(new JsonObject()))
        .map(Page::toJson))));

    failsWith("validation_failed", "when", activities.joined(joiner, filters(new JsonObject().put("when", "soon")),
        pageOf(new JsonObject().put("when", "soon"))).map(Page::toJson));
    failsWith("validation_failed", "cursor", activities.joined(joiner, filters(new JsonObject().put("cursor", "12")),
        pageOf(new JsonObject().put("cursor", "12"))).map(Page::toJson));
    failsWith("validation_failed", "limit", activities.organised(joiner, filters(new JsonObject().put("limit", 1000)),
        pageOf(new JsonObject().put("limit", 1000))).map(Page::toJson));
  }

  /** A finished activity of long ago, written straight to MongoDB (the API only creates future ones). */
  private long insertOld(long organiser, long participant, long ago) throws Exception {
    long id = platform.ids().next();
    long start = System.currentTimeMillis() - ago;
    await(platform.mongo().insert(ActivityStore.COLLECTION, new JsonObject().put("_id", id)
        .put("organiser", organiser).put("title", "Long ago").put("introduction", "").put("start", start)
        .put("end", start + HOUR).put("place", new JsonObject().put("name", "There")).putNull("capacity")
        .put("waitlist", false).put("visibility", "public").putNull("cover").put("status", "open")
        .put("joined_count", 1).put("waiting", 0).putNull("discussion").put("disc_dirty", false)
        .putNull("remind_at").put("reminded", false).put("created", start - DAY).put("updated", start - DAY)
        .put("v", 2L)));
    await(platform.mongo().insert(ParticipantStore.COLLECTION, new JsonObject()
        .put("_id", ParticipantStore.id(id, participant)).put("activity", id).put("user", participant)
        .put("status", "joined").put("invited", false).put("seq", platform.ids().next()).put("since", start - DAY)
        .put("start", start).put("v", 1L)));
    return id;
  }

  private static JsonObject at(JsonObject body, double lat, double lon) {
    return body.put("place", new JsonObject().put("name", "Spot").put("lat", lat).put("lon", lon));
  }

  /** Degrees of latitude for {@code km} kilometres north. */
  private static double north(double km) {
    return km / 111.195;
  }

  @Test
  @DisplayName("nearby: upcoming open public activities within the radius, by start or by distance, paged")
  void nearby() throws Exception {
    List<Long> u = newUsers(3);
    long organiser = u.get(0);
    long viewer = u.get(1);
    long blocker = u.get(2);
    // a spot of our own, far from other tests' activities
    double lat = -40 + ThreadLocalRandom.current().nextDouble(10);
    double lon = -170 + ThreadLocalRandom.current().nextDouble(300);
    long a = createId(organiser, at(body(3 * DAY), lat + north(1), lon));
    long b = createId(organiser, at(body(DAY), lat + north(5), lon));
    long c = createId(organiser, at(body(2 * DAY), lat + north(50), lon));
    createId(organiser, at(body(DAY), lat + north(150), lon));
    createId(organiser, at(body(DAY).put("visibility", "friends"), lat + north(1), lon));
    long cancelled = createId(organiser, at(body(DAY), lat + north(2), lon));
    await(activities.cancel(organiser, cancelled));
    createId(organiser, body(DAY));
    long hidden = createId(blocker, at(body(DAY), lat + north(3), lon));
    await(relations.block(blocker, viewer));
    JsonObject q = new JsonObject().put("lat", lat).put("lon", lon).put("radius_km", 100);

    JsonObject byStart = await(activities.nearby(viewer, filters(q), pageOf(q)).map(Page::toJson));
    assertEquals(List.of(b, c, a), ids(byStart));
    double km = byStart.getJsonArray("items").getJsonObject(0).getDouble("distance_km");
    assertTrue(Math.abs(km - 5) < 0.05, "distance " + km);
    assertEquals(List.of(a, b, c), ids(await(activities.nearby(viewer, filters(q.copy().put("order", "distance")),
        pageOf(q.copy().put("order", "distance"))).map(Page::toJson))));
    assertEquals(List.of(a, b), ids(await(activities.nearby(viewer, filters(q.copy().put("radius_km", 10)
        .put("order", "distance")), pageOf(q.copy().put("radius_km", 10)
        .put("order", "distance"))).map(Page::toJson))));
    assertTrue(ids(await(activities.nearby(organiser, filters(q.copy().put("radius_km", 10)),
        pageOf(q.copy().put("radius_km", 10))).map(Page::toJson))).contains(hidden),
        "others see the blocker's activity");

    JsonObject p1 = await(activities.nearby(viewer, filters(q.copy().put("limit", 2)), pageOf(q.copy().put("limit",
        2))).map(Page::toJson));
    assertEquals(List.of(b, c), ids(p1));
    JsonObject p2 = await(activities.nearby(viewer, filters(q.copy().put("limit", 2).put("cursor",
        p1.getString("next"))), pageOf(q.copy().put("limit", 2).put("cursor", p1.getString("next"))))
        .map(Page::toJson));
    assertEquals(List.of(a), ids(p2));
    assertNull(p2.getString("next"));
    List<Long> anonymous = ids(await(activities.nearby(0, filters(q.copy().put("order", "distance")),
        pageOf(q.copy().put("order", "distance"))).map(Page::toJson)));
    assertEquals(List.of(a, hidden, b, c), anonymous, "anonymous readers (no block applies)");

    // edits move it: a change of place, of visibility
    await(activities.update(organiser, c, new JsonObject().put("visibility", "friends")));
    await(activities.update(organiser, a, at(new JsonObject(), lat + north(120), lon)));
    assertEquals(List.of(b), ids(await(activities.nearby(viewer, filters(q), pageOf(q)).map(Page::toJson))));

    failsWith("validation_failed", "radius_km", activities.nearby(viewer, filters(q.copy().put("radius_km", 0)),
        pageOf(q.copy().put("radius_km", 0))).map(Page::toJson));
    failsWith("validation_failed", "radius_km", activities.nearby(viewer, filters(q.copy().put("radius_km", 100.5)),
        pageOf(q.copy().put("radius_km", 100.5))).map(Page::toJson));
    failsWith("validation_failed", "radius_km", activities.nearby(viewer, filters(q.copy().putNull("radius_km")),
        pageOf(q.copy().putNull("radius_km"))).map(Page::toJson));
    failsWith("validation_failed", "lat", activities.nearby(viewer, filters(q.copy().put("lat", 91)),
        pageOf(q.copy().put("lat", 91))).map(Page::toJson));
    failsWith("validation_failed", "lon", activities.nearby(viewer, filters(q.copy().put("lon", "east")),
        pageOf(q.copy().put("lon", "east"))).map(Page::toJson));
    failsWith("validation_failed", "order", activities.nearby(viewer, filters(q.copy().put("order", "fun")),
        pageOf(q.copy().put("order", "fun"))).map(Page::toJson));
    failsWith("validation_failed", "limit", activities.nearby(viewer, filters(q.copy().put("limit", 101)),
        pageOf(q.copy().put("limit", 101))).map(Page::toJson));
  }

  @Test
  @DisplayName("activities my friends joined: upcoming, visible to me, soonest first, with the friends who joined")
  void friendsJoined() throws Exception {
    List<Long> u = newUsers(6);
    long viewer = u.get(0);
    long f1 = u.get(1);
    long f2 = u.get(2);
    long stranger = u.get(3);
    long organiser = u.get(4);
    long privateOrganiser = u.get(5);
    befriend(viewer, f1);
    befriend(viewer, f2);
    befriend(privateOrganiser, f2);
    long a1 = createId(organiser, body(2 * DAY));
    long a2 = createId(privateOrganiser, body(DAY).put("visibility", "friends"));
    long a3 = createId(organiser, body(DAY));
    long a4 = createId(organiser, body(DAY));
    long a5 = createId(organiser, body(3 * DAY));
    join(f1, a1);
    join(f2, a2);
    join(f1, a3);
    join(f2, a3);
    join(stranger, a4);
    join(f1, a5);
    await(activities.cancel(organiser, a5));
    JsonObject page = await(activities.friendsActivities(viewer, pageOf(new JsonObject())).map(Page::toJson));
    assertEquals(List.of(a3, a1), ids(page));
    JsonArray who = page.getJsonArray("items").getJsonObject(0).getJsonArray("friends");
    List<Long> whoIds = new ArrayList<>();
    who.forEach(x -> whoIds.add(((JsonObject) x).getLong("id")));
    assertEquals(2, whoIds.size());
    assertTrue(whoIds.containsAll(List.of(f1, f2)));
    assertTrue(who.getJsonObject(0).containsKey("username"));
    JsonObject p1 = await(activities.friendsActivities(viewer, pageOf(new JsonObject().put("limit", 1)))
        .map(Page::toJson));
    assertEquals(List.of(a3), ids(p1));
    JsonObject p2 = await(activities.friendsActivities(viewer, pageOf(new JsonObject().put("limit", 1)
        .put("cursor", p1.getString("next")))).map(Page::toJson));
    assertEquals(List.of(a1), ids(p2));
    assertNull(p2.getString("next"));
    failsWith("unauthenticated", null, activities.friendsActivities(0, pageOf(new JsonObject())).map(Page::toJson));
  }
}
