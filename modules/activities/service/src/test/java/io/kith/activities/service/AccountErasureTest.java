package io.kith.activities.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.Erasures;
import io.kith.platform.events.Exports;
import io.kith.platform.page.Page;
import io.kith.platform.testkit.ErasureReports;
import io.kith.platform.testkit.ExportPages;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("A deleted account's activities: erased on AccountDeleted, exported in pages")
class AccountErasureTest extends ActivitiesTestBase {

  /** Appends {@code AccountDeleted} as accounts' deletion sweeper does. */
  private void deleted(long user) throws Exception {
    await(platform.events().publisher(AccountsEvents.DOMAIN)
        .append(new AccountDeleted(user, System.currentTimeMillis())));
  }

  private JsonObject finishedReport(long user) {
    return ErasureReports.finished(platform, Erasure.DOMAIN, user, Duration.ofSeconds(60));
  }

  private long count(String collection, JsonObject query) throws Exception {
    return await(platform.mongo().count(collection, query));
  }

  private List<Long> joinedList(long user) throws Exception {
    JsonObject q = new JsonObject().put("limit", 100);
    return ids(await(activities.joined(user, filters(q), pageOf(q)).map(Page::toJson)));
  }

  private List<Long> organisedList(long user) throws Exception {
    JsonObject q = new JsonObject().put("limit", 100);
    return ids(await(activities.organised(user, filters(q), pageOf(q)).map(Page::toJson)));
  }

  /** The activity's stored counts equal a recount of its participations. */
  private void countsEqualRecount(long activity) throws Exception {
    JsonObject doc = await(platform.mongo().findOne(ActivityStore.COLLECTION, new JsonObject().put("_id", activity),
        null));
    JsonObject of = new JsonObject().put("activity", activity);
    assertEquals(count(ParticipantStore.COLLECTION, of.copy().put("status", "joined")),
        (long) doc.getInteger("joined_count"), "joined_count of " + activity);
    assertEquals(count(ParticipantStore.COLLECTION, of.copy().put("status", "waitlisted")),
        (long) doc.getInteger("waiting"), "waiting of " + activity);
  }

  @Test
  @DisplayName("organised activities are cancelled with notice and deleted, places are left to the waitlist, "
      + "participations go, other users' lists and counts stay exact, and a second delivery changes nothing")
  void erasesEverything() throws Exception {
    List<Long> u = newUsers(7);
    long gone = u.get(0);
    long p1 = u.get(1);
    long p2 = u.get(2);
    long waiter = u.get(3);
    long other = u.get(4);
    long bystander = u.get(5);
    long otherWaiter = u.get(6);
    try (EventRecorder events = recordEvents()) {
      long own = createId(gone, body().put("capacity", 2).put("waitlist", true));
      assertEquals("joined", join(p1, own));
      assertEquals("joined", join(p2, own));
      assertEquals("waitlisted", join(waiter, own));
      long full = createId(other, body().put("capacity", 1).put("waitlist", true));
      assertEquals("joined", join(gone, full));
      assertEquals("waitlisted", join(otherWaiter, full));
      long waitedFor = createId(other, body().put("capacity", 1).put("waitlist", true));
      assertEquals("joined", join(p1, waitedFor));
      assertEquals("waitlisted", join(gone, waitedFor));
      long leftBefore = createId(other, body());
      assertEquals("joined", join(gone, leftBefore));
      await(activities.leave(gone, leftBefore));
      long unrelated = createId(bystander, body());
      assertEquals("joined", join(p1, unrelated));
      assertTrue(joinedList(p1).contains(own), "the participant's list holds the activity before");

      deleted(gone);
      JsonObject report = finishedReport(gone);

      JsonObject counts = report.getJsonObject("counts");
      assertEquals(1L, counts.getLong("activities_cancelled"), report.encode());
      assertEquals(2L, counts.getLong("places_left"), report.encode());
      assertEquals(1L, counts.getLong("activities"), report.encode());
      assertEquals(3L, counts.getLong("participations"), report.encode());
      assertEquals(List.of("cancelled", "left", "organised", "participations", "redis"),
          report.getJsonArray("steps").getList());

      DomainEvent cancelled = events.await(ActivitiesEvents.ACTIVITY_CANCELLED, own, 1).get(0);
      assertTrue(cancelled.payload().getBoolean("organiser_deleted"), cancelled.payload().encode());
      assertEquals(List.of(p1, p2), longs(cancelled.payload().getJsonArray("participants")));
      events.await(ActivitiesEvents.ACTIVITY_LEFT, full, 1);
      events.await(ActivitiesEvents.ACTIVITY_LEFT, waitedFor, 1);

      // nothing of the user is left
      assertEquals(0L, count(ActivityStore.COLLECTION, new JsonObject().put("organiser", gone)));
      assertEquals(0L, count(ParticipantStore.COLLECTION, new JsonObject().put("user", gone)));
      assertEquals(0L, count(ParticipantStore.COLLECTION, new JsonObject().put("activity", own)));
      // one key at a time: on a Redis Cluster the keys live in different slots
      for (String key : List.of(HotActivities.activity(own), HotActivities.joinedSet(own), HotActivities.waitSet(own),
          HotActivities.ownList(gone), HotActivities.joinedList(gone))) {
        assertEquals(0, await(platform.redisApi().exists(List.of(key))).toInteger(), key);
      }
      failsWith("activity_not_found", null, activities.activity(p1, own));
      failsWith("activity_not_found", null, activities.join(waiter, own));
      assertEquals(List.of(), organisedList(gone));
      assertEquals(List.of(), joinedList(gone));

      // the others: the waiter got the freed place, lists recounted, counts equal a recount
      assertEquals(List.of(otherWaiter), allParticipants(other, full, "joined", 100));
      assertEquals(List.of(), allParticipants(other, full, "waitlisted", 100));
      JsonObject fullView = await(activities.activity(other, full));
      assertEquals(1, fullView.getInteger("participant_count"));
      assertEquals(0, fullView.getInteger("waitlist_count"));
      assertEquals(0, await(activities.activity(other, waitedFor)).getInteger("waitlist_count"));
      for (long id : List.of(full, waitedFor, leftBefore, unrelated)) {
        countsEqualRecount(id);
      }
      assertEquals(List.of(waitedFor, unrelated), joinedList(p1).stream().sorted().toList());
      assertFalse(joinedList(p2).contains(own));

      // an unrelated user's data is untouched
      assertEquals(List.of(unrelated), organisedList(bystander));
      assertEquals(List.of(p1), allParticipants(bystander, unrelated, "joined", 100));

      // a second delivery (a new event for the same user) changes nothing
      deleted(gone);
      long marker = KithTestKit.newUserId();
      deleted(marker);
      finishedReport(marker);
      assertEquals(report, await(new Erasures(platform.mongo()).report(Erasure.DOMAIN, gone)));
      assertEquals(1, events.of(ActivitiesEvents.ACTIVITY_CANCELLED, own).size());
      assertEquals(List.of(otherWaiter), allParticipants(other, full, "joined", 100));
      countsEqualRecount(full);
    }
  }

