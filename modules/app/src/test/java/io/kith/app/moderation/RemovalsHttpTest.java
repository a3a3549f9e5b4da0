package io.kith.app.moderation;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.moderation.api.ModerationEvents;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.EventRecorder;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Content removal over HTTP: remove_content on posts, comments, messages, groups and activities, and "
    + "the moderators' view of content by id")
class RemovalsHttpTest {

  private static final String[] MODULES =
      {"accounts", "relations", "feeds", "messaging", "activities", "notifications", "moderation", "gateway"};
  private static final long HOUR = 3_600_000L;
  private static final Duration WAIT = Duration.ofSeconds(60);

  private TestKith kith;
  private User moderator;

  @BeforeAll
  void start() {
    OperatorKith operators = OperatorKith.start(MODULES, new JsonObject());
    kith = operators.kith();
    moderator = operators.moderator();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** {@code reporter} reports the target; answers the report id. */
  private long report(User reporter, String type, long id) {
    return kith.post("/reports", reporter, new JsonObject().put("target", new JsonObject().put("type", type)
        .put("id", id)).put("category", "hate")).expect(201).getLong("id");
  }

  private JsonObject remove(long reportId) {
    JsonObject decided = kith.post("/admin/reports/" + reportId + "/decision", moderator, new JsonObject()
        .put("decision", "remove_content").put("reason", "breaks the rules")).expect(200);
    assertEquals("actioned", decided.getString("state"));
    return decided;
  }

  /** The content as the moderator reads it by id. */
  private JsonObject reviewed(String type, long id) {
    JsonObject found = kith.get("/admin/content/" + type + "/" + id, moderator).expect(200);
    assertEquals(id, found.getJsonObject("content").getLong("id"));
    return found;
  }

  /** Waits until the recorder saw a moderation event matching {@code test}; returns its payload. */
  private JsonObject awaitEvent(EventRecorder events, String what, Predicate<DomainEvent> test) {
    Await.result(Poll.until(kith.client(), WAIT, what, () -> Future.succeededFuture(!events.matching(test).isEmpty())));
    return events.matching(test).get(0).payload();
  }

  private static JsonObject counts(JsonObject post) {
    return post.getJsonObject("counts");
  }

  @Test
  @DisplayName("a removed post is 404 to its author and everyone (ContentRemoved names it and its author), leaves "
      + "followers' home timelines, shows as removed in reposts; a removed repost leaves its original's counters exact; moderators still read it")
  void post() throws Exception {
    User bob = kith.register();
    User alice = kith.register();
    User carol = kith.register();
    User dave = kith.register();
    kith.follow(alice, bob);
    long post = kith.publish(bob, "hateful words");
    long repost = kith.post("/posts/" + post + "/reposts", carol, new JsonObject()).expect(201).getLong("id");
    kith.awaitPage("/timelines/home", alice, "the post in alice's home", p -> TestKith.ids(p).contains(post));
    long reportId = report(dave, "post", post);

    EventRecorder events = new EventRecorder(kith.kith().platform(), ModerationEvents.DOMAIN) {
    };
    JsonObject decided;
    try (events) {
      events.start();
      decided = remove(reportId);
      JsonObject removed = awaitEvent(events, "ContentRemoved of post " + post, e ->
          ModerationEvents.CONTENT_REMOVED.equals(e.type()) && e.payload().getLong("target_id") == post);
      assertEquals(new JsonObject().put("target_type", "post").put("target_id", post).put("owner", bob.id())
          .put("report_id", reportId), removed);
    }
    assertEquals("remove_content", decided.getJsonObject("decision").getString("decision"));
    kith.get("/posts/" + post, bob).problem(404, "post_not_found");
    kith.get("/posts/" + post, alice).problem(404, "post_not_found");
    kith.get("/posts/" + post + "/comments", alice).problem(404, "post_not_found");
    kith.awaitPage("/timelines/home", alice, "the post gone from alice's home", p -> !TestKith.ids(p).contains(post));
    assertFalse(TestKith.ids(kith.get("/users/" + bob.path() + "/posts", alice).expect(200)).contains(post));
    assertEquals("removed", kith.get("/posts/" + repost, alice).expect(200).getJsonObject("repost_of")
        .getString("state"));
    // gone for reporters too: a new report on it is as on a missing post
    kith.post("/reports", alice, new JsonObject().put("target", new JsonObject().put("type", "post").put("id", post))
        .put("category", "spam")).problem(404, "target_not_found");

    JsonObject review = reviewed("post", post);
    assertEquals("hateful words", review.getJsonObject("content").getString("text"));
    assertEquals(reportId, review.getJsonObject("content").getJsonObject("removed").getLong("report_id"));
    assertEquals(1, review.getLong("reports"));

    // a removed repost: the original counts its live reposts only
    long original = kith.publish(bob, "fine words");
    long badRepost = kith.post("/posts/" + original + "/reposts", carol, new JsonObject().put("text", "slur"))
        .expect(201).getLong("id");
    assertEquals(1, counts(kith.get("/posts/" + original, bob).expect(200)).getLong("reposts"));
    remove(report(dave, "post", badRepost));
    JsonObject after = counts(kith.get("/posts/" + original, bob).expect(200));
    assertEquals(0, after.getLong("reposts"));
    assertEquals(1, after.getLong("reposts_total"));
    kith.get("/posts/" + badRepost, carol).problem(404, "post_not_found");
  }

  @Test
  @DisplayName("a removed comment leaves its post's comment list and count; a reply to it shows a removed parent; "
      + "a comment on a post the reporter cannot see is not reportable")
  void comment() {
    User bob = kith.register();
    User alice = kith.register();
    User dave = kith.register();
    User stranger = kith.register();
    long post = kith.publish(bob, "a post");
    long hidden = kith.publish(bob, "only me", "private").getLong("id");
    long bad = kith.post("/posts/" + post + "/comments", alice, new JsonObject().put("text", "insult")).expect(201)
        .getLong("id");
    long reply = kith.post("/posts/" + post + "/comments", dave, new JsonObject().put("text", "rude!")
        .put("reply_to", bad)).expect(201).getLong("id");
    long mine = kith.post("/posts/" + hidden + "/comments", bob, new JsonObject().put("text", "note")).expect(201)
        .getLong("id");
    kith.post("/reports", stranger, new JsonObject().put("target", new JsonObject().put("type", "comment")
        .put("id", mine)).put("category", "spam")).problem(404, "target_not_found");

    remove(report(dave, "comment", bad));
    JsonObject comments = kith.get("/posts/" + post + "/comments", bob).expect(200);
    assertEquals(List.of(reply), TestKith.ids(comments));
    JsonObject parent = TestKith.item(comments, reply).getJsonObject("reply_to");
    assertEquals(bad, parent.getLong("id"));
    assertTrue(parent.getBoolean("removed"));
    assertNull(parent.getValue("author"));
    assertEquals(1, counts(kith.get("/posts/" + post, bob).expect(200)).getLong("comments"));
    kith.post("/posts/" + post + "/comments", bob, new JsonObject().put("text", "re").put("reply_to", bad))
        .problem(404, "comment_not_found");
    assertEquals("insult", reviewed("comment", bad).getJsonObject("content").getString("text"));
  }

  @Test
  @DisplayName("a removed message keeps its seq in the conversation's history as {id, seq, removed} with no text; "
      + "only a member of the conversation may report a message")
  void message() {
    User alice = kith.register();
    User bob = kith.register();
    User stranger = kith.register();
    long[] ids = new long[3];
    long conversation = 0;
    for (int i = 0; i < 3; i++) {
      JsonObject m = kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject()
          .put("client_id", "rm-" + i).put("text", "text " + i)).expect(201).getJsonObject("message");
      ids[i] = m.getLong("id");
      conversation = m.getLong("conversation");
    }
    kith.post("/reports", stranger, new JsonObject().put("target", new JsonObject().put("type", "message")
        .put("id", ids[1])).put("category", "spam")).problem(404, "target_not_found");

    remove(report(bob, "message", ids[1]));
    for (User member : List.of(alice, bob)) {
      JsonArray items = kith.get("/conversations/" + conversation + "/messages", member).expect(200)
          .getJsonArray("items");
      assertEquals(List.of(1L, 2L, 3L), items.stream().map(m -> ((JsonObject) m).getLong("seq")).toList());
      JsonObject removed = items.getJsonObject(1);
      assertEquals(ids[1], removed.getLong("id"));
      assertTrue(removed.getBoolean("removed"));
      assertNull(removed.getValue("text"));
      assertEquals("text 2", items.getJsonObject(2).getString("text"));
    }
    assertEquals("text 1", reviewed("message", ids[1]).getJsonObject("content").getJsonObject("removal")
        .getString("text"));
  }

