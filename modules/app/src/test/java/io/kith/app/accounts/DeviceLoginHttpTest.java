package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Reply;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Outbox;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.kith.app.accounts.AccountsKith.API;
import static io.kith.app.accounts.AccountsKith.MAX_FAILURES_PER_ACCOUNT;
import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Device tokens and the failed-login throttle: someone guessing a password cannot lock the owner out of a device that
 * logged in before, and the throttle does not tell which email belongs to which username. The window is long here so
 * that no count resets while a test runs.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Login with a device token over HTTP (POST /api/v1/auth/login)")
class DeviceLoginHttpTest {

  private static final long WINDOW = 900;

  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start(new JsonObject().put("accounts",
        new JsonObject().put("login-window-seconds", (int) WINDOW)));
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** POST /api/v1/auth/login with a device token, from a fresh address. */
  private Reply login(String login, String password, Object deviceToken) {
    return kith.call(HttpMethod.POST, API + "/auth/login", null, newAddress(),
        new JsonObject().put("login", login).put("password", password).put("device_token", deviceToken));
  }

  /** A successful login of {@code user} without a device token; returns the device token it was given. */
  private String deviceOf(User user) {
    String token = kith.login(user.username(), user.password(), newAddress()).expect(200).getString("device_token");
    assertNotNull(token, "a login hands out a device token");
    return token;
  }

  /** Wrong passwords for {@code login}, each from another address, until the account-wide limit is reached. */
  private void guessUntilThrottled(String login) {
    for (int i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      kith.login(login, "wrong-password-" + i, newAddress()).problem(401, "invalid_credentials");
    }
    kith.login(login, "wrong-password-again", newAddress()).throttled("login_throttled", WINDOW);
  }

  /** Asserts a 200 for {@code user} whose access token works; returns the body. */
  private JsonObject assertLogsIn(User user, Reply reply) {
    JsonObject tokens = reply.expect(200);
    assertEquals(user.id(), tokens.getLong("user_id"), tokens.encode());
    assertEquals(user.id(), kith.get("/me", tokens.getString("access_token")).expect(200).getLong("id"));
    return tokens;
  }

  @Test
  @DisplayName("wrong passwords from other addresses lock the account, but the owner's device that logged in before "
      + "still logs in with the right password, and the attacker's next guess is still refused")
  void ownerDeviceLogsInDuringAnAttack() {
    User owner = kith.register();
    String device = deviceOf(owner);

    guessUntilThrottled(owner.username());

    JsonObject tokens = assertLogsIn(owner, login(owner.username(), owner.password(), device));
    assertEquals(device, tokens.getString("device_token"), "a known device keeps its token");
    // the owner's success gave the attacker nothing: the account-wide count stands
    kith.login(owner.username(), owner.password(), newAddress()).throttled("login_throttled", WINDOW);
    kith.login(owner.email(), "another-guess", newAddress()).throttled("login_throttled", WINDOW);
  }

  @Test
  @DisplayName("an owner without a device token is throttled with the account, as before device tokens")
  void ownerWithoutDeviceTokenIsThrottled() {
    User owner = kith.register();
    guessUntilThrottled(owner.username());

    // by any identifier of the account, from any address
    for (String login : new String[] {owner.username(), owner.email(), owner.phone()}) {
      kith.login(login, owner.password(), newAddress()).throttled("login_throttled", WINDOW);
    }
  }

  @Test
  @DisplayName("wrong passwords sent with a device token throttle that device only, not the account or its other "
      + "devices")
  void deviceThrottleIsTheDevicesOwn() {
    User owner = kith.register();
    String laptop = deviceOf(owner);
    String phone = deviceOf(owner);
    assertNotEquals(laptop, phone, "each login without a token gets its own device token");

    for (int i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      login(owner.username(), "wrong-password-" + i, laptop).problem(401, "invalid_credentials");
    }
    login(owner.username(), owner.password(), laptop).throttled("login_throttled", WINDOW);

    assertLogsIn(owner, login(owner.username(), owner.password(), phone));
    assertLogsIn(owner, kith.login(owner.username(), owner.password(), newAddress()));
    // and the laptop stays throttled
    login(owner.email(), owner.password(), laptop).throttled("login_throttled", WINDOW);
  }

  /** Asserts that {@code token} no longer escapes the account's throttle: it was forgotten. */
  private void assertForgotten(User owner, String password, String token) {
    guessUntilThrottled(owner.username());
    login(owner.username(), password, token).throttled("login_throttled", WINDOW);
  }

