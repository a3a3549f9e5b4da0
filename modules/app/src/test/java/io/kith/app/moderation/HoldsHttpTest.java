package io.kith.app.moderation;

import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Filter actions hold and hide over HTTP: held posts and comments wait for a moderator in the queue, "
    + "and readers may hide filtered content from their timelines and comment lists")
class HoldsHttpTest {

  private static final String LATEST = "/timelines/latest?limit=100";

  private TestKith kith;
  private User admin;
  private User mod;
  private AddedFilters filters;

  @BeforeAll
  void start() {
    // notifications too: a released post's mentions are told
    OperatorKith operators = OperatorKith.start(OperatorKith.WITH_NOTIFICATIONS, new JsonObject());
    kith = operators.kith();
    admin = operators.admin();
    mod = operators.moderator();
    filters = new AddedFilters(kith, admin);
  }

  @AfterAll
  void stop() {
    if (filters != null) {
      filters.removeAll();
    }
    if (kith != null) {
      kith.close();
    }
  }

  private static String word() {
    return AddedFilters.word("held");
  }

  /**
   * Adds a hold filter of {@code word} (posts, comments, messages and nicknames) and waits until this node applies it.
   */
  private void hold(String word, String category) {
    filters.add(new JsonObject().put("kind", "word").put("value", word).put("action", "hold").put("category", category)
        .put("contexts", new JsonArray().add("post").add("comment").add("message").add("nickname")));
    User probe = kith.register();
    long deadline = System.currentTimeMillis() + 30_000;
    int status;
    do {
      // where nothing waits for review (a nickname) a hold refuses
      status = kith.patch("/me", probe, new JsonObject().put("nickname", "probe " + word)).status();
    } while (status != 422 && System.currentTimeMillis() < deadline);
    assertEquals(422, status, "the nickname probe after adding the hold filter");
  }

  /** The open reports on a target, as the queue lists them (filed by the system after the hold). */
  private JsonObject awaitReport(String type, long id) {
    return kith.awaitPage("/admin/reports?state=open&target_type=" + type + "&target_id=" + id, mod,
        "the system's report on the held " + type, p -> !p.getJsonArray("items").isEmpty())
        .getJsonArray("items").getJsonObject(0);
  }

  private JsonObject decide(long report, String decision) {
    return kith.post("/admin/reports/" + report + "/decision", mod, new JsonObject().put("decision", decision)
        .put("reason", "reviewed")).expect(200);
  }

  @Test
  @DisplayName("a post a hold filter matches is stored but shown only to its author (404 to others, off the latest "
      + "timeline and their posts, no edit: 409 post_held), while a message it matches is refused; the system's report waits in the queue with the filter's "
      + "category; dismissing it releases the post to everyone")
  void heldPostReleased() {
    String w = word();
    hold(w, "spam");
    User bob = kith.register();
    User carol = kith.register();
    kith.follow(carol, bob);
    JsonObject held = kith.publish(bob, "great deals " + w, "public");
    long post = held.getLong("id");
    assertTrue(held.getBoolean("held", false), held.encode());
    assertEquals("public", held.getString("visibility"), "shown with the visibility it will have");
    kith.get("/posts/" + post, bob).expect(200);
    kith.get("/posts/" + post, carol).problem(404, "post_not_found");
    assertFalse(TestKith.ids(kith.get(LATEST, carol).expect(200)).contains(post));
    assertFalse(TestKith.ids(kith.get("/users/" + bob.id() + "/posts", carol).expect(200)).contains(post));
    assertTrue(TestKith.ids(kith.get("/users/" + bob.id() + "/posts", bob).expect(200)).contains(post));
    kith.patch("/posts/" + post, bob, new JsonObject().put("text", "something else")).problem(409, "post_held");
    // a direct message has no review to wait for: a hold refuses it
    kith.post("/direct/" + carol.path() + "/messages", bob, new JsonObject().put("client_id", "h1")
        .put("text", "psst " + w)).problem(422, "content_refused", "text");

    JsonObject report = awaitReport("post", post);
    assertEquals("spam", report.getString("category"));
    assertEquals(bob.id(), report.getLong("target_owner"));
    decide(report.getLong("id"), "dismiss");
    JsonObject released = kith.get("/posts/" + post, carol).expect(200);
    assertFalse(released.containsKey("held"), released.encode());
    assertTrue(TestKith.ids(kith.get(LATEST, carol).expect(200)).contains(post));
    kith.awaitPage("/timelines/home", carol, "the released post spread to a follower's home timeline",
        p -> TestKith.ids(p).contains(post));
  }

