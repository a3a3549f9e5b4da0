package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The refusals of exports that need their own node: an export that asks a domain nobody serves fails (never an
 * archive claimed complete with a part missing), the daily limit, and an archive past its download time.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Export failures and limits over HTTP: a domain nobody serves, the daily limit")
class ExportLimitsHttpTest {

  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start(new JsonObject().put("accounts", new JsonObject()
        .put("export-domains", new JsonArray().add("accounts").add("nosuch"))
        .put("export-sweep-seconds", 1).put("export-page-retries", 0).put("export-requests-per-day", 3)));
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** Asks for an export and waits until it failed; returns its status. */
  private JsonObject failedExport(User user) {
    long id = kith.post("/me/export", user.access(), null).expect(202).getLong("export_id");
    return kith.awaitExport(user, id, "failed");
  }

  @Test
  @DisplayName("an export asking a domain nobody serves fails with a reason naming it and offers no archive; a new "
      + "export is then allowed, up to the daily limit, past which it is 429 rate_limited with Retry-After")
  void domainNobodyServes() {
    User user = kith.register();
    JsonObject failed = failedExport(user);
    assertTrue(failed.getString("reason").contains("nosuch"), failed.encode());
    assertFalse(failed.containsKey("expires_at"), failed.encode());
    kith.get("/me/exports/" + failed.getLong("export_id") + "/download", user.access())
        .problem(409, "export_not_ready");

    failedExport(user);
    failedExport(user);
    io.kith.app.support.Reply refused = kith.post("/me/export", user.access(), null);
    refused.problem(429, "rate_limited");
    assertTrue(Long.parseLong(refused.header("Retry-After")) > 0, refused.headers().toString());
    assertEquals(3, kith.get("/me/exports", user.access()).expect(200).getJsonArray("items").size());
  }
}
