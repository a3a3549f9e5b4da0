package io.kith.app.activities;

import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static io.kith.app.activities.ActivitiesKith.API;
import static io.kith.app.activities.ActivitiesKith.DAY;
import static io.kith.app.activities.ActivitiesKith.HOUR;
import static io.kith.app.activities.ActivitiesKith.WAIT;
import static io.kith.app.activities.ActivitiesKith.activity;
import static io.kith.app.activities.ActivitiesKith.activityAt;
import static io.kith.app.activities.ActivitiesKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Activities over HTTP: create, edit, cancel, join and leave, lists, nearby, and every refusal")
class ActivitiesHttpTest {

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

  private static String path(JsonObject activity) {
    return "/activities/" + activity.getLong("id");
  }

  private String status(JsonObject activity, User as) {
    return kith.get(path(activity), as).expect(200).getJsonObject("viewer").getString("status");
  }

  @Test
  @DisplayName("create (201) with every member, read it back, and the organiser's view of it")
  void create() {
    User org = kith.register();
    User other = kith.register();
    long media = kith.uploadImage(org);
    JsonObject body = activityAt("Sunday picnic", 48.8566, 2.3522).put("introduction", "Bring something to share")
        .put("capacity", 12).put("waitlist", true).put("visibility", "public")
        .put("cover", new JsonObject().put("media", media));
    JsonObject created = kith.create(org, body);
    assertTrue(created.getLong("id") > 0);
    assertEquals("Sunday picnic", created.getString("title"));
    assertEquals("Bring something to share", created.getString("introduction"));
    assertEquals(body.getLong("start"), created.getLong("start"));
    assertEquals(body.getLong("end"), created.getLong("end"));
    assertEquals("The old mill", created.getJsonObject("place").getString("name"));
    assertEquals(48.8566, created.getJsonObject("place").getDouble("lat"), 1e-6);
    assertEquals(2.3522, created.getJsonObject("place").getDouble("lon"), 1e-6);
    assertEquals(12, created.getInteger("capacity"));
    assertTrue(created.getBoolean("waitlist"));
    assertEquals("public", created.getString("visibility"));
    assertEquals(media, created.getJsonObject("cover").getLong("media"));
    assertEquals("open", created.getString("status"));
    assertEquals(0, created.getInteger("participant_count"));
    assertEquals(org.id(), created.getJsonObject("organiser").getLong("id"));
    assertEquals("organiser", created.getJsonObject("viewer").getString("status"));

    JsonObject seen = kith.get(path(created), other).expect(200);
    assertEquals(created.getLong("id"), seen.getLong("id"));
    assertEquals(org.username(), seen.getJsonObject("organiser").getString("username"));
    assertEquals("none", seen.getJsonObject("viewer").getString("status"));

    JsonObject url = kith.create(org, activity("With a URL cover").put("cover",
        new JsonObject().put("url", "https://example.com/cover.jpg")));
    assertEquals("https://example.com/cover.jpg", url.getJsonObject("cover").getString("url"));
    assertNull(url.getValue("capacity"), "no capacity: null");
    assertEquals("public", url.getString("visibility"), "public by default");
    assertFalse(url.getBoolean("waitlist"));

    // another user's upload is no cover for this organiser
    long theirs = kith.uploadImage(other);
    kith.post("/activities", org, activity("Borrowed cover").put("cover", new JsonObject().put("media", theirs)))
        .problem(400, "validation_failed", "cover.media");
  }

  @Test
  @DisplayName("a cover image is readable by whoever may see the activity (a friend of a friends-only one), 404 to others")
  void coverReadableWithTheActivity() {
    User org = kith.register();
    User friend = kith.register();
    User stranger = kith.register();
    kith.befriend(org, friend);
    long media = kith.uploadImage(org);
    assertEquals(404, kith.get("/media/" + media, friend).status(), "not a cover yet: the uploader's only");
    kith.create(org, activity("Friends' picnic").put("visibility", "friends")
        .put("cover", new JsonObject().put("media", media)));
    assertEquals(200, kith.get("/media/" + media, friend).status());
    kith.get("/media/" + media, stranger).problem(404, "media_not_found");
    kith.get("/media/" + media, null).problem(404, "media_not_found");
  }

