package io.kith.notifications.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.notifications.api.Notifications;
import io.kith.platform.events.Erasures;
import io.kith.platform.events.Exports;
import io.kith.platform.testkit.ErasureReports;
import io.kith.platform.testkit.ExportPages;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

@DisplayName("A deleted account's notifications: erased on AccountDeleted, exported in pages")
class AccountErasureTest extends NotificationsTestBase {

  /** Appends {@code AccountDeleted} as accounts' deletion sweeper does. */
  private void deleted(long user) throws Exception {
    await(platform.events().publisher(AccountsEvents.DOMAIN)
        .append(new AccountDeleted(user, System.currentTimeMillis())));
  }

  private JsonObject finishedReport(long user) {
    return ErasureReports.finished(platform, Erasure.DOMAIN, user, WAIT);
  }

  private long count(String collection, JsonObject query) throws Exception {
    return await(platform.mongo().count(collection, query));
  }

  private static List<Long> actors(List<JsonObject> items) {
    return items.stream().map(n -> n.getLong("from_user")).toList();
  }

  @Test
  @DisplayName("what the user received and caused is deleted, recipients' counters are recounted and pushed, "
      + "preferences and mutes go, an unrelated user keeps everything, and a second delivery changes nothing")
  void erasesEverything() throws Exception {
    long gone = KithTestKit.newUserId();
    long a = KithTestKit.newUserId();
    long b = KithTestKit.newUserId();
    long c = KithTestKit.newUserId();
    // received by the user
    relationsEvent(RelationsEvents.USER_FOLLOWED, a, gone);
    relationsEvent(RelationsEvents.FOLLOW_REQUESTED, b, gone);
    // caused by the user for others, next to what others caused
    relationsEvent(RelationsEvents.USER_FOLLOWED, gone, a);
    relationsEvent(RelationsEvents.FOLLOW_REQUESTED, gone, a);
    relationsEvent(RelationsEvents.USER_FOLLOWED, gone, b);
    relationsEvent(RelationsEvents.USER_FOLLOWED, c, a);
    relationsEvent(RelationsEvents.USER_FOLLOWED, a, c);
    long activity = KithTestKit.newUserId();
    event(ActivitiesEvents.DOMAIN, ActivitiesEvents.ACTIVITY_INVITED, new JsonObject()
        .put("activity", KithTestKit.newUserId())
        .put("organiser", gone).put("title", "Run").put("invited", new JsonArray().add(a)));
    // the organiser's erasure cancelling their activity: participants are told with no actor
    event(ActivitiesEvents.DOMAIN, ActivitiesEvents.ACTIVITY_CANCELLED, new JsonObject().put("activity", activity)
        .put("organiser", gone).put("title", "Run").put("start", System.currentTimeMillis() + 60_000)
        .put("participants", new JsonArray().add(b)).put("organiser_deleted", true));
    for (long user : List.of(gone, a, b, c)) {
      drain(user);
    }
    drainStream(ActivitiesEvents.DOMAIN, b);
    drainStream(ActivitiesEvents.DOMAIN, a);
    await(notifications.markAllRead(gone));
    await(notifications.markRead(a, List.of(all(a, where("from_user", gone)).get(0).getLong("id"))));
    await(notifications.setPreferences(gone, new JsonObject().put("muted_types", new JsonArray().add("like"))));
    await(notifications.muteUser(c, gone));
    await(notifications.muteUser(c, a));
    assertEquals(3, all(a, where("from_user", gone)).size(), all(a).toString());
    List<JsonObject> pushedToA = pushes(a);

    deleted(gone);
    JsonObject report = finishedReport(gone);

    JsonObject counts = report.getJsonObject("counts");
    assertEquals(2L, counts.getLong("notifications"), report.encode());
    assertEquals(4L, counts.getLong("notifications_caused"), report.encode());
    assertEquals(1L, counts.getLong("preferences"), report.encode());
    assertEquals(1L, counts.getLong("mutes"), report.encode());
    assertEquals(1L, counts.getLong("rate_limits"), report.encode());
    assertEquals(List.of("received", "caused", "preferences", "muted_by_others", "rate_limits"),
        report.getJsonArray("steps").getList());

    // nothing of the user is left: record, Redis side, preferences, others' mutes
    assertEquals(0L, count(NotificationRecords.NOTIFICATIONS, new JsonObject().put("to", gone)));
    assertEquals(0L, count(NotificationRecords.NOTIFICATIONS, new JsonObject().put("from_user", gone)));
    assertEquals(0L, count(NotificationRecords.PREFERENCES, new JsonObject().put("user", gone)));
    assertEquals(0L, count(NotificationRecords.PREFERENCES, new JsonObject().put("muted_users", gone)));
    String side = HotStore.prefix(gone);
    // one key at a time: on a Redis Cluster the mark-read window is in another slot than the user's store
    for (String key : List.of(HotStore.countersKey(gone), HotStore.generationKey(gone), side + ":idx", side + ":k",
        side + ":t:follower", Changes.markReadKey(gone))) {
      assertEquals(0, await(platform.redisApi().exists(List.of(key))).toInteger(), key);
    }
    assertEquals(List.of(), all(gone));
    assertEquals(0L, await(notifications.unreadCounts(gone)).getLong("total"));
    assertEquals(new JsonArray(), await(notifications.preferences(gone)).getJsonArray("muted_types"));

    // the recipients: the user's notifications gone, the rest kept, counters equal a scan (and pushed)
    assertEquals(List.of(c), actors(all(a)));
    assertEquals(1L, assertCountersMatchScan(a).getLong("total"));
    List<JsonObject> ofB = all(b);
    assertEquals(1, ofB.size(), ofB.toString());
    assertEquals(Notifications.ACTIVITY_CANCELLED, ofB.get(0).getString("type"));
    assertFalse(ofB.get(0).containsKey("from_user"));
    assertFalse(ofB.get(0).containsKey("actor"));
    assertEquals(1L, assertCountersMatchScan(b).getLong("total"));
    await(Poll.until(vertx, WAIT, "the recount pushed to a", () -> Future.succeededFuture(pushedToA.stream()
        .anyMatch(p -> Notifications.PUSH_UNREAD.equals(p.getString("kind"))
            && p.getJsonObject("counts").getLong("total") == 1L))));

    // an unrelated user keeps their notifications and their other mute
    assertEquals(List.of(a), actors(all(c)));
    assertEquals(new JsonArray().add(a), await(notifications.preferences(c)).getJsonArray("muted_users"));
    assertEquals(1L, assertCountersMatchScan(c).getLong("total"));

    // a second delivery (a new event for the same user) changes nothing
    deleted(gone);
    long marker = KithTestKit.newUserId();
    deleted(marker);
    finishedReport(marker);
    assertEquals(report, await(new Erasures(platform.mongo()).report(Erasure.DOMAIN, gone)));
    assertEquals(1L, assertCountersMatchScan(a).getLong("total"));
    assertEquals(List.of(c), actors(all(a)));
  }

