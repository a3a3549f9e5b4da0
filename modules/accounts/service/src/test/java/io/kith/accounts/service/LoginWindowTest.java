package io.kith.accounts.service;

import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Throttled logins open again when the window ends (a short window here, long enough that three Argon2 checks fit in
 * it on a loaded CI machine).
 */
class LoginWindowTest extends AccountsTestBase {

  private static final String PASSWORD = "correct horse battery";
  private static final int WINDOW_SECONDS = 6;

  @Override
  protected JsonObject overrides() {
    return new JsonObject().put("accounts", new JsonObject()
        .put("login-max-failures-per-account", 3)
        .put("login-max-failures-per-address", 3)
        .put("login-window-seconds", WINDOW_SECONDS));
  }

  @Test
  @DisplayName("after the throttling window ends, the owner logs in with the right password")
  void ownerLogsInAfterWindow() throws Exception {
    String name = newUsername();
    long id = idOf(register(new JsonObject().put("username", name)));
    for (int i = 0; i < 3; i++) {
      failsWith("invalid_credentials", accounts.login(new JsonObject().put("login", name)
          .put("password", "wrong password " + i), newAddress()));
    }
    long throttledAt = System.currentTimeMillis();
    Throwable throttled = failsWith("login_throttled", accounts.login(new JsonObject().put("login", name)
        .put("password", PASSWORD), newAddress()));
    long retryAfter = debugInfo(throttled).getJsonObject(Failures.EXTRA).getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= WINDOW_SECONDS, "retry_after " + retryAfter);

    AtomicReference<JsonObject> tokens = new AtomicReference<>();
    poll("the owner's login to be accepted again", Duration.ofSeconds(WINDOW_SECONDS + 15), () ->
        accounts.login(new JsonObject().put("login", name).put("password", PASSWORD), newAddress())
            .map(t -> {
              tokens.set(t);
              return true;
            })
            .recover(e -> "login_throttled".equals(Failures.codeOf(e)) ? Future.succeededFuture(false)
                : Future.failedFuture(e)));
    assertEquals(id, tokens.get().getLong("user_id"));
    // it did not open before the window could have ended
    assertTrue(System.currentTimeMillis() - throttledAt >= 500, "opened too early");
  }

  @Test
  @DisplayName("after the window ends, a throttled client address may log in again")
  void addressOpensAfterWindow() throws Exception {
    String name = newUsername();
    register(new JsonObject().put("username", name));
    String address = newAddress();
    for (int i = 0; i < 3; i++) {
      failsWith("invalid_credentials", accounts.login(new JsonObject().put("login", newUsername())
          .put("password", "wrong password " + i), address));
    }
    failsWith("login_throttled", accounts.login(new JsonObject().put("login", name).put("password", PASSWORD),
        address));
    poll("the address to be let in again", Duration.ofSeconds(WINDOW_SECONDS + 15), () ->
        accounts.login(new JsonObject().put("login", name).put("password", PASSWORD), address)
            .map(t -> true)
            .recover(e -> "login_throttled".equals(Failures.codeOf(e)) ? Future.succeededFuture(false)
                : Future.failedFuture(e)));
  }
}