  @Test
  @DisplayName("a cover image that failed processing (bytes that decode as nothing) is 400 naming cover.media, and no "
      + "activity is made")
  void failedCoverRefused() {
    User org = kith.register();
    long garbage = kith.uploadGarbageImage(org);
    kith.post("/activities", org, activity("Broken cover").put("cover", new JsonObject().put("media", garbage)))
        .problem(400, "validation_failed", "cover.media");
    // attached to a public activity, anonymous callers could read it
    assertEquals(404, kith.get("/media/" + garbage, null).status(), "a refused cover attaches nothing");
  }

  @Test
  @DisplayName("join (idempotent), waitlist in order, leave promotes the first waiting, participants with friend flags")
  void joinLeaveWaitlist() {
    User org = kith.register();
    List<User> u = kith.register(4);
    User bob = u.get(0);
    User carol = u.get(1);
    User dave = u.get(2);
    User erin = u.get(3);
    kith.befriend(carol, dave);
    JsonObject a = kith.create(org, activity("Board games").put("capacity", 2).put("waitlist", true));
    String p = path(a) + "/participation";

    JsonObject joined = kith.put(p, bob, null).expect(200);
    assertEquals("joined", joined.getString("status"));
    assertEquals(a.getLong("id"), joined.getLong("activity"));
    assertEquals(1, joined.getInteger("participant_count"));
    assertEquals("joined", kith.put(p, bob, null).expect(200).getString("status"), "joining twice is one join");
    assertEquals(1, kith.get(path(a), org).expect(200).getInteger("participant_count"));
    assertEquals("joined", kith.put(p, dave, null).expect(200).getString("status"));
    JsonObject waiting = kith.put(p, carol, null).expect(200);
    assertEquals("waitlisted", waiting.getString("status"));
    assertEquals(1, waiting.getInteger("position"));
    assertEquals(2, waiting.getInteger("participant_count"));
    assertEquals(1, waiting.getInteger("waitlist_count"));
    JsonObject second = kith.put(p, erin, null).expect(200);
    assertEquals("waitlisted", second.getString("status"));
    assertEquals(2, second.getInteger("position"));
    assertEquals("waitlisted", kith.put(p, erin, null).expect(200).getString("status"), "idempotent on the waitlist");
    JsonObject carolView = kith.get(path(a), carol).expect(200).getJsonObject("viewer");
    assertEquals("waitlisted", carolView.getString("status"));
    assertEquals(1, carolView.getInteger("position"));

    // participants, in the order they got their place; paged; friend flags as the reader sees them
    List<JsonObject> people = kith.all(path(a) + "/participants", carol, 1);
    assertEquals(List.of(bob.id(), dave.id()), people.stream().map(x -> x.getJsonObject("user").getLong("id"))
        .toList());
    assertEquals(bob.username(), people.get(0).getJsonObject("user").getString("username"));
    assertFalse(people.get(0).getBoolean("friend"));
    assertTrue(people.get(1).getBoolean("friend"), "dave is carol's friend");
    assertEquals("joined", people.get(0).getString("status"));
    assertTrue(people.get(0).getLong("since") > 0);
    assertEquals(List.of(carol.id(), erin.id()),
        ids(kith.get(path(a) + "/participants?status=waitlisted", org).expect(200)));
    kith.get(path(a) + "/participants?status=waitlisted", bob).problem(403, "not_organiser");

    // leaving frees a place for the first waiting user
    JsonObject left = kith.delete(p, bob).expect(200);
    assertEquals("none", left.getString("status"));
    assertEquals("none", kith.delete(p, bob).expect(200).getString("status"), "leaving twice is one leave");
    assertEquals("joined", status(a, carol), "carol was promoted");
    JsonObject erinView = kith.get(path(a), erin).expect(200).getJsonObject("viewer");
    assertEquals("waitlisted", erinView.getString("status"));
    assertEquals(1, erinView.getInteger("position"));
    assertEquals(List.of(dave.id(), carol.id()), ids(kith.get(path(a) + "/participants", org).expect(200)));
    JsonObject promoted = kith.awaitEvent(a.getLong("id"), "ActivityJoined",
        e -> e.getLong("user") == carol.id() && "promoted".equals(e.getString("via")));
    assertEquals(org.id(), promoted.getLong("organiser"));

    // a waiting user may leave the waitlist
    assertEquals("none", kith.delete(p, erin).expect(200).getString("status"));
    assertEquals(0, kith.get(path(a), org).expect(200).getInteger("waitlist_count"));

    // the lists of the participant and the organiser
    assertTrue(ids(kith.get("/me/activities/joined", carol).expect(200)).contains(a.getLong("id")));
    assertFalse(ids(kith.get("/me/activities/joined", bob).expect(200)).contains(a.getLong("id")));
    assertTrue(ids(kith.get("/me/activities/organised", org).expect(200)).contains(a.getLong("id")));
  }

