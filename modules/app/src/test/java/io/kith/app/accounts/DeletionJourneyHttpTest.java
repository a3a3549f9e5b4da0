package io.kith.app.accounts;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.events.Erasures;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole journey of a deleted account across every domain (issue 20, "Done when"): a user who posted, commented,
 * liked, reposted, followed, befriended, chatted, owned a group, organised and joined activities, registered a push
 * target, reported a post and was notified deletes their account; once every domain reports its erasure finished, no store holds anything of them beyond the
 * documented markers, and every counter the others see equals a recount of what is listed.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Deleting an account that used every domain")
class DeletionJourneyHttpTest {

  private static final String PASSWORD = "Journey-pass-4417!";
  private static final Duration ERASURE = Duration.ofMinutes(3);
  /** The domains that erase a deleted user's data and report it in account_erasures. */
  private static final List<String> DOMAINS = List.of("relations", "feeds", "messaging", "activities",
      "notifications", "push-targets", "moderation");

  private TestKith kith;

  @BeforeAll
  void start() {
    kith = new TestKith(TestKith.config("accounts", "relations", "feeds", "messaging", "notifications",
            "activities", "push", "moderation", "gateway")
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000).put("deletion-grace-days", 0)
            .put("deletion-sweep-seconds", 1))
        .put("activities", new JsonObject().put("creates-per-hour", 10_000)), "j") {
    };
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private User registerWithPassword() {
    String username = TestKith.unique("jv");
    JsonObject body = kith.post("/accounts", null, new JsonObject().put("username", username)
        .put("password", PASSWORD)).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  private static JsonObject activity(String title) {
    long start = System.currentTimeMillis() + 86_400_000L;
    return new JsonObject().put("title", title).put("start", start).put("end", start + 7_200_000L)
        .put("place", new JsonObject().put("name", "The old mill"));
  }

  @Test
  @DisplayName("after the erasure every domain reports finished, nothing of the user is stored, and the others' "
      + "counters equal what their lists hold")
  void everyDomainForgets() {
    User victim = registerWithPassword();
    User alice = kith.register();
    User bob = kith.register();

    // relations: alice and bob follow the victim, the victim follows alice, the victim and bob are friends
    kith.follow(alice, victim);
    kith.befriend(victim, bob);
    kith.follow(victim, alice);
    kith.put("/me/tags/close/users/" + victim.path(), alice).expectNoContent();

    // feeds: posts, likes, comments, reposts both ways
    long victimPost = kith.publish(victim, "mine");
    long alicePost = kith.publish(alice, "hers");
    kith.put("/posts/" + alicePost + "/like", victim).expect(200);
    kith.put("/posts/" + victimPost + "/like", alice).expect(200);
    kith.post("/posts/" + alicePost + "/comments", victim, new JsonObject().put("text", "nice")).expect(201);
    kith.post("/posts/" + victimPost + "/comments", bob, new JsonObject().put("text", "yours")).expect(201);
    kith.post("/posts/" + alicePost + "/reposts", victim, new JsonObject()).expect(201);
    long bobRepost = kith.post("/posts/" + victimPost + "/reposts", bob, new JsonObject()).expect(201).getLong("id");

    // messaging: a direct chat both ways, and a group the victim owns with alice in it
    long conversation = kith.post("/direct/" + alice.path() + "/messages", victim, new JsonObject().put("text", "hi")
        .put("client_id", "j1")).expect(201).getJsonObject("message").getLong("conversation");
    kith.post("/direct/" + victim.path() + "/messages", alice, new JsonObject().put("text", "hello")
        .put("client_id", "j2")).expect(201);
    long group = kith.post("/groups", victim, new JsonObject().put("kind", "topic").put("name", "Victim's")
        .put("topic", TestKith.unique("jt")))
        .expect(201).getLong("id");
    kith.post("/groups/" + group + "/join", alice, null).expect(200);

    // activities: the victim organises one bob joins, and joins one of alice's
    long victimActivity = kith.post("/activities", victim, activity("Victim's walk")).expect(201).getLong("id");
    kith.put("/activities/" + victimActivity + "/participation", bob).expect(200);
    long aliceActivity = kith.post("/activities", alice, activity("Alice's walk")).expect(201).getLong("id");
    kith.put("/activities/" + aliceActivity + "/participation", victim).expect(200);

    // push: the victim's phone takes pushes
    kith.post("/me/push-targets", victim, new JsonObject().put("kind", "fcm").put("token", TestKith.unique("fcm")))
        .expect(201);

    // moderation: the victim reports alice's post (kept for the moderators, without reporter or comment)
    kith.post("/reports", victim, new JsonObject().put("target", new JsonObject().put("type", "post")
        .put("id", alicePost)).put("category", "spam").put("comment", "the victim's words")).expect(201);

    // notifications: alice was notified of the victim's like, comment, follow; the victim of alice's
    kith.awaitPage("/notifications?from_user=" + victim.id(), alice, "alice's notifications from the victim",
        page -> page.getJsonArray("items").size() >= 2);

    assertFullExport(victim);

    kith.call(io.vertx.core.http.HttpMethod.DELETE, TestKith.API + "/me", victim.access(),
        new JsonObject().put("password", PASSWORD)).expect(200);
    awaitEveryDomainFinished(victim.id());

    // the others' view: gone, or the documented markers
    kith.get("/users/" + victim.path(), alice).problem(404, "user_not_found");
    kith.get("/posts/" + victimPost, alice).problem(404, "post_not_found");
    JsonObject repost = kith.get("/posts/" + bobRepost, bob).expect(200);
    assertEquals("deleted", repost.getJsonObject("repost_of").getString("state"), repost.encode());
    JsonObject chat = kith.get("/conversations/" + conversation, alice).expect(200);
    assertTrue(chat.getJsonObject("peer").getBoolean("deleted", false), chat.encode());
    List<Long> senders = new ArrayList<>();
    for (Object m : kith.get("/conversations/" + conversation + "/messages?limit=100", alice).expect(200)
        .getJsonArray("items")) {
      senders.add(((JsonObject) m).getLong("sender"));
    }
    assertEquals(List.of(alice.id()), senders, "only alice's own message stays");
    JsonObject passed = kith.get("/groups/" + group, alice).expect(200);
    assertEquals(alice.id(), passed.getLong("owner"), "the group passed to its remaining member");
    assertEquals(1, passed.getInteger("member_count"));
    // the victim's activity was cancelled with notice, then erased with its organiser
    kith.get("/activities/" + victimActivity, bob).problem(404, "activity_not_found");
    kith.awaitPage("/notifications?types=activity_cancelled", bob, "bob told of the cancellation",
        page -> !page.getJsonArray("items").isEmpty());
    assertEquals(List.of(), kith.awaitPage("/notifications?from_user=" + victim.id(), alice,
        "no notification from the victim", page -> page.getJsonArray("items").isEmpty()).getJsonArray("items")
        .getList());

    assertCountersEqualLists(alice, bob, alicePost, aliceActivity);
    assertNothingStored(victim.id());
  }

  /** Before leaving, the user exports everything: every domain's part is in the archive. */
  private void assertFullExport(User user) {
    long id = kith.post("/me/export", user, null).expect(202).getLong("export_id");
    kith.awaitPage("/me/exports/" + id, user, "the export ready", s -> "ready".equals(s.getString("state")));
    java.util.Map<String, String> zip = new java.util.HashMap<>();
    try (java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(
        kith.get("/me/exports/" + id + "/download", user).body().getBytes()))) {
      for (java.util.zip.ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        zip.put(e.getName(), new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    JsonObject domains = new JsonObject(zip.get("manifest.json")).getJsonObject("domains");
    assertEquals(new TreeSet<>(io.kith.platform.events.Exports.DOMAINS), new TreeSet<>(domains.fieldNames()));
    for (String file : List.of("accounts/profile.json", "relations/following.json", "relations/followers.json",
        "feeds/posts.json", "feeds/likes.json", "feeds/comments.json", "messaging/messages.json",
        "messaging/groups.json", "activities/activities.json", "activities/joined.json", "push/targets.json",
        "push/preferences.json", "moderation/reports.json")) {
      assertTrue(zip.containsKey(file), file + " missing from " + new TreeSet<>(zip.keySet()));
      assertFalse(new JsonArray(zip.get(file)).isEmpty(), file + " is empty");
    }
  }

  /** Polls until accounts' tombstone and every domain's report say the erasure finished. */
  private void awaitEveryDomainFinished(long user) {
    MongoClient mongo = kith.kith().platform().mongo();
    Erasures erasures = new Erasures(mongo);
    Await.result(Poll.until(kith.client(), ERASURE, "every domain's erasure of " + user, () -> {
      List<Future<JsonObject>> reports = new ArrayList<>();
      for (String domain : DOMAINS) {
        reports.add(erasures.report(domain, user));
      }
      Future<JsonObject> account = mongo.findOne("accounts", new JsonObject().put("_id", user), null);
      return Future.all(account, Future.all(reports)).map(all -> {
        JsonObject tombstone = account.result();
        if (tombstone == null || !"erased".equals(tombstone.getJsonObject("deletion", new JsonObject())
            .getString("state"))) {
          return false;
        }
        return reports.stream().allMatch(r -> r.result() != null && r.result().getLong("finished_at") != null);
      });
    }));
  }

  /** Every count alice and bob are shown equals the number of items the matching list holds. */
  private void assertCountersEqualLists(User alice, User bob, long alicePost, long aliceActivity) {
    for (User u : List.of(alice, bob)) {
      JsonObject counts = kith.get("/users/" + u.path() + "/counts", u).expect(200);
      assertEquals(counts.getLong("follower_count").longValue(),
          (long) kith.allIds("/users/" + u.path() + "/followers", u, 50).size(), counts.encode());
      assertEquals(counts.getLong("following_count").longValue(),
          (long) kith.allIds("/users/" + u.path() + "/following", u, 50).size(), counts.encode());
      assertEquals(counts.getLong("friend_count").longValue(), (long) kith.allIds("/me/friends", u, 50).size(),
          counts.encode());
    }
    assertEquals(0L, kith.get("/users/" + bob.path() + "/counts", bob).expect(200).getLong("friend_count"),
        "bob's one friend was the victim");
    JsonObject post = kith.get("/posts/" + alicePost, alice).expect(200);
    JsonObject postCounts = post.getJsonObject("counts");
    assertEquals(postCounts.getLong("likes").longValue(),
        (long) kith.allIds("/posts/" + alicePost + "/likes", alice, 50).size(), post.encode());
    assertEquals(postCounts.getLong("comments").longValue(),
        (long) kith.allIds("/posts/" + alicePost + "/comments", alice, 50).size(), post.encode());
    assertEquals(postCounts.getLong("reposts").longValue(),
        (long) kith.allIds("/posts/" + alicePost + "/reposts", alice, 50).size(), post.encode());
    assertEquals(0L, postCounts.getLong("likes"), "the victim's like went");
    JsonObject act = kith.get("/activities/" + aliceActivity, alice).expect(200);
    assertEquals(act.getLong("participant_count").longValue(),
        (long) kith.allIds("/activities/" + aliceActivity + "/participants", alice, 50).size(), act.encode());
    for (User u : List.of(alice, bob)) {
      JsonObject unread = kith.get("/notifications/unread-counts", u).expect(200);
      assertEquals(unread.getLong("total").longValue(),
          (long) kith.allIds("/notifications?unread=true", u, 50).size(), unread.encode());
    }
  }

  /**
   * No MongoDB document and no Redis key holds the user's id, apart from the documented ones: accounts' tombstone
   * (it reserves the username), the erasure reports, and what messaging keeps for the other side of a direct
   * conversation ({@link #isDeletedPeerMarker}).
   * Event streams are logs trimmed by length and are not scanned.
   */
  private void assertNothingStored(long user) {
    MongoClient mongo = kith.kith().platform().mongo();
    Map<String, Set<String>> allowed = Map.of(
        "accounts", Set.of(Long.toString(user)),
        Erasures.COLLECTION, Set.of());
    List<String> found = new ArrayList<>();
    for (String collection : Await.result(mongo.getCollections())) {
      for (JsonObject doc : Await.result(mongo.find(collection, new JsonObject()))) {
        if (!mentions(doc, user)) {
          continue;
        }
        String id = String.valueOf(doc.getValue("_id"));
        Set<String> exceptions = allowed.get(collection);
        boolean documented = exceptions != null && (exceptions.isEmpty() || exceptions.contains(id))
            || isDeletedPeerMarker(collection, doc, user);
        if (!documented) {
          found.add(collection + ": " + doc.encode());
        }
      }
    }
    assertEquals(List.of(), found, "documents still holding user " + user);

    List<String> keys = new ArrayList<>();
    String cursor = "0";
    do {
      Response page = Await.result(kith.kith().platform().redis().send(Request.cmd(Command.SCAN).arg(cursor)
          .arg("MATCH").arg("*" + user + "*").arg("COUNT").arg("1000")));
      cursor = page.get(0).toString();
      for (Response key : page.get(1)) {
        keys.add(key.toString());
      }
    } while (!"0".equals(cursor));
    List<String> left = new ArrayList<>();
    for (String key : new TreeSet<>(keys)) {
      String type = Await.result(kith.kith().platform().redis().send(Request.cmd(Command.TYPE).arg(key))).toString();
      if (!"stream".equals(type)) {
        left.add(key + " (" + type + ")");
      }
    }
    assertEquals(List.of(), left, "Redis keys still naming user " + user);
  }

  /**
   * What messaging keeps for the other side of a direct conversation with an erased user (messaging README, "Account
   * erasure"): the conversation marked {@code erased} with the user's id, the other side's member document naming
   * its peer, and the other side's own messages addressed to the user. Nothing the erased user wrote or owns.
   */
  private static boolean isDeletedPeerMarker(String collection, JsonObject doc, long user) {
    return switch (collection) {
      case "messaging_conversations" -> "direct".equals(doc.getString("kind"))
          && doc.getJsonArray("erased", new JsonArray()).contains(user)
          && !Long.valueOf(user).equals(doc.getJsonObject("last_message", new JsonObject()).getLong("sender"));
      case "messaging_members" -> doc.getLong("user", 0L) != user && doc.getLong("peer", 0L) == user;
      case "messaging_messages" -> doc.getLong("sender", 0L) != user && doc.getLong("to", 0L) == user;
      default -> false;
    };
  }

  private static boolean mentions(Object value, long user) {
    if (value instanceof JsonObject o) {
      for (Map.Entry<String, Object> e : o) {
        if (mentions(e.getValue(), user)) {
          return true;
        }
      }
      return false;
    }
    if (value instanceof JsonArray a) {
      for (Object v : a) {
        if (mentions(v, user)) {
          return true;
        }
      }
      return false;
    }
    if (value instanceof Number n) {
      return n.longValue() == user;
    }
    if (value instanceof String s) {
      return s.equals(Long.toString(user)) || s.contains(":" + user) || s.contains("{u:" + user + "}");
    }
    return false;
  }
}
