package io.kith.activities.service;

import io.kith.platform.Platform;
import io.kith.platform.page.Page;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Redis is loaded from MongoDB at start-up and rebuilt when emptied")
class WarmStartTest extends ActivitiesTestBase {

  /** Every Redis key of these activities. */
  private static List<String> activityKeys(List<Long> ids) {
    List<String> keys = new ArrayList<>();
    for (long id : ids) {
      keys.addAll(List.of(HotActivities.activity(id), HotActivities.joinedSet(id), HotActivities.waitSet(id),
          HotActivities.invitedSet(id), HotActivities.removedSet(id), HotActivities.versions(id)));
    }
    return keys;
  }

  private Future<Boolean> loaded(long id) {
    return platform.redisApi().hget(HotActivities.activity(id), "loaded").map(r -> r != null);
  }

  /** An activity with two participants, one waiting, one invited; answers [activity, p1, p2, waiting, invited]. */
  private List<Long> populated(long organiser, JsonObject body) throws Exception {
    List<Long> g = ghostUsers(3);
    long invitee = newUser();
    befriend(organiser, invitee);
    long id = createId(organiser, body.put("capacity", 2).put("waitlist", true));
    join(g.get(0), id);
    join(g.get(1), id);
    join(g.get(2), id);
    await(activities.invite(organiser, id, List.of(invitee)));
    return List.of(id, g.get(0), g.get(1), g.get(2), invitee);
  }

  private void assertIntact(long organiser, List<Long> p) throws Exception {
    long id = p.get(0);
    JsonObject view = await(activities.activity(organiser, id));
    assertEquals(2, view.getInteger("participant_count"));
    assertEquals(1, view.getInteger("waitlist_count"));
    assertEquals(List.of(p.get(1), p.get(2)), allParticipants(organiser, id, "joined", 10));
    assertEquals(List.of(p.get(3)), allParticipants(organiser, id, "waitlisted", 10));
    assertEquals(List.of(p.get(4)), allParticipants(organiser, id, "invited", 10));
    assertEquals("waitlisted", await(activities.activity(p.get(3), id)).getJsonObject("viewer").getString("status"));
    assertEquals("invited", await(activities.activity(p.get(4), id)).getJsonObject("viewer").getString("status"));
    assertEquals(List.of(id), ids(await(activities.joined(p.get(1), filters(new JsonObject()),
        pageOf(new JsonObject())).map(Page::toJson))));
  }

  @Test
  @DisplayName("an activity whose keys were lost is read back from MongoDB on the next read, participants and all")
  void lazyReload() throws Exception {
    long organiser = newUser();
    List<Long> p = populated(organiser, body());
    await(platform.redisApi().del(activityKeys(List.of(p.get(0)))));
    await(platform.redisApi().del(List.of(HotActivities.joinedList(p.get(1)))));
    assertIntact(organiser, p);
    assertTrue(await(loaded(p.get(0))));
  }

  @Test
  @DisplayName("a node starting loads the activities of the last 30 days and later into Redis before serving")
  void startUpLoad() throws Exception {
    long organiser = newUser();
    long lat = 10;
    List<Long> p = populated(organiser, body().put("place", new JsonObject().put("name", "Pier")
        .put("lat", lat).put("lon", 20)));
    long id = p.get(0);
    await(platform.redisApi().del(activityKeys(List.of(id))));
    await(platform.redisApi().del(List.of(HotActivities.ownList(organiser), HotActivities.joinedList(p.get(1)))));
    await(platform.redisApi().zrem(List.of(HotActivities.GEO, Long.toString(id))));
    // a second node (its own Vert.x and platform, activities only) starts on the same stores
    Vertx other = Vertx.vertx();
    Platform node = await(KithTestKit.platform(other, new JsonObject()
        .put("activities", new JsonObject().put("sweep-interval-ms", 60_000))));
    try {
      await(KithTestKit.deploy(node, new ActivitiesModule()));
      assertTrue(await(loaded(id)), "the activity hash is back, complete");
      Response members = await(platform.redisApi().zrange(List.of(HotActivities.joinedSet(id), "0", "-1")));
      assertEquals(2, members.size());
      assertNotNull(await(platform.redisApi().zscore(HotActivities.ownList(organiser), Long.toString(id))));
      assertNotNull(await(platform.redisApi().zscore(HotActivities.ownList(organiser), HotActivities.MARKER)));
      assertNotNull(await(platform.redisApi().zscore(HotActivities.joinedList(p.get(1)), Long.toString(id))));
      assertNotNull(await(platform.redisApi().geopos(List.of(HotActivities.GEO, Long.toString(id)))).get(0));
      assertNotNull(await(platform.redisApi().get(HotActivities.WARM)));
    } finally {
      await(node.close());
      await(other.close());
    }
    assertIntact(organiser, p);
  }

  @Test
  @DisplayName("an activity stored with latitude/longitude before the rename is shown and found nearby with lat/lon "
      + "once a node starts")
  void oldCoordinateNames() throws Exception {
    long organiser = newUser();
    long id = createId(organiser, body().put("place", new JsonObject().put("name", "Quay").put("lat", 31.2)
        .put("lon", 121.5)));
    // the document as an older version stored it, and no Redis copy (as after a restart on an emptied Redis)
    await(platform.mongo().updateCollection(ActivityStore.COLLECTION, new JsonObject().put("_id", id),
        new JsonObject().put("$rename", new JsonObject().put("place.lat", "place.latitude")
            .put("place.lon", "place.longitude"))));
    await(platform.redisApi().del(activityKeys(List.of(id))));
    await(platform.redisApi().zrem(List.of(HotActivities.GEO, Long.toString(id))));
    Vertx other = Vertx.vertx();
    Platform node = await(KithTestKit.platform(other, new JsonObject()
        .put("activities", new JsonObject().put("sweep-interval-ms", 60_000))));
    try {
      await(KithTestKit.deploy(node, new ActivitiesModule()));
    } finally {
      await(node.close());
      await(other.close());
    }
    JsonObject stored = await(platform.mongo().findOne(ActivityStore.COLLECTION, new JsonObject().put("_id", id),
        null)).getJsonObject("place");
    assertEquals(new JsonObject().put("name", "Quay").put("lat", 31.2).put("lon", 121.5), stored);
    JsonObject place = await(activities.activity(organiser, id)).getJsonObject("place");
    assertEquals(31.2, place.getDouble("lat"));
    assertEquals(121.5, place.getDouble("lon"));
    JsonObject q = new JsonObject().put("lat", 31.21).put("lon", 121.5).put("radius_km", 10);
    assertEquals(List.of(id), ids(await(activities.nearby(organiser, filters(q), pageOf(q)).map(Page::toJson))));
  }

  @Test
  @DisplayName("when Redis was emptied (the warm marker is gone) the sweep reloads every current activity")
  void emptiedWhileRunning() throws Exception {
    long organiser = newUser();
    List<Long> p = populated(organiser, body());
    long id = p.get(0);
    await(platform.redisApi().del(activityKeys(List.of(id))));
    await(platform.redisApi().del(List.of(HotActivities.WARM, HotActivities.ownList(organiser))));
    pollUntil("the sweep reloads the activity", () -> loaded(id));
    pollUntil("the warm marker is back", () -> platform.redisApi().exists(List.of(HotActivities.WARM))
        .map(r -> r.toInteger() == 1));
    assertNotNull(await(platform.redisApi().zscore(HotActivities.ownList(organiser), HotActivities.MARKER)));
    assertIntact(organiser, p);
  }
}