  @Test
  @DisplayName("the organiser edits; participants are told of time and place changes; capacity below the joined refused")
  void edit() {
    User org = kith.register();
    List<User> u = kith.register(2);
    JsonObject a = kith.create(org, activity("Choir practice").put("capacity", 5));
    for (User x : u) {
      kith.put(path(a) + "/participation", x, null).expect(200);
    }
    long start = System.currentTimeMillis() + 3 * DAY;
    JsonObject changed = kith.patch(path(a), org, new JsonObject().put("start", start).put("end", start + HOUR)
        .put("place", new JsonObject().put("name", "Town hall").put("lat", 51.5).put("lon", -0.12))
        .put("introduction", "New place!")).expect(200);
    assertEquals(start, changed.getLong("start"));
    assertEquals("Town hall", changed.getJsonObject("place").getString("name"));
    assertEquals("New place!", changed.getString("introduction"));
    assertEquals(start, kith.get(path(a), u.get(0)).expect(200).getLong("start"));
    JsonObject event = kith.awaitEvent(a.getLong("id"), "ActivityUpdated",
        e -> e.getJsonArray("changed", new JsonArray()).contains("start"));
    assertTrue(event.getJsonArray("changed").contains("place"), event.encode());
    Set<Long> told = event.getJsonArray("participants").stream().map(o -> ((Number) o).longValue())
        .collect(Collectors.toSet());
    assertEquals(Set.of(u.get(0).id(), u.get(1).id()), told);
    for (User participant : u) {
      JsonObject note = kith.awaitNotification(participant, "activity_updated", a.getLong("id"));
      assertEquals(org.id(), note.getLong("from_user"));
    }

    Object cleared = kith.patch(path(a), org, new JsonObject().put("introduction", (Object) null)).expect(200)
        .getValue("introduction");
    assertTrue(cleared == null || "".equals(cleared), "null clears the introduction: " + cleared);
    kith.patch(path(a), org, new JsonObject().put("capacity", 1)).problem(400, "validation_failed", "capacity");
    assertEquals(2, kith.patch(path(a), org, new JsonObject().put("capacity", 2)).expect(200).getInteger("capacity"));
    assertNull(kith.patch(path(a), org, new JsonObject().put("capacity", (Object) null)).expect(200)
        .getValue("capacity"), "null lifts the capacity");
  }

  @Test
  @DisplayName("cancel (idempotent): stays readable as cancelled, participants notified, joining and editing refused")
  void cancel() {
    User org = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    JsonObject a = kith.create(org, activity("Cancelled hike"));
    kith.put(path(a) + "/participation", bob, null).expect(200);

    JsonObject cancelled = kith.post(path(a) + "/cancel", org, null).expect(200);
    assertEquals("cancelled", cancelled.getString("status"));
    assertEquals("cancelled", kith.post(path(a) + "/cancel", org, null).expect(200).getString("status"));
    assertEquals("cancelled", kith.get(path(a), bob).expect(200).getString("status"));
    assertEquals("cancelled", kith.get(path(a), carol).expect(200).getString("status"));
    JsonObject event = kith.awaitEvent(a.getLong("id"), "ActivityCancelled", e -> true);
    assertTrue(event.getJsonArray("participants").contains(bob.id()), event.encode());
    assertEquals(org.id(), kith.awaitNotification(bob, "activity_cancelled", a.getLong("id")).getLong("from_user"));

    kith.put(path(a) + "/participation", carol, null).problem(409, "activity_cancelled");
    kith.patch(path(a), org, new JsonObject().put("title", "Back on")).problem(409, "activity_cancelled");
    assertTrue(ids(kith.get("/me/activities/organised", org).expect(200)).contains(a.getLong("id")),
        "a cancelled activity stays in the organiser's list");
  }

