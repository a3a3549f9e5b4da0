package io.kith.app.moderation;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.app.support.Conformance;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.events.Erasures;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What moderation keeps and erases of a deleted account (issue 20, items 6 and 7; moderation README, "Deleted
 * accounts"), and its part of the account export, over HTTP on a node running every domain a report may name.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Moderation's erasure of a deleted account and its part of the export")
class AccountErasureHttpTest {

  private static final String PASSWORD = "Erased-mod-pass-5521!";
  private static final Duration ERASURE = Duration.ofMinutes(2);

  private OperatorKith ops;
  private TestKith kith;
  private User admin;

  @BeforeAll
  void start() {
    String[] modules = {"accounts", "relations", "feeds", "messaging", "activities", "moderation", "gateway"};
    ops = OperatorKith.start(modules, new JsonObject(), new JsonObject().put("accounts", new JsonObject()
        .put("register-max-per-address", 100_000).put("deletion-grace-days", 0).put("deletion-sweep-seconds", 1)
        // the domains this node runs that a user here has data in
        .put("export-domains", new JsonArray().add("accounts").add("moderation"))));
    kith = ops.kith();
    admin = ops.admin();
  }

  @AfterAll
  void stop() {
    if (ops != null) {
      ops.close();
    }
  }

  private User registerWithPassword() {
    String username = TestKith.unique("me");
    JsonObject body = kith.post("/accounts", null, new JsonObject().put("username", username)
        .put("password", PASSWORD)).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  private long report(User reporter, long post, String comment) {
    return kith.post("/reports", reporter, new JsonObject().put("target", new JsonObject().put("type", "post")
        .put("id", post)).put("category", "spam").put("comment", comment)).expect(201).getLong("id");
  }

  private long sanction(User user, String kind, String reason) {
    return kith.post("/admin/users/" + user.path() + "/" + kind, admin, new JsonObject().put("reason", reason))
        .expect(200).getLong("id");
  }

  private long appeal(User user, long decision, String text) {
    return kith.post("/appeals", user, new JsonObject().put("decision_id", decision).put("text", text))
        .expect(201).getLong("id");
  }

  private JsonObject appealOf(User mod, String state, long id) {
    return TestKith.item(kith.get("/admin/appeals?state=" + state + "&limit=100", mod).expect(200), id);
  }

  private JsonObject erasureReport(long user) {
    return Await.result(new Erasures(kith.kith().platform().mongo()).report("moderation", user));
  }

  private JsonObject awaitErased(long user) {
    Await.result(Poll.until(kith.client(), ERASURE, "moderation's erasure of " + user,
        () -> new Erasures(kith.kith().platform().mongo()).report("moderation", user)
            .map(r -> r != null && r.getLong("finished_at") != null)));
    return erasureReport(user);
  }

  @Test
  @DisplayName("a deleted moderator who reported, was warned and limited and appealed loses the role, their report "
      + "stays open without reporter or comment, their appeals close without text, the sanctions and audit stay, "
      + "and erasing again changes nothing")
  void erasesWhatIsTheUsers() {
    User victim = registerWithPassword();
    User bob = kith.register();
    User mod = ops.moderator();
    long bobPost = kith.publish(bob, "something to report");
    long filed = report(victim, bobPost, "my own words about it");
    long warning = sanction(victim, "warn", "rude");
    long limit = sanction(victim, "limit", "spam");
    long openAppeal = appeal(victim, warning, "I was not rude");
    long decidedAppeal = appeal(victim, limit, "I do not spam");
    kith.post("/admin/appeals/" + decidedAppeal + "/decision", mod, new JsonObject().put("decision", "uphold")
        .put("reason", "it was spam")).expect(200);
    kith.put("/admin/users/" + victim.path() + "/role", admin, new JsonObject().put("role", "moderator")).expect(200);
    assertEquals("moderator", kith.get("/admin/users/" + victim.path(), admin).expect(200).getString("role"));
    int audited = kith.get("/admin/audit?target_id=" + victim.id() + "&limit=100", admin).expect(200)
        .getJsonArray("items").size();
    assertTrue(audited >= 3, "warn, limit and role change audited: " + audited);
    String window = "mod:reports:{u:" + victim.id() + "}";
    assertEquals(1L, exists(window), "the report window is open");

    kith.call(HttpMethod.DELETE, TestKith.API + "/me", victim.access(), new JsonObject().put("password", PASSWORD))
        .expect(200);
    JsonObject erasure = awaitErased(victim.id());

    JsonObject counts = erasure.getJsonObject("counts");
    assertEquals(new JsonArray(List.of("role", "assignments", "reports", "appeals", "rate_limits")),
        erasure.getJsonArray("steps"), erasure.encode());
    assertEquals(1L, counts.getLong("roles"), counts.encode());
    assertEquals(1L, counts.getLong("reports_anonymised"), counts.encode());
    assertEquals(2L, counts.getLong("appeals"), counts.encode());
    JsonObject kept = kith.get("/admin/reports/" + filed, mod).expect(200);
    assertEquals(0L, kept.getLong("reporter"), kept.encode());
    assertEquals("", kept.getString("comment"), kept.encode());
    assertEquals("open", kept.getString("state"), "the reported post is still reviewed: " + kept.encode());
    assertTrue(TestKith.ids(kith.get("/admin/reports?state=open&target_id=" + bobPost, mod).expect(200))
        .contains(filed), "the report stays in the queue");
    JsonObject withdrawn = appealOf(mod, "withdrawn", openAppeal);
    assertNotNull(withdrawn, "the open appeal is withdrawn");
    assertEquals("", withdrawn.getString("text"), withdrawn.encode());
    assertNotNull(withdrawn.getLong("withdrawn_at"), withdrawn.encode());
    kith.post("/admin/appeals/" + openAppeal + "/decision", mod, new JsonObject().put("decision", "overturn")
        .put("reason", "late")).problem(409, "appeal_closed");
    JsonObject upheld = appealOf(mod, "upheld", decidedAppeal);
    assertEquals("", upheld.getString("text"), "a decided appeal keeps its decision, not its text");
    JsonObject record = kith.get("/admin/users/" + victim.path(), admin).expect(200);
    assertEquals("user", record.getString("role"), record.encode());
    assertEquals("gone", record.getString("state"), record.encode());
    assertEquals(new TreeSet<>(List.of(warning, limit)), new TreeSet<>(TestKith.ids(new JsonObject()
        .put("items", record.getJsonArray("sanctions")))), "the sanctions are kept: " + record.encode());
    assertEquals(audited, kith.get("/admin/audit?target_id=" + victim.id() + "&limit=100", admin).expect(200)
        .getJsonArray("items").size(), "the audit log is kept");
    assertEquals(0L, exists(window), "the report window is erased");
    Conformance contract = Conformance.load();
    List<String> problems = new java.util.ArrayList<>(contract.problems("getModerationReport", 200, kept));
    problems.addAll(contract.problems("listAppeals", 200,
        kith.get("/admin/appeals?state=withdrawn&limit=100", mod).expect(200)));
    assertEquals(List.of(), problems, "the erased report and withdrawn appeal conform to the document");

    // as if a crash had lost every record: the steps run again on a new AccountDeleted and change nothing
    JsonObject before = kith.get("/admin/reports/" + filed, mod).expect(200);
    Await.result(kith.kith().platform().mongo().removeDocument(Erasures.COLLECTION,
        new JsonObject().put("_id", "moderation:" + victim.id())));
    Await.result(kith.kith().platform().events().publisher(AccountsEvents.DOMAIN)
        .append(new AccountDeleted(victim.id(), System.currentTimeMillis())));
    JsonObject again = awaitErased(victim.id());
    for (String kind : again.getJsonObject("counts").fieldNames()) {
      if (!"redis_keys".equals(kind)) {
        assertEquals(0L, again.getJsonObject("counts").getLong(kind), kind + " changed again: " + again.encode());
      }
    }
    assertEquals(before, kith.get("/admin/reports/" + filed, mod).expect(200));
    assertEquals(withdrawn, appealOf(mod, "withdrawn", openAppeal));
    assertEquals(upheld, appealOf(mod, "upheld", decidedAppeal));
  }

  @Test
  @DisplayName("the export holds the user's reports, the sanctions against them and their appeals, and nothing of "
      + "another user's")
  void exportsWhatIsTheUsers() {
    User alice = kith.register();
    User carol = kith.register();
    User bob = kith.register();
    long post = kith.publish(bob, "reported twice");
    long hers = report(alice, post, "alice's comment");
    long carols = report(carol, post, "carol's comment");
    long warning = sanction(alice, "warn", "rude to bob");
    long carolsWarning = sanction(carol, "warn", "rude to alice");
    long appealed = appeal(alice, warning, "alice's appeal");
    appeal(carol, carolsWarning, "carol's appeal");

    long id = kith.post("/me/export", alice, null).expect(202).getLong("export_id");
    kith.awaitPage("/me/exports/" + id, alice, "the export ready", s -> "ready".equals(s.getString("state")));
    Map<String, String> zip = unzip(kith.get("/me/exports/" + id + "/download", alice).body().getBytes());

    JsonArray reports = new JsonArray(zip.get("moderation/reports.json"));
    assertEquals(List.of(hers), TestKith.ids(new JsonObject().put("items", reports)), reports.encode());
    JsonObject report = reports.getJsonObject(0);
    assertEquals("alice's comment", report.getString("comment"));
    assertEquals("spam", report.getString("category"));
    assertEquals("open", report.getString("state"));
    assertEquals(post, report.getJsonObject("target").getLong("id"));
    assertNotNull(report.getLong("created"));
    JsonArray sanctions = new JsonArray(zip.get("moderation/sanctions.json"));
    assertEquals(1, sanctions.size(), sanctions.encode());
    JsonObject sanction = sanctions.getJsonObject(0);
    assertEquals(warning, sanction.getLong("id"));
    assertEquals("warn", sanction.getString("kind"));
    assertEquals("rude to bob", sanction.getString("reason"));
    assertNotNull(sanction.getLong("at"));
    assertFalse(sanction.containsKey("by"), "the moderator is not named: " + sanction.encode());
    JsonArray appeals = new JsonArray(zip.get("moderation/appeals.json"));
    assertEquals(1, appeals.size(), appeals.encode());
    assertEquals(appealed, appeals.getJsonObject(0).getLong("id"));
    assertEquals("alice's appeal", appeals.getJsonObject(0).getString("text"));
    assertEquals("open", appeals.getJsonObject(0).getString("state"));
    String all = zip.entrySet().stream().filter(e -> e.getKey().startsWith("moderation/"))
        .map(Map.Entry::getValue).reduce("", String::concat);
    for (String theirs : List.of("carol's", Long.toString(carols), Long.toString(carolsWarning))) {
      assertFalse(all.contains(theirs), theirs + " in alice's export: " + all);
    }
  }

  private long exists(String key) {
    return Await.result(kith.kith().platform().redis().send(Request.cmd(Command.EXISTS).arg(key))).toLong();
  }

  private static Map<String, String> unzip(byte[] bytes) {
    Map<String, String> zip = new HashMap<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(bytes))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        zip.put(e.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return zip;
  }
}
