package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.unique;

/**
 * A node with no trusted proxies: X-Forwarded-For is whatever the client wrote, so it must not decide the address
 * that failed logins are counted against. Every request of this class comes from 127.0.0.1; that address is
 * throttled by the test, so the class holds this one test and a window of its own.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Login throttling on a node that trusts no proxy")
class UntrustedForwardingHttpTest {

  private static final int MAX_FAILURES_PER_ADDRESS = 3;
  private static final int WINDOW_SECONDS = 10;
  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start(new JsonObject()
        .put("http", new JsonObject().put("trusted-proxies", new JsonArray()))
        .put("accounts", new JsonObject()
            .put("login-max-failures-per-address", MAX_FAILURES_PER_ADDRESS)
            .put("login-window-seconds", WINDOW_SECONDS)
            .put("register-max-per-address", 1000)));
    // the test JVM shares one Redis: failures an earlier class made from 127.0.0.1 (under its own window) are not
    // this test's to count
    Await.result(kith.kith().platform().redisApi().del(List.of("rl:accounts:login-fail:addr:127.0.0.1")));
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("X-Forwarded-For from an untrusted peer is ignored: failures count against the peer's address")
  void forwardedForIgnored() {
    User user = kith.register();
    for (int i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      // a fresh forwarded address and an unknown account each time: were the header believed, no limit would be hit
      kith.login(unique("nobody"), "wrong-password", newAddress()).problem(401, "invalid_credentials");
    }

    kith.login(user.username(), user.password(), newAddress()).throttled("login_throttled", WINDOW_SECONDS);
    kith.login(user.username(), user.password(), null).throttled("login_throttled", WINDOW_SECONDS);
  }
}