  @Test
  @DisplayName("only the organiser edits, cancels, invites or removes: 403 not_organiser when visible, else 404")
  void someoneElses() {
    User org = kith.register();
    User mallory = kith.register();
    User bob = kith.register();
    JsonObject open = kith.create(org, activity("Not yours"));
    JsonObject hidden = kith.create(org, activity("Not even visible").put("visibility", "invitation"));
    kith.put(path(open) + "/participation", bob, null).expect(200);

    kith.patch(path(open), mallory, new JsonObject().put("title", "Mine now")).problem(403, "not_organiser");
    kith.post(path(open) + "/cancel", mallory, null).problem(403, "not_organiser");
    kith.post(path(open) + "/invitations", mallory, new JsonObject().put("users", new JsonArray().add(bob.id())))
        .problem(403, "not_organiser");
    kith.delete(path(open) + "/participants/" + bob.path(), mallory).problem(403, "not_organiser");
    kith.patch(path(hidden), mallory, new JsonObject().put("title", "Mine now")).problem(404, "activity_not_found");
    kith.post(path(hidden) + "/cancel", mallory, null).problem(404, "activity_not_found");
    assertEquals("Not yours", kith.get(path(open), org).expect(200).getString("title"));
    assertEquals("open", kith.get(path(open), org).expect(200).getString("status"));
    assertEquals("joined", status(open, bob));
  }

  @Test
  @DisplayName("the organiser removes a participant: the place frees up, rejoining is refused until a new invitation")
  void removeParticipant() {
    User org = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    JsonObject a = kith.create(org, activity("Pottery").put("capacity", 1).put("waitlist", true));
    kith.put(path(a) + "/participation", bob, null).expect(200);
    assertEquals("waitlisted", kith.put(path(a) + "/participation", carol, null).expect(200).getString("status"));

    kith.delete(path(a) + "/participants/" + bob.path(), org).expectNoContent();
    kith.delete(path(a) + "/participants/" + bob.path(), org).expectNoContent();
    assertEquals("removed", status(a, bob));
    assertEquals("joined", status(a, carol), "the freed place went to the first waiting user");
    JsonObject left = kith.awaitEvent(a.getLong("id"), "ActivityLeft", e -> e.getLong("user") == bob.id());
    assertEquals(org.id(), left.getLong("removed_by"));
    kith.put(path(a) + "/participation", bob, null).problem(403, "participant_removed");
    kith.awaitNotification(bob, "activity_removed", a.getLong("id"));

    kith.patch(path(a), org, new JsonObject().put("capacity", 2)).expect(200);
    kith.befriend(org, bob);
    assertEquals(List.of(bob.id()), kith.post(path(a) + "/invitations", org, new JsonObject().put("users",
        new JsonArray().add(bob.id()))).expect(200).getJsonArray("invited").stream()
        .map(o -> ((Number) o).longValue()).toList());
    assertEquals("joined", kith.put(path(a) + "/participation", bob, null).expect(200).getString("status"));
  }

