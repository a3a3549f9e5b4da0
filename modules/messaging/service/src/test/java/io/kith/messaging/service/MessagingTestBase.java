package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.api.RelationsService;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Deploys accounts, relations and messaging on the test stores once per class and calls messaging through its
 * event-bus proxy. Each test makes its own users.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MessagingTestBase extends ModuleTestBase {

  /** The recall window of this class, short enough to wait out. */
  protected static final int RECALL_SECONDS = 2;

  protected AccountsService accounts;
  protected RelationsService relations;
  protected MessagingService messaging;
  protected MessagingInternal messagingInternal;

  /** Overrides of the {@code messaging} configuration for this class. */
  protected JsonObject messagingConfig() {
    return new JsonObject();
  }

  @BeforeAll
  void deploy() throws Exception {
    startPlatform(new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000).put("argon2-max-queued", 100_000))
        .put("messaging", new JsonObject().put("recall-seconds", RECALL_SECONDS).put("window-size", 10)
            .mergeIn(messagingConfig())));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new MessagingModule()));
    accounts = AccountsService.proxy(vertx);
    relations = RelationsService.proxy(vertx);
    messaging = MessagingService.proxy(vertx);
    messagingInternal = MessagingInternal.proxy(vertx);
  }

  protected List<Long> newUsers(int n) throws Exception {
    return TestUsers.newUsers(accounts::register, "m", n, 8);
  }


  protected static JsonObject text(String text) {
    return new JsonObject().put("client_id", UUID.randomUUID().toString()).put("text", text);
  }

  protected JsonObject send(long from, long to, String text) throws Exception {
    JsonObject reply = await(messaging.send(from, to, text(text)));
    assertFalse(reply.getBoolean("duplicate"));
    return reply.getJsonObject("message");
  }

  protected static List<Long> seqs(JsonObject page) {
    List<Long> out = new ArrayList<>();
    page.getJsonArray("items").forEach(m -> out.add(((JsonObject) m).getLong("seq")));
    return out;
  }

  protected static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i <= to; i++) {
      out.add(i);
    }
    return out;
  }

}