  @Test
  @DisplayName("a removed group is gone for its owner and members; a removed activity is gone for everyone and its "
      + "participants are told it is cancelled; moderators read both")
  void groupAndActivity() {
    User alice = kith.register();
    User bob = kith.register();
    long group = kith.post("/groups", alice, new JsonObject().put("kind", "topic").put("name", "Bad club")
        .put("topic", "hate")).expect(201).getLong("id");
    kith.post("/groups/" + group + "/join", bob, null).expect(200);
    remove(report(bob, "group", group));
    kith.get("/groups/" + group, bob).problem(404, "group_not_found");
    kith.get("/groups/" + group, alice).problem(404, "group_not_found");
    assertEquals("Bad club", reviewed("group", group).getJsonObject("content").getString("name"));

    long start = System.currentTimeMillis() + 24 * HOUR;
    long activity = kith.post("/activities", alice, new JsonObject().put("title", "Bad meetup").put("start", start)
        .put("end", start + HOUR).put("place", new JsonObject().put("name", "Somewhere"))).expect(201).getLong("id");
    kith.put("/activities/" + activity + "/participation", bob, null).expect(200);
    remove(report(bob, "activity", activity));
    kith.get("/activities/" + activity, bob).problem(404, "activity_not_found");
    kith.get("/activities/" + activity, alice).problem(404, "activity_not_found");
    kith.awaitPage("/notifications?types=activity_cancelled", bob, "bob told the activity is cancelled",
        p -> p.getJsonArray("items").stream().anyMatch(n -> ((JsonObject) n).getLong("activity", 0L) == activity));
    assertEquals("Bad meetup", reviewed("activity", activity).getJsonObject("content").getString("title"));
  }