  @Test
  @DisplayName("joining refused: full, cancelled, friends-only as a stranger, invitation-only uninvited, blocked")
  void joinRefusals() {
    User org = kith.register();
    List<User> u = kith.register(4);
    User bob = u.get(0);
    User friend = u.get(1);
    User stranger = u.get(2);
    User blocked = u.get(3);
    kith.befriend(org, friend);

    JsonObject full = kith.create(org, activity("Tiny").put("capacity", 1));
    kith.put(path(full) + "/participation", bob, null).expect(200);
    kith.put(path(full) + "/participation", stranger, null).problem(409, "activity_full");
    kith.put(path(full) + "/participation", org, null).problem(409, "organiser_cannot_join");

    JsonObject friends = kith.create(org, activity("Friends only").put("visibility", "friends"));
    kith.put(path(friends) + "/participation", stranger, null).problem(404, "activity_not_found");
    kith.get(path(friends), stranger).problem(404, "activity_not_found");
    assertEquals("joined", kith.put(path(friends) + "/participation", friend, null).expect(200).getString("status"));

    JsonObject invitation = kith.create(org, activity("Invitation only").put("visibility", "invitation"));
    kith.put(path(invitation) + "/participation", friend, null).problem(404, "activity_not_found");
    kith.get(path(invitation), friend).problem(404, "activity_not_found");
    // invitations go to the organiser's friends only; the answer names every id asked whatever became of it
    JsonObject refused = kith.post(path(invitation) + "/invitations", org, new JsonObject().put("users",
        new JsonArray().add(stranger.id()))).expect(200);
    assertEquals(new JsonArray().add(stranger.id()), refused.getJsonArray("invited"));
    kith.get(path(invitation), stranger).problem(404, "activity_not_found");
    kith.befriend(org, stranger);
    JsonObject invited = kith.post(path(invitation) + "/invitations", org, new JsonObject().put("users",
        new JsonArray().add(stranger.id()).add(stranger.id()))).expect(200);
    assertEquals(new JsonArray().add(stranger.id()), invited.getJsonArray("invited"));
    assertEquals("invited", status(invitation, stranger));
    kith.awaitNotification(stranger, "activity_invitation", invitation.getLong("id"));
    assertEquals("joined", kith.put(path(invitation) + "/participation", stranger, null).expect(200)
        .getString("status"));
    kith.post(path(invitation) + "/invitations", org, new JsonObject().put("users",
        new JsonArray().add(stranger.id()))).expect(200);
    assertEquals("joined", status(invitation, stranger), "inviting a participant again changes nothing");

    JsonObject open = kith.create(org, activity("Open to all but one"));
    kith.block(org, blocked);
    kith.put(path(open) + "/participation", blocked, null).problem(404, "activity_not_found");
    kith.get(path(open), blocked).problem(404, "activity_not_found");
    assertEquals(new JsonArray().add(blocked.id()), kith.post(path(open) + "/invitations", org,
        new JsonObject().put("users", new JsonArray().add(blocked.id()))).expect(200).getJsonArray("invited"),
        "the answer does not tell a block apart");
    kith.get(path(open), blocked).problem(404, "activity_not_found");

    JsonObject cancelled = kith.create(org, activity("Off"));
    kith.post(path(cancelled) + "/cancel", org, null).expect(200);
    kith.put(path(cancelled) + "/participation", bob, null).problem(409, "activity_cancelled");
  }

  @Test
  @DisplayName("an activity that has started can no longer be joined; once over it lists under past, latest first")
  void pastActivities() {
    User org = kith.register();
    User bob = kith.register();
    long start = System.currentTimeMillis() + 1_500;
    JsonObject soon = kith.create(org, activity("Starts in a moment").put("start", start).put("end", start + 1_000));
    kith.put(path(soon) + "/participation", bob, null).expect(200);
    JsonObject later = kith.create(org, activity("Tomorrow"));
    User late = kith.register();
    Await.result(Poll.until(kith.client(), WAIT, "the start time to pass", () -> Future.succeededFuture(
        System.currentTimeMillis() > start)));
    kith.put(path(soon) + "/participation", late, null).problem(409, "activity_started");
    Await.result(Poll.until(kith.client(), WAIT, "the activity to end", () ->
        kith.send(HttpMethod.GET, API + "/me/activities/organised?when=past", org.access(), null)
            .map(r -> r.status() == 200 && ids(r.body().toJsonObject()).contains(soon.getLong("id")))));
    assertEquals(List.of(later.getLong("id")), ids(kith.get("/me/activities/organised", org).expect(200)));
    assertEquals(List.of(soon.getLong("id")), ids(kith.get("/me/activities/joined?when=past", bob).expect(200)));
    assertTrue(ids(kith.get("/me/activities/joined", bob).expect(200)).isEmpty());
    kith.patch(path(soon), org, new JsonObject().put("title", "Too late")).problem(409, "activity_started");
  }

