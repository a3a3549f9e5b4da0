package io.kith.notifications.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.notifications.api.Notifications;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.page.Page;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

@DisplayName("Notifications made from activities events: changes, cancellations, joins, removals, invitations, reminders")
class ActivitiesNotificationsTest extends NotificationsTestBase {

  private static final String DOMAIN = ActivitiesEvents.DOMAIN;
  private static final long START = 1_900_000_000_000L;
  private static final long END = START + 7_200_000L;

  private static long fresh() {
    return KithTestKit.newUserId();
  }

  private static JsonArray ids(long... ids) {
    JsonArray out = new JsonArray();
    for (long id : ids) {
      out.add(id);
    }
    return out;
  }

  /** The members every activities payload carries. */
  private static JsonObject about(long activity, long organiser) {
    return new JsonObject().put("activity", activity).put("organiser", organiser).put("title", "Hike up the hill");
  }

  private static JsonObject updated(long activity, long organiser, JsonArray changed, long start, String place,
                                    JsonArray participants) {
    return about(activity, organiser).put("changed", changed).put("start", start).put("end", END)
        .put("place", new JsonObject().put("name", place).put("lat", 48.1).put("lon", 11.5))
        .put("participants", participants);
  }

  private DomainEvent activities(String type, JsonObject payload) throws Exception {
    return event(DOMAIN, type, payload);
  }

  @Test
  @DisplayName("participants are told of a changed time or place, not of a changed title; the organiser is not; one "
      + "notification per activity, replaced by each change")
  void updates() throws Exception {
    long organiser = fresh();
    long ann = fresh();
    long ben = fresh();
    long activity = fresh();
    JsonArray participants = ids(ann, ben);
    activities(ActivitiesEvents.ACTIVITY_UPDATED, updated(activity, organiser, new JsonArray().add("title")
        .add("description"), START, "Park", participants));
    drainStream(DOMAIN, ann);
    assertEquals(List.of(), all(ann), "a title change tells nobody");

    JsonObject moved = updated(activity, organiser, new JsonArray().add("title").add("start"), START + 3_600_000L,
        "Park", participants);
    activities(ActivitiesEvents.ACTIVITY_UPDATED, moved);
    // the same change delivered again with another event id
    activities(ActivitiesEvents.ACTIVITY_UPDATED, moved);
    for (long user : List.of(ann, ben, organiser)) {
      drainStream(DOMAIN, user);
    }
    for (long user : List.of(ann, ben)) {
      List<JsonObject> got = all(user);
      assertEquals(1, got.size(), got.toString());
      JsonObject n = got.get(0);
      assertEquals(Notifications.ACTIVITY_UPDATED, n.getString("type"));
      assertEquals(organiser, n.getLong("from_user"));
      assertEquals(activity, n.getLong("activity"));
      assertEquals("Hike up the hill", n.getString("title"));
      assertEquals(new JsonArray().add("start"), n.getJsonArray("changed"));
      assertEquals(START + 3_600_000L, n.getLong("start"));
      assertEquals(END, n.getLong("end"));
      assertEquals("Park", n.getString("place"));
      assertEquals(1L, n.getLong("count"));
    }
    assertEquals(List.of(), all(organiser));

    activities(ActivitiesEvents.ACTIVITY_UPDATED, updated(activity, organiser, new JsonArray().add("place"),
        START + 3_600_000L, "Lake", participants));
    drainStream(DOMAIN, ann);
    List<JsonObject> anns = all(ann);
    assertEquals(1, anns.size(), anns.toString());
    assertEquals("Lake", anns.get(0).getString("place"));
    assertEquals(new JsonArray().add("place"), anns.get(0).getJsonArray("changed"));
    assertEquals(2L, anns.get(0).getLong("count"), "two changes since ann last read");
    assertEquals(1, await(notifications.grouped(ann, filters(new JsonObject()), pageOf(new JsonObject()))
        .map(Page::toJson)).getJsonArray("items").size());
    assertCountersMatchScan(ann);
  }

