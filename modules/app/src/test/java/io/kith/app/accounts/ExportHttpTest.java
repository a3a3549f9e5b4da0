package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.platform.events.Exports;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.newEmail;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exporting one's data over HTTP ({@code POST /api/v1/me/export}, {@code GET /me/exports...}). The node exports
 * accounts' own part and a {@code probe} domain this test serves itself through the platform's {@code Exports}, so it
 * can hold a job running for as long as a test needs (the other domains' parts are checked after they are merged).
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Exporting one's data over HTTP (POST /api/v1/me/export, GET /api/v1/me/exports/{id}[/download])")
class ExportHttpTest {

  private static final long HOUR = 3_600_000L;
  /** The node's archive limit: far above accounts' part, below what the probe answers for {@link #large}. */
  private static final long MAX_BYTES = 200_000;

  private Inboxes inboxes;
  private AccountsKith kith;
  private MessageConsumer<JsonObject> probe;
  /** Users whose probe page waits until the test completes it. */
  private final Map<Long, Promise<Exports.Page>> held = new ConcurrentHashMap<>();
  private final Set<Long> holding = ConcurrentHashMap.newKeySet();
  /** Users whose probe part is larger than the archive limit. */
  private final Set<Long> large = ConcurrentHashMap.newKeySet();
  private final Conformance contract = Conformance.load();

  @BeforeAll
  void start() {
    inboxes = new Inboxes();
    kith = AccountsKith.start(inboxes.config()
        .put("kith", new JsonObject().put("modules", new JsonArray().add("accounts").add("gateway")
            .add("notifications")))
        .put("accounts", new JsonObject().put("export-domains", new JsonArray().add("accounts").add("probe"))
            .put("export-sweep-seconds", 1).put("export-page-timeout-ms", 120_000).put("export-max-bytes", MAX_BYTES)));
    probe = Exports.serve(kith.kith().vertx(), "probe", (user, cursor) -> {
      if (holding.contains(user)) {
        return held.computeIfAbsent(user, u -> Promise.promise()).future();
      }
      if (large.contains(user)) {
        // pages of 500 records of about 1 KB, without end: the limit must stop the job
        List<Exports.Record> page = new java.util.ArrayList<>();
        for (int i = 0; i < Exports.MAX_RECORDS; i++) {
          page.add(new Exports.Record("notes.json", new JsonObject().put("note", "x".repeat(1000))));
        }
        return Future.succeededFuture(new Exports.Page(page, String.valueOf(cursor == null ? 1
            : Integer.parseInt(cursor) + 1)));
      }
      return Future.succeededFuture(new Exports.Page(List.of(new Exports.Record("notes.json",
          new JsonObject().put("note", "from the probe").put("user", user))), null));
    });
  }

  @AfterAll
  void stop() throws Exception {
    if (probe != null) {
      probe.unregister();
    }
    if (kith != null) {
      kith.close();
    }
    if (inboxes != null) {
      inboxes.close();
    }
  }

  private User verifiedUser() {
    String email = newEmail();
    User user = kith.register(unique("Exp"), email, null);
    kith.confirmCode(user, "email", inboxes.nextMail(email).code()).expect(200);
    return user;
  }

  private Reply download(User user, long id) {
    return kith.get("/me/exports/" + id + "/download", user.access());
  }

  private JsonObject awaitState(User user, long id, String state) {
    return kith.awaitExport(user, id, state);
  }

  private static Map<String, String> unzip(Reply reply) throws IOException {
    Map<String, String> entries = new LinkedHashMap<>();
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(reply.body().getBytes()))) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        entries.put(e.getName(), new String(zip.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return entries;
  }

  @Test
  @DisplayName("a ready export is a ZIP of the manifest, the profile, identities, sessions and devices (no secret) and "
      + "every domain's files; the owner is told by a notification and a mail")
  void readyArchive() throws IOException {
    User user = verifiedUser();
    // registration opens a session without a device token; this login opens a second one and gets a device token
    JsonObject second = kith.call(HttpMethod.POST, AccountsKith.API + "/auth/login", null, newAddress(),
        new JsonObject().put("login", user.username()).put("password", user.password()).put("device", "Pixel 8"))
        .expect(200);
    JsonObject me = kith.get("/me", user.access()).expect(200);

    JsonObject asked = kith.post("/me/export", user.access(), null).expect(202);
    assertEquals("pending", asked.getString("state"), asked.encode());
    long id = asked.getLong("export_id");
    assertEquals(List.of(), contract.problems("requestExport", 202, asked));
    JsonObject ready = awaitState(user, id, "ready");
    assertEquals(ready.getLong("ready_at") + 48 * HOUR, ready.getLong("expires_at"), ready.encode());
    assertEquals(List.of(), contract.problems("getExport", 200, ready));

    Reply reply = download(user, id);
    assertEquals(200, reply.status(), reply.text());
    assertEquals("application/zip", reply.header("Content-Type"));
    assertEquals("attachment; filename=\"kith-export-" + id + ".zip\"", reply.header("Content-Disposition"));
    assertEquals(ready.getLong("size").longValue(), reply.body().length());
    Map<String, String> zip = unzip(reply);

    JsonObject manifest = new JsonObject(zip.get("manifest.json"));
    assertEquals(user.id(), manifest.getLong("user_id"), manifest.encode());
    assertEquals(new JsonObject().put("profile.json", 1).put("identities.json", 1).put("sessions.json", 2)
        .put("devices.json", 1), manifest.getJsonObject("domains").getJsonObject("accounts").getJsonObject("files"));
    assertEquals(new JsonObject().put("notes.json", 1),
        manifest.getJsonObject("domains").getJsonObject("probe").getJsonObject("files"));

    JsonObject profile = new JsonArray(zip.get("accounts/profile.json")).getJsonObject(0);
    for (String f : List.of("id", "username", "email", "email_verified", "settings", "created")) {
      assertEquals(me.getValue(f), profile.getValue(f), f + " as GET /me shows it: " + profile.encode());
    }
    assertEquals(new JsonArray().add(new JsonObject().put("type", "email").put("value", user.email())
        .put("verified", true)), new JsonArray(zip.get("accounts/identities.json")));
    JsonArray sessions = new JsonArray(zip.get("accounts/sessions.json"));
    assertTrue(sessions.stream().anyMatch(s -> "Pixel 8".equals(((JsonObject) s).getString("device"))),
        sessions.encode());
    for (Object s : sessions) {
      assertEquals(Set.of("device", "created", "last_used"), ((JsonObject) s).fieldNames(), sessions.encode());
    }
    for (Object d : new JsonArray(zip.get("accounts/devices.json"))) {
      assertEquals(Set.of("created", "last_used"), ((JsonObject) d).fieldNames(), d.toString());
    }
    assertEquals(new JsonArray().add(new JsonObject().put("note", "from the probe").put("user", user.id())),
        new JsonArray(zip.get("probe/notes.json")));
    String all = String.join("\n", zip.values());
    for (String secret : List.of(user.password(), user.access(), user.refresh(), second.getString("access_token"),
        second.getString("refresh_token"), second.getString("device_token"), user.sessionId(), "password")) {
      assertFalse(all.contains(secret), "the archive holds no secret: " + secret);
    }

    JsonObject list = kith.get("/me/exports", user.access()).expect(200);
    assertEquals(List.of(), contract.problems("listExports", 200, list));
    assertEquals(ready, list.getJsonArray("items").getJsonObject(0));
    kith.eventually("the export_ready notification", () -> kith.send(HttpMethod.GET, AccountsKith.API
        + "/notifications", user.access(), newAddress(), null).map(r -> r.expect(200).getJsonArray("items").stream()
        .map(JsonObject.class::cast).anyMatch(n -> "export_ready".equals(n.getString("type"))
            && n.getLong("export", 0L) == id && ready.getLong("expires_at").equals(n.getLong("expires_at")))));
    Inboxes.Mail mail = inboxes.nextMail(user.email());
    assertTrue(mail.subject().contains("export"), mail.subject());
    assertTrue(mail.text().contains(user.username()), mail.text());
  }

  @Test
  @DisplayName("one export at a time: a second while one runs is 409 export_in_progress, its download 409 "
      + "export_not_ready; once it is ready a new one is accepted")
  void oneAtATime() {
    User user = kith.register();
    holding.add(user.id());
    long id = kith.post("/me/export", user.access(), null).expect(202).getLong("export_id");
    awaitState(user, id, "running");

    kith.post("/me/export", user.access(), null).problem(409, "export_in_progress");
    download(user, id).problem(409, "export_not_ready");

    kith.eventually("the probe asked for the user's part", () -> Future.succeededFuture(held.containsKey(user.id())));
    held.get(user.id()).complete(new Exports.Page(List.of(), null));
    awaitState(user, id, "ready");
    holding.remove(user.id());
    long next = kith.post("/me/export", user.access(), null).expect(202).getLong("export_id");
    assertTrue(next != id);
    awaitState(user, next, "ready");
  }

  @Test
  @DisplayName("a job left running by a crashed node is retaken after the lease, restarted from scratch, and becomes "
      + "ready (meanwhile a new export is 409 export_in_progress); after three interrupted attempts it fails")
  void crashedJobRetaken() {
    User user = kith.register();
    long id = kith.kith().platform().ids().next();
    long now = System.currentTimeMillis();
    // what a node that crashed mid-job leaves: running, claimed by it, the claim not renewed for longer than the lease
    Await.result(kith.kith().platform().mongo().insert("account_exports", new JsonObject().put("_id", id)
        .put("user", user.id()).put("state", "running").put("created_at", now).put("active", user.id())
        .put("claim", "a-crashed-node").put("claimed_at", now - 3_600_000L).put("attempts", 1)));
    kith.post("/me/export", user.access(), null).problem(409, "export_in_progress");

    JsonObject ready = awaitState(user, id, "ready");
    JsonObject doc = Await.result(kith.kith().platform().mongo().findOne("account_exports",
        new JsonObject().put("_id", id), null));
    assertEquals(2, doc.getInteger("attempts"), doc.encode());
    assertEquals(ready.getLong("size").longValue(), download(user, id).body().length());

    // a job whose nodes keep dying is not retried for ever
    User unlucky = kith.register();
    long doomed = kith.kith().platform().ids().next();
    Await.result(kith.kith().platform().mongo().insert("account_exports", new JsonObject().put("_id", doomed)
        .put("user", unlucky.id()).put("state", "running").put("created_at", now).put("active", unlucky.id())
        .put("claim", "a-crashed-node").put("claimed_at", now - 3_600_000L).put("attempts", 3)));
    JsonObject failed = awaitState(unlucky, doomed, "failed");
    assertTrue(failed.getString("reason").contains("interrupted"), failed.encode());
    kith.post("/me/export", unlucky.access(), null).expect(202);
  }

  @Test
  @DisplayName("an export whose records pass accounts.export-max-bytes fails with a reason naming the limit, and "
      + "offers no archive")
  void tooLarge() {
    User user = kith.register();
    large.add(user.id());
    long id = kith.post("/me/export", user.access(), null).expect(202).getLong("export_id");
    JsonObject failed = awaitState(user, id, "failed");
    assertTrue(failed.getString("reason").contains("export-max-bytes"), failed.encode());
    download(user, id).problem(409, "export_not_ready");
    large.remove(user.id());
  }

  @Test
  @DisplayName("another user's export answers 404 export_not_found for its status and its download, as a missing one")
  void othersExport() {
    User owner = kith.register();
    User other = kith.register();
    long id = kith.post("/me/export", owner.access(), null).expect(202).getLong("export_id");
    awaitState(owner, id, "ready");

    kith.get("/me/exports/" + id, other.access()).problem(404, "export_not_found");
    download(other, id).problem(404, "export_not_found");
    kith.get("/me/exports/" + (id + 1), owner.access()).problem(404, "export_not_found");
    download(owner, id + 1).problem(404, "export_not_found");
    assertTrue(kith.get("/me/exports", other.access()).expect(200).getJsonArray("items").isEmpty());
    kith.get("/me/exports/" + id, null).problem(401, "unauthenticated");
    kith.get("/me/exports/not-a-number", owner.access()).problem(400, "validation_failed");
  }
}