  @Test
  @DisplayName("a device token forgotten by logging out everywhere no longer escapes the account's throttle")
  void logoutEverywhereForgetsDevices() {
    User owner = kith.register();
    String stolen = deviceOf(owner);

    kith.post("/auth/logout-all", owner.access(), null).expectNoContent();

    assertForgotten(owner, owner.password(), stolen);
  }

  @Test
  @DisplayName("logging out everywhere also deletes the forgotten devices' failed-login counters")
  void forgottenDeviceCountersGo() {
    User owner = kith.register();
    String device = deviceOf(owner);
    login(owner.username(), "wrong-password", device).problem(401, "invalid_credentials");
    // the counter of the device's own throttle (accounts README, Redis keys); the window outlives the test
    String counter = "rl:accounts:login-fail:dev:" + owner.id() + ":" + Sessions.sha256(device);
    assertEquals(1L, exists(counter), "the wrong password was counted for the device");

    kith.post("/auth/logout-all", owner.access(), null).expectNoContent();
    assertEquals(0L, exists(counter), "the forgotten device's counter is gone");
  }

  private long exists(String key) {
    return Await.result(kith.kith().platform().redis().send(Request.cmd(Command.EXISTS).arg(key))).toLong();
  }

  @Test
  @DisplayName("a password change forgets the device tokens: an old one no longer escapes the account's throttle")
  void passwordChangeForgetsDevices() {
    User owner = kith.register();
    String old = deviceOf(owner);
    String fresh = owner.password() + "-new";

    kith.post("/me/password", owner.access(), new JsonObject().put("current_password", owner.password())
        .put("new_password", fresh)).expectNoContent();

    assertForgotten(owner, fresh, old);
  }

  @Test
  @DisplayName("a password reset forgets the device tokens: an old one no longer escapes the account's throttle")
  void passwordResetForgetsDevices() {
    User owner = kith.register();
    String old = deviceOf(owner);
    String fresh = owner.password() + "-reset";

    kith.post("/auth/password-reset", null, new JsonObject().put("identifier", owner.email())).expect(202);
    String[] code = new String[1];
    kith.eventually("a reset code in the outbox", () -> {
      JsonObject message = Outbox.newest(owner.email(), "reset_code");
      code[0] = message == null ? null : Inboxes.code(message.getString("text"));
      return Future.succeededFuture(code[0] != null);
    });
    kith.post("/auth/password-reset/confirm", null, new JsonObject().put("identifier", owner.email())
        .put("code", code[0]).put("new_password", fresh)).expectNoContent();

    assertForgotten(owner, fresh, old);
  }

  @Test
  @DisplayName("malformed, unknown and other accounts' device tokens are ignored: the login gets a new token, and "
      + "once the account is throttled they are refused like a login without one")
  void badDeviceTokensAreIgnored() {
    User owner = kith.register();
    User other = kith.register();
    String othersToken = deviceOf(other);
    String[] bad = {"", "x", "A".repeat(43), "!".repeat(43), othersToken, "A".repeat(512)};

    for (String token : bad) {
      JsonObject tokens = assertLogsIn(owner, login(owner.username(), owner.password(), token));
      assertNotEquals(token, tokens.getString("device_token"), "a new token instead of " + token);
    }
    guessUntilThrottled(owner.username());
    for (String token : bad) {
      login(owner.username(), owner.password(), token).throttled("login_throttled", WINDOW);
    }
    // a token that is not a string is bad input, said so
    login(owner.username(), owner.password(), 42).problem(400, "validation_failed", "device_token");
    login(owner.username(), owner.password(), "A".repeat(513)).problem(400, "validation_failed", "device_token");
  }

  @Test
  @DisplayName("the throttle does not link identifiers: after a username is throttled, another account's email gets "
      + "the usual 401 and logs in, while the throttled account's own email gets 429")
  void throttleDoesNotLinkEmailToUsername() {
    User target = kith.register();
    User other = kith.register();

    guessUntilThrottled(target.username());

    kith.login(other.email(), "wrong-password", newAddress()).problem(401, "invalid_credentials");
    kith.login(unique("nobody") + "@example.test", "wrong-password", newAddress())
        .problem(401, "invalid_credentials");
    assertLogsIn(other, kith.login(other.email(), other.password(), newAddress()));
    kith.login(target.email(), "wrong-password", newAddress()).throttled("login_throttled", WINDOW);
    kith.login(target.email(), target.password(), newAddress()).throttled("login_throttled", WINDOW);
  }
}
