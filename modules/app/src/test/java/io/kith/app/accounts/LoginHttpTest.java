package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Reply;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
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

import static io.kith.app.accounts.AccountsKith.API;
import static io.kith.app.accounts.AccountsKith.LOGIN_WINDOW_SECONDS;
import static io.kith.app.accounts.AccountsKith.MAX_FAILURES_PER_ACCOUNT;
import static io.kith.app.accounts.AccountsKith.MAX_FAILURES_PER_ADDRESS;
import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Login and its throttling over HTTP (POST /api/v1/auth/login)")
class LoginHttpTest {

  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** Asserts a successful login of {@code user} and that its access token works. */
  private JsonObject assertLogsIn(User user, Reply reply) {
    JsonObject tokens = reply.expect(200);
    assertEquals(user.id(), tokens.getLong("user_id"), tokens.encode());
    assertEquals("Bearer", tokens.getString("token_type"));
    assertTrue(tokens.getInteger("expires_in") > 0, tokens.encode());
    assertNotEquals(user.sessionId(), tokens.getString("session_id"), "a login opens a new session");
    assertEquals(user.id(), kith.get("/me", tokens.getString("access_token")).expect(200).getLong("id"));
    return tokens;
  }

  @Test
  @DisplayName("a user logs in by username, email or phone, in any case and any phone formatting")
  void loginByAnyIdentifier() {
    User user = kith.register();
    String address = newAddress();
    String digits = user.phone().substring(3);

    assertLogsIn(user, kith.login(user.username(), user.password(), address));
    assertLogsIn(user, kith.login(user.username().toUpperCase(Locale.ROOT), user.password(), address));
    assertLogsIn(user, kith.login(user.email().toUpperCase(Locale.ROOT), user.password(), address));
    assertLogsIn(user, kith.login(user.phone(), user.password(), address));
    assertLogsIn(user, kith.login("+44 " + digits.substring(0, 4) + "-" + digits.substring(4), user.password(),
        address));
  }

  @Test
  @DisplayName("a wrong password and an unknown account get the same 401 invalid_credentials")
  void wrongPassword() {
    User user = kith.register();
    String address = newAddress();

    JsonObject wrong = kith.login(user.username(), user.password() + "x", address).problem(401, "invalid_credentials");
    JsonObject unknown = kith.login(unique("nobody"), user.password(), address).problem(401, "invalid_credentials");

    assertEquals(wrong.getString("detail"), unknown.getString("detail"), "nothing tells the two apart");
    assertEquals(wrong.getString("title"), unknown.getString("title"));
    kith.login(user.email(), "", address).problem(400, "validation_failed", "password");
    kith.call(HttpMethod.POST, API + "/auth/login", null, address, new JsonObject().put("password", "x"))
        .problem(400, "validation_failed", "login");
  }

  @Test
  @DisplayName("past the failed-login limit of an account even its owner gets 429 login_throttled with Retry-After, "
      + "and logs in again once the window has passed")
  void accountThrottled() {
    User user = kith.register();
    String address = newAddress();
    for (int i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      kith.login(user.username(), "wrong-password-" + i, address).problem(401, "invalid_credentials");
    }

    kith.login(user.username(), user.password(), address).throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    // the limit is the account's, whatever the address and identifier
    kith.login(user.email(), user.password(), newAddress()).throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    // and it is only that account's: another user from the same address is not affected
    User other = kith.register();
    assertLogsIn(other, kith.login(other.username(), other.password(), address));

    Reply[] last = new Reply[1];
    kith.eventually("the owner to log in after the window", () ->
        kith.send(HttpMethod.POST, API + "/auth/login", null, address,
            new JsonObject().put("login", user.username()).put("password", user.password()))
            .map(reply -> {
              last[0] = reply;
              return reply.status() != 429;
            }));
    assertLogsIn(user, last[0]);
  }

  @Test
  @DisplayName("failed logins are also limited per client address, taken from X-Forwarded-For of a trusted proxy")
  void addressThrottled() {
    String address = newAddress();
    for (int i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      // a different (unknown) account each time: only the address limit can be reached
      kith.login(unique("nobody"), "wrong-password", address).problem(401, "invalid_credentials");
    }
    User user = kith.register();

    kith.login(user.username(), user.password(), address).throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    // entries left of the right-most one are the client's to choose: prepending addresses does not escape
    kith.login(user.username(), user.password(), newAddress() + ", " + address)
        .throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    // a trusted proxy named right of the client is skipped
    kith.login(user.username(), user.password(), address + ", 127.0.0.1")
        .throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    // the same person behind another address logs in: the proxy's own address (127.0.0.1) was never counted
    assertLogsIn(user, kith.login(user.username(), user.password(), newAddress()));
    assertLogsIn(user, kith.login(user.username(), user.password(), address + ", " + newAddress()));
  }

  @Test
  @DisplayName("X-Forwarded-For split over several header lines is one list: a line the client wrote first does not "
      + "hide the address the proxy added last")
  void forwardedForOverSeveralLines() {
    String address = newAddress();
    for (int i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      kith.login(unique("nobody"), "wrong-password", address).problem(401, "invalid_credentials");
    }
    User user = kith.register();

    // a proxy that adds its own header line (rather than extending the client's) sends the client's line first
    kith.loginForwardedFor(user.username(), user.password(), newAddress(), address)
        .throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    kith.loginForwardedFor(user.username(), user.password(), newAddress() + ", " + newAddress(), address + ", 127.0.0.1")
        .throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    assertLogsIn(user, kith.loginForwardedFor(user.username(), user.password(), address, newAddress()));
  }

  @Test
  @DisplayName("an X-Forwarded-For entry with a port counts as its address, whatever the port")
  void forwardedForWithPort() {
    String address = newAddress();
    for (int i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      // as some load balancers write it: the client's address and source port, a new port per connection
      kith.login(unique("nobody"), "wrong-password", address + ":" + (40_000 + i)).problem(401, "invalid_credentials");
    }
    User user = kith.register();

    kith.login(user.username(), user.password(), address).throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    kith.login(user.username(), user.password(), address + ":50000").throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    assertLogsIn(user, kith.login(user.username(), user.password(), newAddress() + ":50000"));
  }

  @Test
  @DisplayName("wrong passwords sent all at once cannot exceed the per-account limit")
  void concurrentFailuresLimited() {
    User user = kith.register();
    List<Future<Reply>> attempts = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      attempts.add(kith.send(HttpMethod.POST, API + "/auth/login", null, newAddress(),
          new JsonObject().put("login", user.username()).put("password", "wrong-password-" + i)));
    }
    Await.result(Future.join(new ArrayList<>(attempts)));

    long checked = attempts.stream().filter(f -> f.result().status() == 401).count();
    long throttled = attempts.stream().filter(f -> f.result().status() == 429).count();
    assertEquals(attempts.size(), checked + throttled, "every attempt is refused");
    assertTrue(checked <= MAX_FAILURES_PER_ACCOUNT, checked + " passwords were checked; the limit is "
        + MAX_FAILURES_PER_ACCOUNT);
  }
}