  @Test
  @DisplayName("own and joined lists are ordered by start: upcoming soonest first, paged by cursor")
  void ownLists() {
    User org = kith.register();
    User bob = kith.register();
    long now = System.currentTimeMillis();
    long[] offsets = {5 * DAY, 2 * DAY, 9 * DAY, 1 * DAY};
    long[] ids = new long[offsets.length];
    for (int i = 0; i < offsets.length; i++) {
      JsonObject a = kith.create(org, activity("At +" + i).put("start", now + offsets[i])
          .put("end", now + offsets[i] + HOUR));
      ids[i] = a.getLong("id");
      kith.put(path(a) + "/participation", bob, null).expect(200);
    }
    List<Long> expected = List.of(ids[3], ids[1], ids[0], ids[2]);
    assertEquals(expected, kith.all("/me/activities/organised", org, 3).stream().map(x -> x.getLong("id")).toList());
    assertEquals(expected, kith.all("/me/activities/joined?when=upcoming", bob, 1).stream()
        .map(x -> x.getLong("id")).toList());
    assertTrue(ids(kith.get("/me/activities/joined", org).expect(200)).isEmpty(), "organising is not joining");
  }

  @Test
  @DisplayName("a hidden activity answers 404 exactly like a missing one, on every operation")
  void hiddenIsMissing() {
    User org = kith.register();
    User stranger = kith.register();
    JsonObject hidden = kith.create(org, activity("Secret").put("visibility", "invitation"));
    long missing = hidden.getLong("id") + 987_654_321L;
    for (String suffix : List.of("", "/participants")) {
      JsonObject a = kith.get(path(hidden) + suffix, stranger).problem(404, "activity_not_found");
      JsonObject b = kith.get("/activities/" + missing + suffix, stranger).problem(404, "activity_not_found");
      assertSameProblem(a, b);
    }
    assertSameProblem(kith.put(path(hidden) + "/participation", stranger, null).problem(404, "activity_not_found"),
        kith.put("/activities/" + missing + "/participation", stranger, null).problem(404, "activity_not_found"));
    assertSameProblem(kith.delete(path(hidden) + "/participation", stranger).problem(404, "activity_not_found"),
        kith.delete("/activities/" + missing + "/participation", stranger).problem(404, "activity_not_found"));
    assertSameProblem(kith.post(path(hidden) + "/cancel", stranger, null).problem(404, "activity_not_found"),
        kith.post("/activities/" + missing + "/cancel", stranger, null).problem(404, "activity_not_found"));
  }

  private static void assertSameProblem(JsonObject a, JsonObject b) {
    JsonObject x = a.copy();
    JsonObject y = b.copy();
    x.remove("instance");
    y.remove("instance");
    assertEquals(x, y, "a hidden activity and a missing one answer alike");
  }

