package io.kith.app.moderation;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.Conformance;
import io.kith.app.support.TestKith;
import io.kith.app.support.TestNode;
import io.kith.app.support.User;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import io.kith.platform.testkit.KithTestKit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The limit sanction over HTTP and the bridge: off the public timeline and people search for strangers, "
    + "direct messages to followers only, undone by unlimit or an overturned appeal")
class LimitsHttpTest {

  private static final String LATEST = "/timelines/latest?limit=100";

  private TestKith kith;
  private OperatorKith operators;
  private User admin;

  @BeforeAll
  void start() {
    // notifications too: the limited user is told
    operators = OperatorKith.start(OperatorKith.WITH_NOTIFICATIONS, new JsonObject());
    admin = operators.admin();
    kith = operators.kith();
  }

  @AfterAll
  void stop() {
    if (operators != null) {
      operators.close();
    }
  }

  private JsonObject limit(User as, User who) {
    return kith.post("/admin/users/" + who.path() + "/limit", as, new JsonObject().put("reason", "spammy replies"))
        .expect(200);
  }

  private List<Long> latest(User as) {
    return TestKith.ids(kith.get(LATEST, as).expect(200));
  }

  private static JsonObject message(String text) {
    return new JsonObject().put("client_id", UUID.randomUUID().toString()).put("text", text);
  }

  @Test
  @DisplayName("a plain user cannot limit (403 role_required); a moderator's limit takes a user's post off the latest "
      + "timeline for a stranger and an anonymous reader, keeps it for a follower and the user; unlimit brings it back")
  void latestTimeline() {
    User mod = operators.moderator();
    User bob = kith.register();
    User follower = kith.register();
    User stranger = kith.register();
    User carol = kith.register();
    kith.follow(follower, bob);
    kith.post("/admin/users/" + bob.path() + "/limit", stranger, new JsonObject().put("reason", "x"))
        .problem(403, "role_required");

    JsonObject sanction = limit(mod, bob);
    assertEquals("limit", sanction.getString("kind"));
    assertNull(sanction.getValue("until"), "no until: permanent");
    long post = kith.publish(bob, "limited but posting");
    long later = kith.publish(carol, "after bob's post");
    List<Long> seen = latest(stranger);
    assertTrue(seen.contains(later), "the stranger's page covers bob's post's time");
    assertFalse(seen.contains(post), "a limited user's post is off a stranger's latest timeline");
    assertFalse(latest(null).contains(post), "and off an anonymous reader's");
    assertTrue(latest(follower).contains(post), "a follower still sees it");
    assertTrue(latest(bob).contains(post), "the user sees their own post");
    kith.get("/posts/" + post, stranger).expect(200);

    kith.post("/admin/users/" + bob.path() + "/unlimit", mod, new JsonObject().put("reason", "served")).expect(200);
    assertTrue(latest(stranger).contains(post), "unlimited: back on the stranger's latest timeline");
    List<String> actions = kith.get("/admin/audit?target_id=" + bob.id(), admin).expect(200)
        .getJsonArray("items").stream().map(e -> ((JsonObject) e).getString("action")).toList();
    assertEquals(List.of("user.unlimit", "user.limit"), actions);
  }

  @Test
  @DisplayName("a limited user's direct message to someone who does not follow them is 403 sender_limited over HTTP "
      + "and the bridge; to a follower it is sent; after the limit ends, to anyone")
  void directMessages() {
    User bob = kith.register();
    User follower = kith.register();
    User stranger = kith.register();
    kith.follow(follower, bob);
    limit(admin, bob);

    kith.post("/direct/" + stranger.path() + "/messages", bob, message("hi stranger"))
        .problem(403, "sender_limited");
    kith.post("/direct/" + follower.path() + "/messages", bob, message("hi follower")).expect(201);
    try (BridgeSocket socket = kith.bridge(bob)) {
      String reply = UUID.randomUUID().toString();
      socket.send("kith.messaging.send", message("over the bridge").put("to", stranger.id()), reply, null, null);
      JsonObject err = socket.takeReply(reply, TestNode.WAIT);
      assertEquals("err", err.getString("type"), err.encode());
      assertEquals(403, err.getInteger("failureCode"), err.encode());
      assertEquals("sender_limited", err.getString("message"), err.encode());
    }
    // the stranger may still write to the limited user
    kith.post("/direct/" + bob.path() + "/messages", stranger, message("hello bob")).expect(201);

    kith.post("/admin/users/" + bob.path() + "/unlimit", admin, new JsonObject().put("reason", "ok")).expect(200);
    kith.post("/direct/" + stranger.path() + "/messages", bob, message("hi again")).expect(201);
  }

  /** A user who shows in nearby, at a position of the 0.001-degree grid. */
  private User nearbyAt(double lat, double lon) {
    User user = kith.register();
    kith.patch("/me", user, new JsonObject().put("settings", new JsonObject().put("nearby_visible", true)))
        .expect(200);
    kith.put("/me/position", user, new JsonObject().put("lat", lat).put("lon", lon)).expectNoContent();
    return user;
  }

  private List<Long> nearbyIds(User viewer, double lat, double lon) {
    JsonObject page = kith.get(String.format(Locale.ROOT, "/people/nearby?lat=%.3f&lon=%.3f", lat, lon), viewer)
        .expect(200);
    return TestKith.userIds(page);
  }

