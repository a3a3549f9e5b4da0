package io.kith.app.moderation;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.impl.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Moderation over HTTP: roles, reports, the queue, decisions and the audit log")
class ModerationHttpTest {

  private static final int REPORTS_PER_HOUR = 8;

  private TestKith kith;
  private User admin;

  @BeforeAll
  void start() {
    OperatorKith operators = OperatorKith.start(OperatorKith.MODULES, new JsonObject().put("reports-per-hour", REPORTS_PER_HOUR));
    kith = operators.kith();
    admin = operators.admin();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private User moderator() {
    return new OperatorKith(kith, admin).moderator();
  }

  private static JsonObject report(String type, long id, String category) {
    return new JsonObject().put("target", new JsonObject().put("type", type).put("id", id)).put("category", category)
        .put("comment", "please look");
  }

  @Test
  @DisplayName("roles: everyone is a user, the configured admin is admin; only an admin gives roles, never their own, "
      + "and users and moderators are refused on admin-only routes")
  void roles() {
    User alice = kith.register();
    assertEquals("user", kith.get("/me/role", alice).expect(200).getString("role"));
    assertEquals("admin", kith.get("/me/role", admin).expect(200).getString("role"));
    kith.get("/admin/reports", alice).problem(403, "role_required");
    kith.put("/admin/users/" + admin.path() + "/role", alice, new JsonObject().put("role", "user"))
        .problem(403, "role_required");

    User mod = moderator();
    assertEquals("moderator", kith.get("/me/role", mod).expect(200).getString("role"));
    kith.get("/admin/reports", mod).expect(200);
    kith.put("/admin/users/" + alice.path() + "/role", mod, new JsonObject().put("role", "moderator"))
        .problem(403, "role_required");
    kith.get("/admin/audit", mod).problem(403, "role_required");
    kith.put("/admin/users/" + admin.path() + "/role", admin, new JsonObject().put("role", "user"))
        .problem(400, "validation_failed", "user_id");
    kith.put("/admin/users/" + alice.path() + "/role", admin, new JsonObject().put("role", "owner"))
        .problem(400, "validation_failed");

    // demoted: the queue is gone at once
    kith.put("/admin/users/" + mod.path() + "/role", admin, new JsonObject().put("role", "user")).expect(200);
    kith.get("/admin/reports", mod).problem(403, "role_required");
    JsonObject audit = kith.get("/admin/audit?action=role.set&target_id=" + mod.id(), admin).expect(200);
    List<String> changes = new ArrayList<>();
    for (Object e : audit.getJsonArray("items")) {
      JsonObject entry = (JsonObject) e;
      assertEquals(admin.id(), entry.getLong("actor"));
      changes.add(entry.getJsonObject("details").getString("from") + "->"
          + entry.getJsonObject("details").getString("to"));
    }
    assertEquals(List.of("moderator->user", "user->moderator"), changes);
  }

  @Test
  @DisplayName("a report is filed only on what the reporter can see (else 404 as if missing), once while open, "
      + "with a known category, never on oneself")
  void filing() {
    User alice = kith.register();
    User bob = kith.register();
    long open = kith.publish(bob, "public words");
    long hidden = kith.publish(bob, "just me", "private").getLong("id");

    JsonObject filed = kith.post("/reports", alice, report("post", open, "spam")).expect(201);
    assertEquals("open", filed.getString("state"));
    assertEquals(open, filed.getJsonObject("target").getLong("id"));
    assertFalse(filed.containsKey("reporter"), "a reporter's view has no reporter id to leak");
    kith.post("/reports", alice, report("post", open, "hate")).problem(409, "report_exists");

    JsonObject notSeen = kith.post("/reports", alice, report("post", hidden, "spam")).problem(404, "target_not_found");
    JsonObject missing = kith.post("/reports", alice, report("post", hidden + 1_000_000, "spam"))
        .problem(404, "target_not_found");
    assertEquals(missing.getString("title"), notSeen.getString("title"));
    kith.post("/reports", alice, report("user", alice.id(), "spam")).problem(400, "validation_failed", "target.id");
    kith.post("/reports", alice, report("user", bob.id(), "boring")).problem(400, "validation_failed");
    kith.post("/reports", alice, report("planet", bob.id(), "spam")).problem(400, "validation_failed");
    kith.post("/reports", alice, report("user", bob.id(), "spam").put("comment", "x".repeat(1_001)))
        .problem(400, "validation_failed", "comment");
    kith.post("/reports", null, report("user", bob.id(), "spam")).problem(401, "unauthenticated");

    // the reporter's own list; nobody else's reports in it
    JsonObject mine = kith.get("/reports", alice).expect(200);
    assertEquals(List.of(filed.getLong("id")), TestKith.ids(mine));
    assertEquals(List.of(), TestKith.ids(kith.get("/reports", bob).expect(200)));
  }

  @Test
  @DisplayName("the contract allows the texts of reports, decisions, sanctions and appeals exactly the service's 1,000 "
      + "code points: 1,000 emoji pass, 1,001 are refused naming the field")
  void textLimitsMatchTheService() {
    List<String> bounds = textBounds(Set.of("fileReport", "decideReport", "warnUser", "suspendUser", "unsuspendUser",
        "limitUser", "unlimitUser", "fileAppeal", "appealSuspension", "decideAppeal"));
    assertTrue(bounds.size() >= 8, "moderation texts found in the contract: " + bounds);
    bounds.forEach(bound -> assertTrue(bound.endsWith("=1000"), "contract bound " + bound + ", service bound 1000"));

    User mod = moderator();
    User alice = kith.register();
    User bob = kith.register();
    String emoji = new String(Character.toChars(0x1F600));
    kith.post("/reports", alice, report("user", bob.id(), "spam").put("comment", emoji.repeat(1_001)))
        .problem(400, "validation_failed", "comment");
    long id = kith.post("/reports", alice, report("user", bob.id(), "spam").put("comment", emoji.repeat(1_000)))
        .expect(201).getLong("id");
    String decision = "/admin/reports/" + id + "/decision";
    kith.post(decision, mod, new JsonObject().put("decision", "dismiss").put("reason", emoji.repeat(1_001)))
        .problem(400, "validation_failed", "reason");
    kith.post(decision, mod, new JsonObject().put("decision", "dismiss").put("reason", emoji.repeat(1_000)))
        .expect(200);
  }

  /** "operation.member=maxLength" of every reason, comment and text in the request bodies of {@code operationIds}. */
  private static List<String> textBounds(Set<String> operationIds) {
    JsonObject doc;
    try (InputStream in = ModerationHttpTest.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
      doc = Await.result(Utils.yamlStringToJson(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> bounds = new ArrayList<>();
    for (String path : doc.getJsonObject("paths").fieldNames()) {
      JsonObject op = doc.getJsonObject("paths").getJsonObject(path).getJsonObject("post");
      if (op == null || !operationIds.contains(op.getString("operationId")) || !op.containsKey("requestBody")) {
        continue;
      }
      JsonObject schema = op.getJsonObject("requestBody").getJsonObject("content")
          .getJsonObject("application/json").getJsonObject("schema");
      String ref = schema.getString("$ref");
      if (ref != null) {
        schema = doc.getJsonObject("components").getJsonObject("schemas")
            .getJsonObject(ref.substring(ref.lastIndexOf('/') + 1));
      }
      JsonObject properties = schema.getJsonObject("properties", new JsonObject());
      for (String member : List.of("reason", "comment", "text")) {
        if (properties.containsKey(member)) {
          bounds.add(op.getString("operationId") + "." + member + "="
              + properties.getJsonObject(member).getValue("maxLength"));
        }
      }
    }
    return bounds;
  }

  @Test
  @DisplayName("moderators find reports by target and filter, assign, dismiss with a reason; the reporter sees the "
      + "decision and may report again; a decided report cannot be decided twice; the audit log records it all")
  void queueAndDecision() {
    User mod = moderator();
    User alice = kith.register();
    User dave = kith.register();
    User bob = kith.register();
    long post = kith.publish(bob, "contested");
    long first = kith.post("/reports", alice, report("post", post, "spam")).expect(201).getLong("id");
    kith.post("/reports", dave, report("post", post, "harassment")).expect(201);
    kith.post("/reports", dave, report("user", bob.id(), "harassment")).expect(201);

    JsonObject onPost = kith.get("/admin/reports?target_type=post&target_id=" + post + "&state=open", mod).expect(200);
    assertEquals(2, onPost.getJsonArray("items").size());
    for (Object r : onPost.getJsonArray("items")) {
      assertEquals(bob.id(), ((JsonObject) r).getLong("target_owner"));
    }
    JsonObject grouped = kith.get("/admin/reports/by-target?target_type=post", mod).expect(200);
    JsonObject group = grouped.getJsonArray("items").stream().map(JsonObject.class::cast)
        .filter(g -> g.getJsonObject("target").getLong("id") == post).findFirst().orElseThrow();
    assertEquals(2, group.getInteger("open_reports"));
    assertEquals(2, group.getJsonArray("categories").size());
    kith.get("/admin/reports?category=boring", mod).problem(400, "validation_failed");

    JsonObject assigned = kith.post("/admin/reports/" + first + "/assign", mod, new JsonObject()).expect(200);
    assertEquals(mod.id(), assigned.getLong("assignee"));
    kith.post("/admin/reports/" + first + "/assign", mod, new JsonObject().put("assignee", alice.id()))
        .problem(400, "validation_failed", "assignee");
    kith.post("/admin/reports/" + first + "/decision", mod, new JsonObject().put("decision", "dismiss")
        .put("reason", "")).problem(400, "validation_failed");
    JsonObject decided = kith.post("/admin/reports/" + first + "/decision", mod, new JsonObject()
        .put("decision", "dismiss").put("reason", "not spam")).expect(200);
    assertEquals("dismissed", decided.getString("state"));
    assertEquals(mod.id(), decided.getJsonObject("decision").getLong("by"));
    kith.post("/admin/reports/" + first + "/decision", mod, new JsonObject().put("decision", "dismiss")
        .put("reason", "again")).problem(409, "report_closed");
    kith.post("/admin/reports/" + (first + 1_000_000) + "/decision", mod, new JsonObject().put("decision", "dismiss")
        .put("reason", "x")).problem(404, "report_not_found");
    kith.get("/admin/reports/" + first, alice).problem(403, "role_required");

    JsonObject mine = kith.get("/reports", alice).expect(200).getJsonArray("items").getJsonObject(0);
    assertEquals("dismissed", mine.getString("state"));
    assertEquals("dismiss", mine.getJsonObject("decided").getString("decision"));
    assertNull(mine.getJsonObject("decided").getValue("by"), "the reporter is not told which moderator decided");
    kith.post("/reports", alice, report("post", post, "spam")).expect(201);

    JsonObject audit = kith.get("/admin/audit?target_id=" + first, admin).expect(200);
    List<String> actions = audit.getJsonArray("items").stream().map(e -> ((JsonObject) e).getString("action")).toList();
    assertEquals(List.of("report.dismiss", "report.assign"), actions);
    assertTrue(audit.getJsonArray("items").stream().allMatch(e -> ((JsonObject) e).getLong("actor") == mod.id()));
  }

  @Test
  @DisplayName("a user files at most moderation.reports-per-hour reports; then 429 rate_limited with retry_after")
  void rateLimited() {
    User alice = kith.register();
    List<User> others = kith.register(REPORTS_PER_HOUR + 1);
    for (int i = 0; i < REPORTS_PER_HOUR; i++) {
      kith.post("/reports", alice, report("user", others.get(i).id(), "spam")).expect(201);
    }
    kith.post("/reports", alice, report("user", others.get(REPORTS_PER_HOUR).id(), "spam"))
        .throttled("rate_limited", 3_600);
  }

  @Test
  @DisplayName("operators read a user's record (by id or username) and the desk's summary; a suspended user's "
      + "profile is hidden there too; plain users are refused")
  void overview() {
    User mod = moderator();
    User alice = kith.register();
    User bob = kith.register();
    kith.post("/reports", alice, report("user", bob.id(), "spam")).expect(201);
    JsonObject record = kith.get("/admin/users/" + bob.path(), mod).expect(200);
    assertEquals("user", record.getString("role"));
    assertEquals(bob.id(), record.getJsonObject("profile").getLong("id"));
    assertEquals(1L, record.getLong("reports_against"));
    assertEquals(1L, record.getLong("open_reports_against"));
    assertEquals(0L, record.getLong("reports_filed"));
    assertEquals(1L, kith.get("/admin/users/" + alice.path(), mod).expect(200).getLong("reports_filed"));
    assertEquals(bob.id(), kith.get("/admin/users?username=" + bob.username(), mod).expect(200).getLong("user_id"));
    kith.get("/admin/users?username=nobody" + bob.username(), mod).problem(404, "user_not_found");

    kith.post("/admin/users/" + bob.path() + "/suspend", mod, new JsonObject().put("reason", "spam run")).expect(200);
    JsonObject suspended = kith.get("/admin/users/" + bob.path(), mod).expect(200);
    assertNull(suspended.getValue("profile"), "a suspended account is hidden from everyone");
    assertEquals("suspend", suspended.getJsonArray("sanctions").getJsonObject(0).getString("kind"));

    JsonObject summary = kith.get("/admin/summary", mod).expect(200);
    assertTrue(summary.getLong("open_reports") >= 1, summary.encode());
    assertTrue(summary.getJsonObject("open_reports_by_category").getLong("spam") >= 1, summary.encode());
    assertEquals(14, summary.getJsonArray("actions").size());
    JsonObject today = summary.getJsonArray("actions").getJsonObject(13);
    assertEquals(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString(), today.getString("day"));
    assertTrue(today.getLong("count") >= 2, "today's role change and suspension: " + summary.encode());

    kith.get("/admin/users/" + bob.path(), alice).problem(403, "role_required");
    kith.get("/admin/summary", alice).problem(403, "role_required");
  }
}
