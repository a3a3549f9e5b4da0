package io.kith.relations.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.testkit.KithTestKit;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Deploys accounts and relations on the test stores once per class and calls relations through its event-bus proxy.
 * Each test registers its own users.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RelationsTestBase {

  protected Vertx vertx;
  protected Platform platform;
  protected AccountsService accounts;
  protected RelationsService relations;

  @BeforeAll
  void deploy() throws Exception {
    vertx = Vertx.vertx();
    platform = await(KithTestKit.platform(vertx, new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000))));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule()));
    accounts = AccountsService.proxy(vertx);
    relations = RelationsService.proxy(vertx);
  }

  @AfterAll
  void undeploy() throws Exception {
    if (platform != null) {
      await(platform.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  protected static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  protected static Throwable failsWith(String code, Future<?> future) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(future));
    assertEquals(code, Failures.codeOf(e.getCause()), "failure: " + e.getCause());
    return e.getCause();
  }

  /** Registers a fresh user and returns their id. */
  protected long newUser() throws Exception {
    String name = "r" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    JsonObject r = await(accounts.register(new JsonObject().put("username", name)
        .put("password", "correct horse battery"), "test-" + UUID.randomUUID()));
    return r.getJsonObject("user").getLong("id");
  }

  /** Registers a fresh user who requires approval of followers. */
  protected long newPrivateUser() throws Exception {
    long id = newUser();
    await(accounts.updateProfile(id, new JsonObject().put("settings", new JsonObject().put("follow_approval", true))));
    return id;
  }
}