  @Test
  @DisplayName("a comment a hold filter matches is listed for its author only and not counted; remove_content on "
      + "the system's report removes it; a post of a filter-free text is not held")
  void heldCommentRemoved() {
    String w = word();
    hold(w, "other");
    User alice = kith.register();
    User bob = kith.register();
    long post = kith.publish(alice, "an ordinary post");
    JsonObject comment = kith.post("/posts/" + post + "/comments", bob, new JsonObject().put("text", "see " + w))
        .expect(201);
    long id = comment.getLong("id");
    assertTrue(comment.getBoolean("held", false), comment.encode());
    assertTrue(TestKith.ids(kith.get("/posts/" + post + "/comments", bob).expect(200)).contains(id));
    assertFalse(TestKith.ids(kith.get("/posts/" + post + "/comments", alice).expect(200)).contains(id));
    assertEquals(0L, kith.get("/posts/" + post, alice).expect(200).getJsonObject("counts").getLong("comments"));

    JsonObject report = awaitReport("comment", id);
    assertEquals("other", report.getString("category"));
    assertEquals("actioned", decide(report.getLong("id"), "remove_content").getString("state"));
    assertFalse(TestKith.ids(kith.get("/posts/" + post + "/comments", bob).expect(200)).contains(id));
    assertFalse(kith.publish(bob, "nothing to hold here", "public").containsKey("held"));
  }

  @Test
  @DisplayName("a held post its author deleted leaves its report to be dismissed all the same (nothing to release); "
      + "a decided hold report is 409 report_closed")
  void heldThenDeleted() {
    String w = word();
    hold(w, "other");
    User bob = kith.register();
    long post = kith.publish(bob, "oops " + w, "public").getLong("id");
    JsonObject report = awaitReport("post", post);
    kith.delete("/posts/" + post, bob).expectNoContent();
    assertEquals("dismissed", decide(report.getLong("id"), "dismiss").getString("state"));
    kith.post("/admin/reports/" + report.getLong("id") + "/decision", mod, new JsonObject()
        .put("decision", "dismiss").put("reason", "again")).problem(409, "report_closed");
  }

  @Test
  @DisplayName("a reader with hide_filtered on does not see posts and comments a hide filter matches on the latest "
      + "timeline and in comment lists (their own stay); with it off they do; a hide filter refuses nothing")
  void hideFiltered() {
    String w = word();
    User reader = kith.register();
    User other = kith.register();
    User bob = kith.register();
    filters.add(new JsonObject().put("kind", "word").put("value", w).put("action", "hide")
        .put("contexts", new JsonArray().add("post").add("comment")));
    long clean = kith.publish(bob, "a clean post");
    long matching = kith.publish(bob, "spoilers " + w);
    long comment = kith.post("/posts/" + clean + "/comments", bob, new JsonObject().put("text", "more " + w))
        .expect(201).getLong("id");
    long own = kith.publish(reader, "my own " + w);
    JsonObject on = kith.patch("/me", reader, new JsonObject().put("settings", new JsonObject()
        .put("hide_filtered", true))).expect(200);
    assertTrue(on.getJsonObject("settings").getBoolean("hide_filtered"));

    JsonObject page = kith.awaitPage(LATEST, reader, "the matching post hidden from the reader",
        p -> !TestKith.ids(p).contains(matching));
    assertTrue(TestKith.ids(page).contains(clean));
    assertTrue(TestKith.ids(page).contains(own), "the reader's own post stays");
    assertFalse(TestKith.ids(kith.get("/posts/" + clean + "/comments", reader).expect(200)).contains(comment));
    assertTrue(TestKith.ids(kith.get(LATEST, other).expect(200)).contains(matching), "others still see it");
    assertTrue(TestKith.ids(kith.get("/posts/" + clean + "/comments", other).expect(200)).contains(comment));

    kith.patch("/me", reader, new JsonObject().put("settings", new JsonObject().put("hide_filtered", false)))
        .expect(200);
    assertTrue(TestKith.ids(kith.get(LATEST, reader).expect(200)).contains(matching));
    assertTrue(TestKith.ids(kith.get("/posts/" + clean + "/comments", reader).expect(200)).contains(comment));
  }

  /** {@code author}'s public post of {@code text} mentioning {@code mentioned}; returns its view. */
  private JsonObject mentioning(User author, String text, User mentioned) {
    return kith.post("/posts", author, new JsonObject().put("text", text).put("visibility", "public")
        .put("mentions", new JsonArray().add(mentioned.id()))).expect(201);
  }

  /** The posts of {@code user}'s mention notifications. */
  private List<Long> mentionedIn(User user) {
    return kith.get("/notifications?types=mention&limit=100", user).expect(200).getJsonArray("items").stream()
        .map(n -> ((JsonObject) n).getLong("post")).toList();
  }