  @Test
  @DisplayName("refusals: remove_content on a user report is 400 naming decision, deciding twice is 409, a plain user "
      + "cannot read content by id (403), a missing or unknown kind of content is 404 or 400")
  void refusals() {
    User bob = kith.register();
    User dave = kith.register();
    long onUser = report(dave, "user", bob.id());
    kith.post("/admin/reports/" + onUser + "/decision", moderator, new JsonObject().put("decision", "remove_content")
        .put("reason", "no")).problem(400, "validation_failed", "decision");
    assertEquals("open", kith.get("/admin/reports/" + onUser, moderator).expect(200).getString("state"));

    long post = kith.publish(bob, "words");
    long reportId = report(dave, "post", post);
    remove(reportId);
    kith.post("/admin/reports/" + reportId + "/decision", moderator, new JsonObject()
        .put("decision", "remove_content").put("reason", "again")).problem(409, "report_closed");
    kith.post("/admin/reports/" + (reportId + 1_000_000) + "/decision", moderator, new JsonObject()
        .put("decision", "remove_content").put("reason", "x")).problem(404, "report_not_found");

    kith.get("/admin/content/post/" + post, bob).problem(403, "role_required");
    kith.get("/admin/content/post/" + post, dave).problem(403, "role_required");
    kith.get("/admin/content/post/" + (post + 1_000_000), moderator).problem(404, "post_not_found");
    kith.get("/admin/content/user/" + bob.id(), moderator).problem(400, "validation_failed");
    assertEquals(0, reviewed("post", kith.publish(bob, "never reported")).getLong("reports"));
  }
}