  @Test
  @DisplayName("a limited user is left out of the nickname search and of nearby; unlimited, they are found again")
  void peopleSearch() {
    User bob = kith.register();
    User viewer = kith.register();
    String nickname = TestKith.unique("Lim");
    kith.patch("/me", bob, new JsonObject().put("nickname", nickname)).expect(200);
    String search = "/people/search?prefix=" + nickname;
    double lat = ThreadLocalRandom.current().nextInt(-60_000, 60_000) / 1000.0;
    double lon = ThreadLocalRandom.current().nextInt(-170_000, 170_000) / 1000.0;
    User near = nearbyAt(lat, lon);
    User looking = nearbyAt(lat, lon + 0.001);
    assertTrue(TestKith.ids(kith.get(search, viewer).expect(200)).contains(bob.id()));
    assertTrue(nearbyIds(looking, lat, lon + 0.001).contains(near.id()));

    limit(admin, bob);
    limit(admin, near);
    assertFalse(TestKith.ids(kith.get(search, viewer).expect(200)).contains(bob.id()));
    assertFalse(nearbyIds(looking, lat, lon + 0.001).contains(near.id()));
    kith.post("/admin/users/" + bob.path() + "/unlimit", admin, new JsonObject().put("reason", "ok")).expect(200);
    kith.post("/admin/users/" + near.path() + "/unlimit", admin, new JsonObject().put("reason", "ok")).expect(200);
    assertTrue(TestKith.ids(kith.get(search, viewer).expect(200)).contains(bob.id()));
    assertTrue(nearbyIds(looking, lat, lon + 0.001).contains(near.id()));
  }

  @Test
  @DisplayName("a report decided with limit closes it actioned and limits the owner, who gets an account_limited "
      + "notification with the reason and appeals once; another moderator's overturn ends the limit")
  void reportAppealOverturn() {
    User mod = operators.moderator();
    User alice = kith.register();
    User bob = kith.register();
    long post = kith.publish(bob, "buy my stuff");
    long report = kith.post("/reports", alice, new JsonObject().put("target", new JsonObject().put("type", "post")
        .put("id", post)).put("category", "spam")).expect(201).getLong("id");
    JsonObject decided = kith.post("/admin/reports/" + report + "/decision", mod, new JsonObject()
        .put("decision", "limit").put("reason", "spam run")).expect(200);
    assertEquals("actioned", decided.getString("state"));
    assertFalse(latest(alice).contains(post));
    JsonObject told = kith.awaitPage("/notifications?types=account_limited", bob, "the limit's notification",
        p -> !p.getJsonArray("items").isEmpty()).getJsonArray("items").getJsonObject(0);
    assertEquals("spam run", told.getString("reason"));

    long sanction = decided.getJsonObject("decision").getLong("sanction_id");
    JsonObject appeal = kith.post("/appeals", bob, new JsonObject().put("decision_id", sanction)
        .put("text", "it was one post")).expect(201);
    String path = "/admin/appeals/" + appeal.getLong("id") + "/decision";
    JsonObject overturn = new JsonObject().put("decision", "overturn").put("reason", "too harsh");
    kith.post(path, mod, overturn).problem(403, "same_moderator");
    assertEquals("overturned", kith.post(path, admin, overturn).expect(200).getString("state"));
    assertTrue(latest(alice).contains(post), "the overturn ended the limit");
  }

  @Test
  @DisplayName("limit refusals: a moderator cannot limit a moderator (operator_protected), nobody limits themselves, "
      + "an unknown user is 404, a bad until or a missing reason is 400")
  void refusals() {
    User mod = operators.moderator();
    User other = operators.moderator();
    User bob = kith.register();
    kith.post("/admin/users/" + other.path() + "/limit", mod, new JsonObject().put("reason", "x"))
        .problem(403, "operator_protected");
    kith.post("/admin/users/" + mod.path() + "/limit", mod, new JsonObject().put("reason", "x"))
        .problem(400, "validation_failed");
    kith.post("/admin/users/" + (bob.id() + 1_000_000_000L) + "/limit", mod, new JsonObject().put("reason", "x"))
        .problem(404, "user_not_found");
    kith.post("/admin/users/" + bob.path() + "/limit", mod, new JsonObject().put("reason", "x").put("until", -5))
        .problem(400, "validation_failed");
    kith.post("/admin/users/" + bob.path() + "/limit", mod, new JsonObject()).problem(400, "validation_failed");
    kith.post("/admin/users/" + bob.path() + "/unlimit", kith.register(), new JsonObject().put("reason", "x"))
        .problem(403, "role_required");
  }

  @Test
  @DisplayName("the limit and unlimit sanctions and a report decided with limit carry only members the document "
      + "declares, of the declared types")
  void conforms() {
    Conformance contract = Conformance.load();
    List<String> problems = new ArrayList<>();
    User mod = operators.moderator();
    User alice = kith.register();
    User bob = kith.register();
    long post = kith.publish(bob, "conformance");
    long report = kith.post("/reports", alice, new JsonObject().put("target", new JsonObject().put("type", "post")
        .put("id", post)).put("category", "spam")).expect(201).getLong("id");
    problems.addAll(contract.problems("decideReport", 200, kith.post("/admin/reports/" + report + "/decision", mod,
        new JsonObject().put("decision", "limit").put("reason", "r").put("until", Long.MAX_VALUE / 4)).expect(200)));
    problems.addAll(contract.problems("limitUser", 200, kith.post("/admin/users/" + alice.path() + "/limit", mod,
        new JsonObject().put("reason", "r")).expect(200)));
    problems.addAll(contract.problems("unlimitUser", 200, kith.post("/admin/users/" + alice.path() + "/unlimit",
        mod, new JsonObject().put("reason", "r")).expect(200)));
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }
}
