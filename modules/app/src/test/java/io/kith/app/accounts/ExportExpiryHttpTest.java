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

/** An export's archive past its download time, on a node whose archives live about two seconds. */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("An expired export over HTTP (accounts.export-ttl-hours)")
class ExportExpiryHttpTest {

  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start(new JsonObject().put("accounts", new JsonObject()
        .put("export-domains", new JsonArray().add("accounts"))
        .put("export-sweep-seconds", 1).put("export-ttl-hours", 0.0005)));
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("after expires_at the download is 410 export_expired and the status expired, and a new export may be "
      + "asked")
  void expired() {
    User user = kith.register();
    long id = kith.post("/me/export", user.access(), null).expect(202).getLong("export_id");
    kith.awaitExport(user, id, "expired");

    kith.get("/me/exports/" + id + "/download", user.access()).problem(410, "export_expired");
    kith.post("/me/export", user.access(), null).expect(202);
  }
}