  @Test
  @DisplayName("refused input: times, coordinates, capacity, title, radius; 400 naming the field")
  void invalidInput() {
    User org = kith.register();
    long now = System.currentTimeMillis();
    kith.post("/activities", org, activity("Past").put("start", now - HOUR).put("end", now + HOUR))
        .problem(400, "validation_failed", "start");
    kith.post("/activities", org, activity("Backwards").put("start", now + DAY).put("end", now + DAY - 1))
        .problem(400, "validation_failed", "end");
    kith.post("/activities", org, activity("Same").put("start", now + DAY).put("end", now + DAY))
        .problem(400, "validation_failed", "end");
    kith.post("/activities", org, activity("Too long").put("start", now + DAY).put("end", now + 32 * DAY))
        .problem(400, "validation_failed", "end");
    kith.post("/activities", org, activity("Too far").put("start", now + 800 * DAY).put("end", now + 801 * DAY))
        .problem(400, "validation_failed", "start");
    kith.post("/activities", org, activityAt("North", 90.5, 0)).problem(400, "validation_failed", "place.lat");
    kith.post("/activities", org, activityAt("West", 0, -181)).problem(400, "validation_failed", "place.lon");
    kith.post("/activities", org, activity("Half").put("place", new JsonObject().put("name", "x").put("lat", 3)))
        .problem(400, "validation_failed");
    kith.post("/activities", org, activity("None").put("capacity", 0)).problem(400, "validation_failed", "capacity");
    kith.post("/activities", org, activity("Crowd").put("capacity", 5001))
        .problem(400, "validation_failed", "capacity");
    kith.post("/activities", org, activity("x".repeat(101))).problem(400, "validation_failed", "title");
    kith.post("/activities", org, activity(" ")).problem(400, "validation_failed", "title");
    kith.post("/activities", org, activity("Intro").put("introduction", "x".repeat(5001)))
        .problem(400, "validation_failed", "introduction");
    kith.post("/activities", org, activity("Secretive").put("visibility", "secret"))
        .problem(400, "validation_failed", "visibility");
    kith.post("/activities", org, activity("Bad cover").put("cover", new JsonObject().put("url", "ftp://x/y")))
        .problem(400, "validation_failed");
    kith.post("/activities", org, "{not json").problem(400, "malformed_json");
    kith.post("/activities", null, activity("Anonymous")).problem(401, "unauthenticated");
    // NUL and other controls, and an unpaired surrogate sent as a JSON escape; the introduction may break lines
    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "bell\\u0007")) {
      kith.post("/activities", org, activity("@").encode().replace("@", escaped))
          .problem(400, "validation_failed", "title");
      kith.post("/activities", org, activity("Intro").put("introduction", "@").encode().replace("@", escaped))
          .problem(400, "validation_failed", "introduction");
      JsonObject place = activity("Place");
      place.getJsonObject("place").put("name", "@");
      kith.post("/activities", org, place.encode().replace("@", escaped))
          .problem(400, "validation_failed", "place.name");
    }
    assertEquals(List.of(), ids(kith.get("/me/activities/organised", org).expect(200)));
    assertEquals("one\ntwo", kith.create(org, activity("Lines").put("introduction", "one\ntwo"))
        .getString("introduction"));

    // title length counts characters, not UTF-16 units: 100 emoji are a valid title
    assertEquals(100, kith.create(org, activity("\uD83C\uDF89".repeat(100))).getString("title")
        .codePointCount(0, 200));

    JsonObject a = kith.create(org, activity("Editable"));
    kith.patch(path(a), org, new JsonObject().put("start", now - HOUR)).problem(400, "validation_failed", "start");
    kith.patch(path(a), org, new JsonObject().put("end", a.getLong("start") - 1))
        .problem(400, "validation_failed", "end");

    for (String radius : List.of("0", "100.01", "-5", "1000")) {
      kith.get("/activities/nearby?lat=10&lon=10&radius_km=" + radius, org)
          .problem(400, "validation_failed", "radius_km");
    }
    kith.get("/activities/nearby?lat=95&lon=10&radius_km=5", org)
        .problem(400, "validation_failed", "lat");
    kith.get("/activities/nearby?lat=10&lon=-190&radius_km=5", org)
        .problem(400, "validation_failed", "lon");
    kith.get("/activities/nearby?lat=10&lon=10&radius_km=5&order=popular", org)
        .problem(400, "validation_failed", "order");
  }

  @Test
  @DisplayName("nearby: upcoming open public activities in the radius, by start or distance, blocked organisers left out")
  void nearby() {
    User org = kith.register();
    User other = kith.register();
    User me = kith.register();
    double[] spot = ActivitiesKith.randomSpot();
    double lat = spot[0];
    double lon = spot[1];
    long now = System.currentTimeMillis();
    // ~1.1 km, ~5.5 km and ~22 km north of the spot; starting in 3, 1 and 2 days
    JsonObject near = kith.create(org, activityAt("Near", lat + 0.01, lon).put("start", now + 3 * DAY)
        .put("end", now + 3 * DAY + HOUR));
    JsonObject middle = kith.create(other, activityAt("Middle", lat + 0.05, lon).put("start", now + DAY)
        .put("end", now + DAY + HOUR));
    JsonObject far = kith.create(org, activityAt("Far", lat + 0.2, lon).put("start", now + 2 * DAY)
        .put("end", now + 2 * DAY + HOUR));
    kith.create(org, activityAt("Friends only", lat, lon).put("visibility", "friends"));
    kith.create(org, activityAt("Invitation only", lat, lon).put("visibility", "invitation"));
    JsonObject off = kith.create(org, activityAt("Cancelled", lat, lon));
    kith.post(path(off) + "/cancel", org, null).expect(200);
    kith.create(org, activity("No coordinates"));

    String q = "/activities/nearby?lat=" + lat + "&lon=" + lon;
    assertEquals(List.of(middle.getLong("id"), far.getLong("id"), near.getLong("id")),
        ids(kith.get(q + "&radius_km=30", me).expect(200)), "by start, soonest first");
    JsonObject byDistance = kith.get(q + "&radius_km=30&order=distance", me).expect(200);
    assertEquals(List.of(near.getLong("id"), middle.getLong("id"), far.getLong("id")), ids(byDistance));
    double d0 = byDistance.getJsonArray("items").getJsonObject(0).getDouble("distance_km");
    double d2 = byDistance.getJsonArray("items").getJsonObject(2).getDouble("distance_km");
    assertEquals(1.11, d0, 0.05);
    assertEquals(22.2, d2, 0.5);
    assertEquals(List.of(middle.getLong("id"), near.getLong("id")), ids(kith.get(q + "&radius_km=10", me).expect(200)));
    assertEquals(List.of(near.getLong("id")), ids(kith.get(q + "&radius_km=2", me).expect(200)));

    List<JsonObject> paged = kith.all(q + "&radius_km=100&order=distance", me, 1);
    assertEquals(List.of(near.getLong("id"), middle.getLong("id"), far.getLong("id")),
        paged.stream().map(x -> x.getLong("id")).toList());

    kith.block(org, me);
    assertEquals(List.of(middle.getLong("id")), ids(kith.get(q + "&radius_km=30", me).expect(200)),
        "activities of an organiser who blocked the reader are left out");
    kith.post(path(middle) + "/cancel", other, null).expect(200);
    assertTrue(ids(kith.get(q + "&radius_km=30", me).expect(200)).isEmpty(), "a cancelled activity leaves the search");
  }

  @Test
  @DisplayName("near the poles, beyond what Redis GEO holds (85.05 degrees): created, never found, searches refused")
  void polar() {
    User org = kith.register();
    JsonObject polar = kith.create(org, activityAt("Midnight sun", 89.5, 10));
    assertEquals(89.5, polar.getJsonObject("place").getDouble("lat"), 1e-9);
    kith.get("/activities/nearby?lat=89.5&lon=10&radius_km=50", org)
        .problem(400, "validation_failed", "lat");
    assertTrue(ids(kith.get("/activities/nearby?lat=85.05&lon=10&radius_km=100", org).expect(200))
        .isEmpty());
  }

  @Test
  @DisplayName("activities my friends joined: upcoming, visible to me, with the friends who joined")
  void friendsActivities() {
    User org = kith.register();
    User me = kith.register();
    List<User> u = kith.register(2);
    User friend = u.get(0);
    User notFriend = u.get(1);
    kith.befriend(me, friend);
    kith.befriend(org, friend);
    JsonObject joinedByFriend = kith.create(org, activity("Friend goes").put("start",
        System.currentTimeMillis() + 2 * DAY).put("end", System.currentTimeMillis() + 2 * DAY + HOUR));
    JsonObject alsoJoined = kith.create(org, activity("Friend goes too"));
    JsonObject joinedByStranger = kith.create(org, activity("Stranger goes"));
    JsonObject invitationOnly = kith.create(org, activity("Hidden from me").put("visibility", "invitation"));
    kith.post(path(invitationOnly) + "/invitations", org, new JsonObject().put("users",
        new JsonArray().add(friend.id()))).expect(200);
    for (JsonObject a : List.of(joinedByFriend, alsoJoined, invitationOnly)) {
      kith.put(path(a) + "/participation", friend, null).expect(200);
    }
    kith.put(path(joinedByStranger) + "/participation", notFriend, null).expect(200);

    JsonObject page = kith.get("/activities/friends", me).expect(200);
    assertEquals(List.of(alsoJoined.getLong("id"), joinedByFriend.getLong("id")), ids(page), "soonest first");
    JsonArray friends = page.getJsonArray("items").getJsonObject(0).getJsonArray("friends");
    assertNotNull(friends);
    assertEquals(friend.id(), friends.getJsonObject(0).getLong("id"));
    assertTrue(ids(kith.get("/activities/friends", notFriend).expect(200)).isEmpty());
  }
}
