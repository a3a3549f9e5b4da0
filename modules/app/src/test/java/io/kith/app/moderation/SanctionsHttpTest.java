package io.kith.app.moderation;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.Conformance;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Sanctions and appeals over HTTP: warn, suspend, unsuspend, one appeal decided by another moderator")
class SanctionsHttpTest {

  private static final String[] MODULES =
      {"accounts", "relations", "feeds", "messaging", "activities", "notifications", "moderation", "gateway"};

  private TestKith kith;
  private OperatorKith operators;
  private User admin;

  /** A user with the password they log in with. */
  private record Member(User user, String password) {
  }

  @BeforeAll
  void start() {
    operators = OperatorKith.start(MODULES, new JsonObject());
    kith = operators.kith();
    admin = operators.admin();
  }

  @AfterAll
  void stop() {
    if (operators != null) {
      operators.kith().close();
    }
  }

  private Member member() {
    String username = TestKith.unique("s");
    String password = "Sunny-" + TestKith.unique("p") + "!";
    JsonObject body = kith.post("/accounts", null, new JsonObject().put("username", username)
        .put("password", password)).expect(201);
    return new Member(new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token")), password);
  }

  private io.kith.app.support.Reply login(Member m) {
    return kith.post("/auth/login", null, new JsonObject().put("login", m.user().username())
        .put("password", m.password()));
  }

  private JsonObject suspend(User as, User who, Long until) {
    JsonObject request = new JsonObject().put("reason", "abuse");
    if (until != null) {
      request.put("until", until);
    }
    return kith.post("/admin/users/" + who.path() + "/suspend", as, request).expect(200);
  }

  @Test
  @DisplayName("a suspension ends the user's sessions and bridge connection, refuses their login with "
      + "account_suspended, hides their profile and post from others (post read, their posts, a follower's home "
      + "timeline, lookups); an unsuspend brings all back")
  void suspendAndUnsuspend() {
    Member bob = member();
    User carol = kith.register();
    kith.follow(carol, bob.user());
    long post = kith.publish(bob.user(), "before the suspension");
    kith.get("/posts/" + post, carol).expect(200);
    kith.awaitPage("/timelines/home", carol, "bob's post in carol's home timeline",
        p -> TestKith.ids(p).contains(post));
    BridgeSocket socket = kith.bridge(bob.user());

    JsonObject sanction = suspend(admin, bob.user(), null);
    assertEquals("suspend", sanction.getString("kind"));
    assertNull(sanction.getValue("until"), "no until: permanent");
    kith.get("/me", bob.user()).problem(401, "session_revoked");
    Await.result(Poll.until(kith.client(), TestKith.WAIT, "the suspended user's bridge connection to close",
        () -> Future.succeededFuture(socket.isClosed())));
    JsonObject refused = login(bob).problem(403, "account_suspended");
    assertTrue(refused.containsKey("suspended_until") && refused.getValue("suspended_until") == null,
        refused.encode());
    assertEquals("abuse", refused.getString("reason"));
    assertNotNull(refused.getString("appeal_token"));
    kith.get("/users/" + bob.user().id(), carol).problem(404, "user_not_found");
    kith.get("/posts/" + post, carol).problem(404, "post_not_found");
    assertFalse(TestKith.ids(kith.get("/users/" + bob.user().id() + "/posts", carol).expect(200)).contains(post));
    assertFalse(TestKith.ids(kith.get("/timelines/home", carol).expect(200)).contains(post));
    kith.get("/users/by-username/" + bob.user().username(), carol).problem(404, "user_not_found");
    assertTrue(kith.get("/users?ids=" + bob.user().id(), carol).expect(200).getJsonArray("items").isEmpty());

    kith.post("/admin/users/" + bob.user().path() + "/unsuspend", admin, new JsonObject().put("reason", "served"))
        .expect(200);
    assertNotNull(login(bob).expect(200).getString("access_token"));
    kith.get("/users/" + bob.user().id(), carol).expect(200);
    kith.get("/posts/" + post, carol).expect(200);
    assertTrue(TestKith.ids(kith.get("/timelines/home", carol).expect(200)).contains(post));

    List<String> actions = kith.get("/admin/audit?target_id=" + bob.user().id(), admin).expect(200)
        .getJsonArray("items").stream().map(e -> ((JsonObject) e).getString("action")).toList();
    assertEquals(List.of("user.unsuspend", "user.suspend"), actions);
  }

  @Test
  @DisplayName("a suspension until a time refuses the login with that time; one whose time has passed lets the user "
      + "log in again (compared at login, no sweeper), though it signed them out")
  void timed() {
    Member bob = member();
    long later = System.currentTimeMillis() + 86_400_000L;
    suspend(admin, bob.user(), later);
    assertEquals(later, login(bob).problem(403, "account_suspended").getLong("suspended_until"));

    Member dave = member();
    suspend(admin, dave.user(), System.currentTimeMillis() - 1_000);
    kith.get("/me", dave.user()).problem(401, "session_revoked");
    login(dave).expect(200);
    kith.get("/users/" + dave.user().id(), kith.register()).expect(200);
  }

  @Test
  @DisplayName("a warning reaches the user as a moderation_warning notification with the reason, and can be "
      + "appealed once, by that user only")
  void warning() {
    User mod = operators.moderator();
    User bob = kith.register();
    User carol = kith.register();
    JsonObject warned = kith.post("/admin/users/" + bob.path() + "/warn", mod, new JsonObject()
        .put("reason", "mind your language")).expect(200);
    JsonObject page = kith.awaitPage("/notifications?types=moderation_warning", bob, "the warning's notification",
        p -> !p.getJsonArray("items").isEmpty());
    assertEquals("mind your language", page.getJsonArray("items").getJsonObject(0).getString("reason"));

    JsonObject appeal = new JsonObject().put("decision_id", warned.getLong("id")).put("text", "I was quoting");
    kith.post("/appeals", carol, appeal).problem(404, "decision_not_found");
    JsonObject filed = kith.post("/appeals", bob, appeal).expect(201);
    assertEquals("open", filed.getString("state"));
    kith.post("/appeals", bob, appeal).problem(409, "appeal_exists");
    kith.post("/appeals", bob, new JsonObject().put("text", "no id")).problem(400, "validation_failed");
  }

  @Test
  @DisplayName("a report decided with a warning warns the post's author, who appeals it once, by report or by "
      + "decision id alike; a dismissed report is nothing to appeal")
  void reportWarned() {
    User mod = operators.moderator();
    User alice = kith.register();
    User bob = kith.register();
    long post = kith.publish(bob, "borderline");
    JsonObject target = new JsonObject().put("type", "post").put("id", post);
    long warned = kith.post("/reports", alice, new JsonObject().put("target", target).put("category", "hate"))
        .expect(201).getLong("id");
    JsonObject decided = kith.post("/admin/reports/" + warned + "/decision", mod, new JsonObject()
        .put("decision", "warn").put("reason", "tone it down")).expect(200);
    assertEquals("actioned", decided.getString("state"));
    kith.awaitPage("/notifications?types=moderation_warning", bob, "the warning's notification",
        p -> !p.getJsonArray("items").isEmpty());
    kith.post("/appeals", alice, new JsonObject().put("report_id", warned).put("text", "me"))
        .problem(404, "decision_not_found");
    kith.post("/appeals", bob, new JsonObject().put("report_id", warned).put("text", "fair comment")).expect(201);
    kith.post("/appeals", bob, new JsonObject().put("decision_id", decided.getJsonObject("decision")
        .getLong("sanction_id")).put("text", "again")).problem(409, "appeal_exists");

    long dismissed = kith.post("/reports", alice, new JsonObject().put("target", new JsonObject().put("type", "user")
        .put("id", bob.id())).put("category", "spam")).expect(201).getLong("id");
    kith.post("/admin/reports/" + dismissed + "/decision", mod, new JsonObject().put("decision", "dismiss")
        .put("reason", "fine")).expect(200);
    kith.post("/appeals", bob, new JsonObject().put("report_id", dismissed).put("text", "x"))
        .problem(404, "decision_not_found");
  }

  @Test
  @DisplayName("a report decided with a suspension closes it actioned; the suspended user appeals once with the token "
      + "of their refused login; the deciding moderator cannot decide the appeal; another overturns it, which "
      + "unsuspends")
  void appealOverturned() {
    User mod = operators.moderator();
    User alice = kith.register();
    Member bob = member();
    long post = kith.publish(bob.user(), "spam spam spam");
    long report = kith.post("/reports", alice, new JsonObject().put("target", new JsonObject().put("type", "post")
        .put("id", post)).put("category", "spam")).expect(201).getLong("id");
    JsonObject decided = kith.post("/admin/reports/" + report + "/decision", mod, new JsonObject()
        .put("decision", "suspend").put("reason", "spam run")).expect(200);
    assertEquals("actioned", decided.getString("state"));
    assertNotNull(decided.getJsonObject("decision").getLong("sanction_id"));

    String token = login(bob).problem(403, "account_suspended").getString("appeal_token");
    kith.post("/appeals/suspension", null, new JsonObject().put("appeal_token", "not-" + token).put("text", "x"))
        .problem(401, "token_invalid");
    JsonObject appeal = kith.post("/appeals/suspension", null, new JsonObject().put("appeal_token", token)
        .put("text", "it was a mistake")).expect(201);
    kith.post("/appeals/suspension", null, new JsonObject().put("appeal_token", token).put("text", "again"))
        .problem(409, "appeal_exists");
    JsonObject open = kith.get("/admin/appeals?state=open", mod).expect(200);
    assertTrue(TestKith.ids(open).contains(appeal.getLong("id")), open.encode());

    String path = "/admin/appeals/" + appeal.getLong("id") + "/decision";
    JsonObject overturn = new JsonObject().put("decision", "overturn").put("reason", "not spam");
    kith.post(path, mod, overturn).problem(403, "same_moderator");
    kith.post(path, alice, overturn).problem(403, "role_required");
    assertEquals("overturned", kith.post(path, admin, overturn).expect(200).getString("state"));
    kith.post(path, admin, overturn).problem(409, "appeal_closed");
    JsonObject back = login(bob).expect(200);
    kith.get("/posts/" + post, alice).expect(200);
    // the appellant is told the outcome, with the reason
    User again = new User(bob.user().id(), bob.user().username(),
        back.getString("access_token"));
    JsonObject told = kith.awaitPage("/notifications?types=appeal_decided", again, "the appeal's outcome",
        page -> !page.getJsonArray("items").isEmpty()).getJsonArray("items").getJsonObject(0);
    assertEquals("overturn", told.getString("decision"));
    assertEquals("not spam", told.getString("reason"));
  }

  @Test
  @DisplayName("sanctions, appeals and an actioned report carry only members the document declares, of the "
      + "declared types")
  void conforms() {
    Conformance contract = Conformance.load();
    List<String> problems = new ArrayList<>();
    User mod = operators.moderator();
    User alice = kith.register();
    Member bob = member();
    long post = kith.publish(bob.user(), "conformance");
    long report = kith.post("/reports", alice, new JsonObject().put("target", new JsonObject().put("type", "post")
        .put("id", post)).put("category", "spam")).expect(201).getLong("id");
    problems.addAll(contract.problems("decideReport", 200, kith.post("/admin/reports/" + report + "/decision", mod,
        new JsonObject().put("decision", "suspend").put("reason", "r").put("until", Long.MAX_VALUE / 4)).expect(200)));
    JsonObject refused = login(bob).problem(403, "account_suspended");
    JsonObject appeal = kith.post("/appeals/suspension", null, new JsonObject()
        .put("appeal_token", refused.getString("appeal_token")).put("text", "t")).expect(201);
    problems.addAll(contract.problems("appealSuspension", 201, appeal));
    problems.addAll(contract.problems("listAppeals", 200, kith.get("/admin/appeals", mod).expect(200)));
    problems.addAll(contract.problems("decideAppeal", 200, kith.post("/admin/appeals/" + appeal.getLong("id")
        + "/decision", admin, new JsonObject().put("decision", "uphold").put("reason", "r")).expect(200)));
    for (String kind : List.of("warn", "suspend", "unsuspend")) {
      problems.addAll(contract.problems(kind + "User", 200, kith.post("/admin/users/" + alice.path() + "/" + kind,
          mod, new JsonObject().put("reason", "r")).expect(200)));
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  @Test
  @DisplayName("an operator finds a suspended, a limited and a pending-deletion account by username, whatever its "
      + "case, while a plain user's lookup of the suspended and the pending one stays user_not_found; an unknown "
      + "username is user_not_found and a plain user on the operators' lookup is 403 role_required; each record "
      + "states the account's standing (suspended, limited, pending_deletion, active, gone)")
  void operatorFindsHiddenByUsername() {
    User mod = operators.moderator();
    User viewer = kith.register();
    User suspended = member().user();
    User limited = member().user();
    Member leaving = member();
    suspend(admin, suspended, null);
    kith.post("/admin/users/" + limited.path() + "/limit", admin, new JsonObject().put("reason", "spam"))
        .expect(200);
    kith.call(HttpMethod.DELETE, TestKith.API + "/me", leaving.user().access(), new JsonObject()
        .put("password", leaving.password())).expect(200);

    for (User user : List.of(suspended, limited, leaving.user())) {
      for (User operator : List.of(mod, admin)) {
        JsonObject record = kith.get("/admin/users?username=" + user.username().toUpperCase(Locale.ROOT), operator)
            .expect(200);
        assertEquals(user.id(), record.getLong("user_id"), record.encode());
      }
    }
    JsonObject record = kith.get("/admin/users?username=" + suspended.username(), mod).expect(200);
    assertEquals("suspend", record.getJsonArray("sanctions").getJsonObject(0).getString("kind"), record.encode());
    // the record says which hidden state each is in, and when it ends
    assertEquals("suspended", record.getString("state"), record.encode());
    assertNull(record.getValue("state_until"), "a permanent suspension has no end: " + record.encode());
    JsonObject limitedRecord = kith.get("/admin/users/" + limited.path(), mod).expect(200);
    assertEquals("limited", limitedRecord.getString("state"), limitedRecord.encode());
    JsonObject leavingRecord = kith.get("/admin/users/" + leaving.user().path(), mod).expect(200);
    assertEquals("pending_deletion", leavingRecord.getString("state"), leavingRecord.encode());
    assertTrue(leavingRecord.getLong("state_until") > System.currentTimeMillis(), leavingRecord.encode());
    JsonObject viewerRecord = kith.get("/admin/users/" + viewer.path(), mod).expect(200);
    assertEquals("active", viewerRecord.getString("state"), viewerRecord.encode());
    assertEquals("gone", kith.get("/admin/users/" + 9_000_000_000L, mod).expect(200).getString("state"));
    kith.get("/users/by-username/" + suspended.username(), viewer).problem(404, "user_not_found");
    kith.get("/users/by-username/" + leaving.user().username(), viewer).problem(404, "user_not_found");
    kith.get("/admin/users?username=" + suspended.username(), viewer).problem(403, "role_required");
    kith.get("/admin/users?username=none" + suspended.username(), mod).problem(404, "user_not_found");
  }

  @Test
  @DisplayName("a plain user is refused on every sanction and appeal route; a moderator cannot sanction an admin or "
      + "a moderator, nor anyone oneself; bad input is a 400 and an unknown user a 404")
  void refusals() {
    User alice = kith.register();
    User bob = kith.register();
    User mod = operators.moderator();
    User otherMod = operators.moderator();
    JsonObject reason = new JsonObject().put("reason", "because");
    for (String kind : List.of("warn", "suspend", "unsuspend")) {
      kith.post("/admin/users/" + bob.path() + "/" + kind, alice, reason).problem(403, "role_required");
    }
    kith.get("/admin/appeals", alice).problem(403, "role_required");
    kith.post("/admin/appeals/1/decision", alice, new JsonObject().put("decision", "uphold").put("reason", "x"))
        .problem(403, "role_required");

    kith.post("/admin/users/" + admin.path() + "/suspend", mod, reason).problem(403, "operator_protected");
    kith.post("/admin/users/" + otherMod.path() + "/warn", mod, reason).problem(403, "operator_protected");
    kith.post("/admin/users/" + mod.path() + "/warn", mod, reason).problem(400, "validation_failed", "user_id");
    kith.post("/admin/users/" + bob.path() + "/warn", mod, new JsonObject().put("reason", ""))
        .problem(400, "validation_failed");
    kith.post("/admin/users/" + bob.path() + "/suspend", mod, reason.copy().put("until", -5))
        .problem(400, "validation_failed");
    kith.post("/admin/users/" + (bob.id() + 1_000_000) + "/warn", mod, reason).problem(404, "user_not_found");
    kith.post("/admin/appeals/" + (bob.id() + 1_000_000) + "/decision", mod, new JsonObject()
        .put("decision", "uphold").put("reason", "x")).problem(404, "appeal_not_found");
    kith.get("/users/" + bob.id(), alice).expect(200);
  }
}