  @Test
  @DisplayName("the export pages the user's organised activities across the 500-record cursor boundary, then their "
      + "places, nothing of anyone else, and an unknown user's part is empty")
  void exports() throws Exception {
    List<Long> u = newUsers(2);
    long user = u.get(0);
    long other = u.get(1);
    long created = createId(user, body());
    long theirs = createId(other, body());
    long othersFull = createId(other, body().put("capacity", 1).put("waitlist", true));
    assertEquals("joined", join(newUser(), othersFull));
    assertEquals("joined", join(user, theirs));
    assertEquals("waitlisted", join(user, othersFull));
    // 501 past activities written straight to MongoDB: a cheap way past one page
    long past = System.currentTimeMillis() - 10 * DAY;
    List<Long> stored = new ArrayList<>();
    for (int i = 0; i < 501; i++) {
      long id = platform.ids().next();
      stored.add(id);
      await(platform.mongo().insert(ActivityStore.COLLECTION, new JsonObject().put("_id", id).put("organiser", user)
          .put("title", "Past " + i).put("introduction", "").put("start", past).put("end", past + HOUR)
          .put("place", new JsonObject().put("name", "Here")).put("capacity", null).put("waitlist", false)
          .put("visibility", "public").put("cover", null).put("status", "open").put("joined_count", 0)
          .put("waiting", 0).put("discussion", null).put("created", past).put("updated", past).put("v", 1L)));
    }

    List<Exports.Page> pages = ExportPages.all(vertx, "activities", user, 10);
    assertEquals(2, pages.size(), "two pages");
    assertEquals(Exports.MAX_RECORDS, pages.get(0).records().size());
    List<Long> organised = new ArrayList<>();
    List<JsonObject> joined = new ArrayList<>();
    for (Exports.Page page : pages) {
      for (Exports.Record r : page.records()) {
        if (AccountExport.ORGANISED.equals(r.file())) {
          assertEquals(user, r.item().getJsonObject("organiser").getLong("id"));
          assertEquals("organiser", r.item().getJsonObject("viewer").getString("status"));
          organised.add(r.item().getLong("id"));
        } else {
          assertEquals(AccountExport.JOINED, r.file());
          joined.add(r.item());
        }
      }
    }
    List<Long> expected = new ArrayList<>(stored);
    expected.add(created);
    assertEquals(expected.stream().sorted().toList(), organised.stream().sorted().toList(), "each once, only own");
    assertEquals(2, joined.size(), joined.toString());
    JsonObject place = joined.stream().filter(j -> j.getLong("activity") == theirs).findFirst().orElseThrow();
    assertEquals("joined", place.getString("status"));
    assertEquals("joined", place.getJsonObject("view").getJsonObject("viewer").getString("status"));
    JsonObject waiting = joined.stream().filter(j -> j.getLong("activity") == othersFull).findFirst().orElseThrow();
    assertEquals("waitlisted", waiting.getString("status"));
    assertNotNull(waiting.getLong("since"));

    Exports.Page unknown = await(Exports.fetch(vertx, "activities", KithTestKit.newUserId(), null, 60_000));
    assertEquals(List.of(), unknown.records());
    assertNull(unknown.cursor());
  }
}