  @Test
  @DisplayName("a cancellation tells the participants and takes back the pending invitations to the activity")
  void cancellation() throws Exception {
    long organiser = fresh();
    long ann = fresh();
    long ivan = fresh();
    long ida = fresh();
    long activity = fresh();
    long other = fresh();
    activities(ActivitiesEvents.ACTIVITY_INVITED, about(activity, organiser).put("start", START)
        .put("invited", ids(ivan, ida)));
    activities(ActivitiesEvents.ACTIVITY_INVITED, about(other, organiser).put("start", START).put("invited", ids(ida)));
    for (long user : List.of(ivan, ida)) {
      JsonObject n = awaitNotifications(user, "the invitation", items -> count(items,
          Notifications.ACTIVITY_INVITATION) == (user == ida ? 2 : 1)).get(0);
      assertEquals(organiser, n.getLong("from_user"));
      assertEquals(START, n.getLong("start"));
      assertEquals("Hike up the hill", n.getString("title"));
    }
    activities(ActivitiesEvents.ACTIVITY_CANCELLED, about(activity, organiser).put("start", START)
        .put("participants", ids(ann)));
    List<JsonObject> anns = awaitNotifications(ann, "the cancellation", items -> items.size() == 1);
    assertEquals(Notifications.ACTIVITY_CANCELLED, anns.get(0).getString("type"));
    assertEquals(activity, anns.get(0).getLong("activity"));
    assertEquals(organiser, anns.get(0).getLong("from_user"));
    awaitNotifications(ivan, "ivan's invitation gone", List::isEmpty);
    List<JsonObject> idas = awaitNotifications(ida, "ida's invitation to it gone", items -> items.size() == 1);
    assertEquals(other, idas.get(0).getLong("activity"), "the invitation to another activity stays");
    assertEquals(List.of(), all(organiser));
  }

  @Test
  @DisplayName("a join tells the organiser and answers the joiner's invitation; leaving takes it back; a removal "
      + "tells the removed user, until they are back")
  void joinsAndRemovals() throws Exception {
    long organiser = fresh();
    long uma = fresh();
    long vic = fresh();
    long activity = fresh();
    activities(ActivitiesEvents.ACTIVITY_INVITED, about(activity, organiser).put("invited", ids(uma)));
    awaitNotifications(uma, "uma's invitation", items -> items.size() == 1);
    activities(ActivitiesEvents.ACTIVITY_JOINED, about(activity, organiser).put("user", uma).put("via", "invitation"));
    List<JsonObject> joined = awaitNotifications(organiser, "uma joined", items -> items.size() == 1);
    assertEquals(Notifications.ACTIVITY_JOINED, joined.get(0).getString("type"));
    assertEquals(uma, joined.get(0).getLong("from_user"));
    assertEquals(activity, joined.get(0).getLong("activity"));
    awaitNotifications(uma, "uma's invitation answered", List::isEmpty);

    // uma leaves by herself: the organiser's notice goes, nobody is told
    activities(ActivitiesEvents.ACTIVITY_LEFT, about(activity, organiser).put("user", uma));
    awaitNotifications(organiser, "uma's join taken back", List::isEmpty);
    drainStream(DOMAIN, uma);
    assertEquals(List.of(), all(uma));

    // vic joins and is removed by the organiser: vic is told, the organiser's notice goes
    activities(ActivitiesEvents.ACTIVITY_JOINED, about(activity, organiser).put("user", vic).put("via", "join"));
    awaitNotifications(organiser, "vic joined", items -> items.size() == 1);
    activities(ActivitiesEvents.ACTIVITY_LEFT, about(activity, organiser).put("user", vic)
        .put("removed_by", organiser));
    List<JsonObject> vics = awaitNotifications(vic, "vic removed", items -> items.size() == 1);
    assertEquals(Notifications.ACTIVITY_REMOVED, vics.get(0).getString("type"));
    assertEquals(organiser, vics.get(0).getLong("from_user"));
    awaitNotifications(organiser, "vic's join taken back", List::isEmpty);

    // vic is back (promoted from the waitlist): the organiser is told again, the removal notice is over
    activities(ActivitiesEvents.ACTIVITY_JOINED, about(activity, organiser).put("user", vic).put("via", "promoted"));
    awaitNotifications(organiser, "vic joined again", items -> items.size() == 1);
    awaitNotifications(vic, "vic's removal over", List::isEmpty);
    assertCountersMatchScan(organiser);
  }