  @Test
  @DisplayName("a held post's mentioned user is told nothing while it is held, nothing when it is removed, and gets "
      + "the mention notification when a moderator releases it")
  void heldMentions() {
    String w = word();
    hold(w, "other");
    User bob = kith.register();
    User carol = kith.register();
    JsonObject released = mentioning(bob, "hey you " + w, carol);
    JsonObject removed = mentioning(bob, "and you " + w, carol);
    assertTrue(released.getBoolean("held", false) && removed.getBoolean("held", false), released.encode());
    long toRelease = released.getLong("id");
    long toRemove = removed.getLong("id");
    JsonObject releaseReport = awaitReport("post", toRelease);
    JsonObject removeReport = awaitReport("post", toRemove);
    // a clean post published after the held ones: once its mention is told, theirs would have been told too
    long clean = mentioning(bob, "nothing to hold", carol).getLong("id");
    kith.awaitPage("/notifications?types=mention&post=" + clean, carol, "the clean post's mention told",
        p -> !p.getJsonArray("items").isEmpty());
    List<Long> told = mentionedIn(carol);
    assertFalse(told.contains(toRelease) || told.contains(toRemove), "held posts' mentions are not told: " + told);

    decide(removeReport.getLong("id"), "remove_content");
    decide(releaseReport.getLong("id"), "dismiss");
    JsonObject mention = kith.awaitPage("/notifications?types=mention&post=" + toRelease, carol,
        "the released post's mention told", p -> !p.getJsonArray("items").isEmpty())
        .getJsonArray("items").getJsonObject(0);
    assertEquals(bob.id(), mention.getLong("from_user"), mention.encode());
    assertFalse(mentionedIn(carol).contains(toRemove), "a removed held post's mention is never told");
  }

  @Test
  @DisplayName("a reader with hide_filtered on does not see a followed friend's post a hide filter matches on home "
      + "and moments; with it off they do; its author always sees it there")
  void hideFilteredHomeAndMoments() {
    String w = word();
    User reader = kith.register();
    User bob = kith.register();
    kith.befriend(reader, bob);
    filters.add(new JsonObject().put("kind", "word").put("value", w).put("action", "hide")
        .put("contexts", new JsonArray().add("post")));
    long clean = kith.publish(bob, "a clean post");
    long matching = kith.publish(bob, "spoilers " + w);
    List<String> timelines = List.of("/timelines/home?limit=100", "/timelines/moments?limit=100");
    for (String timeline : timelines) {
      kith.awaitPage(timeline, reader, "both posts on the reader's " + timeline + " with hide_filtered off",
          p -> TestKith.ids(p).containsAll(List.of(clean, matching)));
    }
    for (User user : List.of(reader, bob)) {
      kith.patch("/me", user, new JsonObject().put("settings", new JsonObject().put("hide_filtered", true)))
          .expect(200);
    }
    for (String timeline : timelines) {
      JsonObject page = kith.awaitPage(timeline, reader, "the matching post hidden from the reader's " + timeline,
          p -> !TestKith.ids(p).contains(matching));
      assertTrue(TestKith.ids(page).contains(clean), timeline + ": the clean post stays");
      assertTrue(TestKith.ids(kith.get(timeline, bob).expect(200)).contains(matching),
          timeline + ": the author, hide_filtered on too, still sees their own post");
    }
    kith.patch("/me", reader, new JsonObject().put("settings", new JsonObject().put("hide_filtered", false)))
        .expect(200);
    for (String timeline : timelines) {
      assertTrue(TestKith.ids(kith.get(timeline, reader).expect(200)).contains(matching),
          timeline + ": shown again with hide_filtered off");
    }
  }

  @Test
  @DisplayName("filter refusals: an unknown action or category is 400 naming it; a plain user or a moderator cannot "
      + "add a hold filter (403 role_required); hide_filtered must be a boolean")
  void refusals() {
    JsonObject filter = new JsonObject().put("kind", "word").put("value", word()).put("action", "hold");
    kith.post("/admin/filters", admin, filter.copy().put("action", "quarantine"))
        .problem(400, "validation_failed", "action");
    Reply badCategory = kith.post("/admin/filters", admin, filter.copy().put("category", "rude"));
    badCategory.problem(400, "validation_failed", "category");
    kith.post("/admin/filters", mod, filter).problem(403, "role_required");
    kith.post("/admin/filters", kith.register(), filter).problem(403, "role_required");
    kith.patch("/me", kith.register(), new JsonObject().put("settings", new JsonObject().put("hide_filtered", "yes")))
        .problem(400, "validation_failed", "settings.hide_filtered");
  }

  @Test
  @DisplayName("a hold filter, a held post and comment as their author reads them, and the system's report carry "
      + "only members the document declares, of the declared types")
  void conforms() {
    Conformance contract = Conformance.load();
    List<String> problems = new ArrayList<>();
    String w = word();
    hold(w, "hate");
    problems.addAll(contract.problems("listContentFilters", 200, kith.get("/admin/filters", mod).expect(200)));
    User bob = kith.register();
    long clean = kith.publish(bob, "clean");
    JsonObject post = kith.publish(bob, "text with " + w, "followers");
    problems.addAll(contract.problems("publishPost", 201, post));
    problems.addAll(contract.problems("addComment", 201, kith.post("/posts/" + clean + "/comments", bob,
        new JsonObject().put("text", "and " + w)).expect(201)));
    problems.addAll(contract.problems("listComments", 200, kith.get("/posts/" + clean + "/comments", bob)
        .expect(200)));
    awaitReport("post", post.getLong("id"));
    problems.addAll(contract.problems("listModerationReports", 200, kith.get("/admin/reports?target_id="
        + post.getLong("id"), mod).expect(200)));
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }
}