  @Test
  @DisplayName("an event handled after the user's erasure (in flight when it ran) makes no notification from or to "
      + "the erased user, while others' events still do")
  void lateEventsAfterErasure() throws Exception {
    long gone = KithTestKit.newUserId();
    long a = KithTestKit.newUserId();
    long c = KithTestKit.newUserId();
    deleted(gone);
    finishedReport(gone);

    relationsEvent(RelationsEvents.USER_FOLLOWED, gone, a);
    relationsEvent(RelationsEvents.USER_FOLLOWED, a, gone);
    relationsEvent(RelationsEvents.USER_FOLLOWED, c, a);
    // the producers handle the relations stream in order: after a's marker, all three were handled
    drain(a);
    assertEquals(List.of(c), actors(all(a)));
    assertEquals(0L, count(NotificationRecords.NOTIFICATIONS, new JsonObject().put("to", gone)));
    assertEquals(0L, count(NotificationRecords.NOTIFICATIONS, new JsonObject().put("from_user", gone)));
  }

  @Test
  @DisplayName("the export pages the user's preferences and received notifications across the 500-record cursor "
      + "boundary, nothing anyone else received, and an unknown user's part is empty")
  void exports() throws Exception {
    long user = KithTestKit.newUserId();
    long other = KithTestKit.newUserId();
    await(notifications.setPreferences(user, new JsonObject().put("muted_types", new JsonArray().add("like"))));
    // 501 received notifications written straight to MongoDB: a cheap way past one page
    List<Long> stored = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int i = 0; i < 501; i++) {
      long id = platform.ids().next();
      stored.add(id);
      await(platform.mongo().insert(NotificationRecords.NOTIFICATIONS, new JsonObject().put("_id", id).put("to", user)
          .put("type", Notifications.FOLLOWER).put("created", now).put("unread", i % 2 == 0)
          .put("key", "follower:" + id).put("from_user", id)));
    }
    relationsEvent(RelationsEvents.USER_FOLLOWED, user, other);
    drain(other);

    List<Exports.Page> pages = ExportPages.all(vertx, "notifications", user, 10);
    assertEquals(2, pages.size(), "two pages");
    assertEquals(Exports.MAX_RECORDS, pages.get(0).records().size());
    List<Long> received = new ArrayList<>();
    List<JsonObject> preferences = new ArrayList<>();
    for (Exports.Page page : pages) {
      for (Exports.Record r : page.records()) {
        if (AccountExport.PREFERENCES.equals(r.file())) {
          preferences.add(r.item());
        } else {
          assertEquals(AccountExport.NOTIFICATIONS, r.file());
          assertEquals(user, r.item().getLong("to_user"));
          assertEquals(r.item().getLong("id"), r.item().getLong("from_user"));
          received.add(r.item().getLong("id"));
        }
      }
    }
    assertEquals(stored, received, "each once, oldest first, only the user's");
    assertEquals(List.of(new JsonObject().put("muted_types", new JsonArray().add("like"))
        .put("muted_users", new JsonArray())), preferences);
    assertEquals(AccountExport.PREFERENCES, pages.get(0).records().get(0).file(), "preferences first");

    Exports.Page unknown = await(Exports.fetch(vertx, "notifications", KithTestKit.newUserId(), null, 60_000));
    assertEquals(List.of(), unknown.records());
    assertNull(unknown.cursor());
  }
}