  @Test
  @DisplayName("the reminder tells the organiser and every participant exactly once, whether the event is appended "
      + "twice or its entry delivered twice; a muted type stops it; a moved start replaces it")
  void reminders() throws Exception {
    long organiser = fresh();
    long ann = fresh();
    long ben = fresh();
    long quiet = fresh();
    long activity = fresh();
    await(notifications.setPreferences(quiet, new JsonObject().put("muted_types",
        new JsonArray().add(Notifications.ACTIVITY_STARTING_SOON))));
    JsonObject soon = about(activity, organiser).put("start", START)
        .put("place", new JsonObject().put("name", "Park")).put("participants", ids(ann, ben, quiet));
    DomainEvent first = activities(ActivitiesEvents.ACTIVITY_STARTING_SOON, soon);
    // the same payload appended again (a second reminder run): another event id, same content
    activities(ActivitiesEvents.ACTIVITY_STARTING_SOON, soon);
    // the same event id in two stream entries (a redelivery)
    long eventId = platform.ids().next();
    rawEntry(DOMAIN, eventId, ActivitiesEvents.ACTIVITY_STARTING_SOON, soon.encode());
    rawEntry(DOMAIN, eventId, ActivitiesEvents.ACTIVITY_STARTING_SOON, soon.encode());
    for (long user : List.of(organiser, ann, ben, quiet)) {
      drainStream(DOMAIN, user);
    }
    for (long user : List.of(organiser, ann, ben)) {
      List<JsonObject> got = all(user);
      assertEquals(1, got.size(), "one reminder for " + user + ": " + got);
      JsonObject n = got.get(0);
      assertEquals(Notifications.ACTIVITY_STARTING_SOON, n.getString("type"));
      assertEquals(activity, n.getLong("activity"));
      assertEquals(START, n.getLong("start"));
      assertEquals("Park", n.getString("place"));
      assertEquals("Hike up the hill", n.getString("title"));
      assertNull(n.getLong("from_user"), "a reminder has no actor");
      assertEquals(1L, n.getLong("count"));
    }
    assertEquals(List.of(), all(quiet), "muted type");
    // the handled event is marked done for the group: a redelivery would be skipped before the dedupe key
    await(platform.events().once(ActivitiesProducers.GROUP, e -> {
      throw new AssertionError("a handled event ran again: " + e);
    }).apply(first));

    // the start moved and a new reminder came: it replaces the earlier one
    activities(ActivitiesEvents.ACTIVITY_STARTING_SOON, soon.copy().put("start", START + 600_000L));
    drainStream(DOMAIN, ann);
    List<JsonObject> anns = all(ann);
    assertEquals(1, anns.size(), anns.toString());
    assertEquals(START + 600_000L, anns.get(0).getLong("start"));
    assertCountersMatchScan(ann);
  }

  @Test
  @DisplayName("malformed and unknown activities events are skipped and acknowledged; the consumer goes on")
  void malformed() throws Exception {
    long organiser = fresh();
    long ann = fresh();
    long activity = fresh();
    String group = ActivitiesProducers.GROUP;
    List<String> entries = List.of(
        rawEntry(DOMAIN, fresh(), ActivitiesEvents.ACTIVITY_CREATED, about(activity, organiser).encode()),
        rawEntry(DOMAIN, fresh(), "ActivityExploded", about(activity, organiser).put("participants", ids(ann))
            .encode()),
        rawEntry(DOMAIN, fresh(), ActivitiesEvents.ACTIVITY_CANCELLED, "nope"),
        rawEntry(DOMAIN, fresh(), ActivitiesEvents.ACTIVITY_CANCELLED, new JsonObject().put("activity", "x")
            .put("organiser", organiser).put("participants", ids(ann)).encode()),
        rawEntry(DOMAIN, fresh(), ActivitiesEvents.ACTIVITY_STARTING_SOON, about(activity, 0)
            .put("participants", ids(ann)).encode()),
        rawEntry(DOMAIN, fresh(), ActivitiesEvents.ACTIVITY_JOINED, about(activity, organiser).encode()),
        rawEntry(DOMAIN, fresh(), ActivitiesEvents.ACTIVITY_UPDATED, about(activity, organiser)
            .put("changed", "start").put("participants", ids(ann)).encode()),
        rawEntry(DOMAIN, fresh(), ActivitiesEvents.ACTIVITY_INVITED, about(activity, organiser)
            .put("title", new JsonObject()).put("start", "tomorrow").put("invited", "everyone").encode()));
    // odd members of a valid event are left out, the rest is told
    activities(ActivitiesEvents.ACTIVITY_CANCELLED, about(activity, organiser).put("title", 7).put("start", "soon")
        .put("participants", new JsonArray().add(ann).add("x").add(0)));
    drainStream(DOMAIN, ann);
    List<JsonObject> anns = all(ann);
    assertEquals(1, anns.size(), anns.toString());
    assertEquals(Notifications.ACTIVITY_CANCELLED, anns.get(0).getString("type"));
    assertFalse(anns.get(0).containsKey("title"));
    assertFalse(anns.get(0).containsKey("start"));
    for (String entry : entries) {
      assertFalse(pending(DOMAIN, group, entry), "entry " + entry + " acknowledged");
      assertFalse(deadLettered(DOMAIN, group, entry), "entry " + entry + " not dead-lettered");
    }
    assertEquals(List.of(), all(organiser));
  }
}
