package io.kith.accounts.service;

import io.kith.platform.error.Failures;
import io.kith.platform.token.AccessClaims;
import io.kith.platform.token.SessionInfo;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Login, throttling of failed logins, the tokens a login returns, and password changes. The window is long here (so
 * that nothing resets by itself while a test runs); the owner logging in after the window is in
 * {@link LoginWindowTest}.
 */
class LoginTest extends AccountsTestBase {

  private static final String PASSWORD = "correct horse battery";
  private static final int PER_ACCOUNT = 3;
  private static final int PER_ADDRESS = 5;

  @Override
  protected JsonObject overrides() {
    return new JsonObject().put("accounts", new JsonObject()
        .put("login-max-failures-per-account", PER_ACCOUNT)
        .put("login-max-failures-per-address", PER_ADDRESS)
        .put("login-window-seconds", 900));
  }

  private JsonObject login(String login, String password) throws Exception {
    return await(accounts.login(new JsonObject().put("login", login).put("password", password), newAddress()));
  }

  private static JsonObject credentials(String login, String password) {
    return new JsonObject().put("login", login).put("password", password);
  }

  @Test
  @DisplayName("a user logs in by username in any case, by email in any case and by phone written differently")
  void loginByUsernameEmailOrPhone() throws Exception {
    String name = newUsername();
    String phone = newPhone(); // +8613xxxxxxxxx
    long id = idOf(register(new JsonObject().put("username", name).put("email", name + "@Example.org")
        .put("phone", phone)));

    assertEquals(id, login(name, PASSWORD).getLong("user_id"));
    assertEquals(id, login(name.toUpperCase(), PASSWORD).getLong("user_id"));
    assertEquals(id, login(name.toUpperCase() + "@EXAMPLE.ORG", PASSWORD).getLong("user_id"));
    assertEquals(id, login("  " + name + "@example.org ", PASSWORD).getLong("user_id"));
    String spaced = phone.substring(0, 3) + " " + phone.substring(3, 6) + "-" + phone.substring(6, 10) + "-"
        + phone.substring(10);
    assertEquals(id, login(spaced, PASSWORD).getLong("user_id"));
    assertEquals(id, login("00" + phone.substring(1), PASSWORD).getLong("user_id"));
    assertEquals(id, login(phone.substring(0, 3) + " (" + phone.substring(3, 6) + ") " + phone.substring(6, 10) + "."
        + phone.substring(10), PASSWORD).getLong("user_id"));
  }

  @Test
  @DisplayName("a wrong password and an unknown account get the same invalid_credentials answer")
  void wrongPasswordAndUnknownAccountLookTheSame() throws Exception {
    String name = newUsername();
    register(new JsonObject().put("username", name));

    Throwable wrong = failsWith("invalid_credentials",
        accounts.login(credentials(name, "not the password at all"), newAddress()));
    Throwable unknown = failsWith("invalid_credentials",
        accounts.login(credentials(newUsername(), "not the password at all"), newAddress()));
    Throwable unknownEmail = failsWith("invalid_credentials",
        accounts.login(credentials(newUsername() + "@example.org", PASSWORD), newAddress()));
    assertEquals(wrong.getMessage(), unknown.getMessage());
    assertEquals(wrong.getMessage(), unknownEmail.getMessage());
    assertEquals(((ServiceException) wrong).failureCode(), ((ServiceException) unknown).failureCode());
    assertEquals(debugInfo(wrong), debugInfo(unknown));
    // the right password still works afterwards
    assertNotNull(login(name, PASSWORD).getString("access_token"));
  }

  @Test
  @DisplayName("past the per-account limit of failed logins, even the right password is refused with retry_after")
  void throttledPerAccount() throws Exception {
    String name = newUsername();
    register(new JsonObject().put("username", name));

    // failures from different addresses: the per-address limit is not what stops them
    for (int i = 0; i < PER_ACCOUNT; i++) {
      failsWith("invalid_credentials", accounts.login(credentials(name, "wrong password " + i), newAddress()));
    }
    Throwable throttled = failsWith("login_throttled", accounts.login(credentials(name, PASSWORD), newAddress()));
    assertEquals(429, ((ServiceException) throttled).failureCode());
    long retryAfter = debugInfo(throttled).getJsonObject(Failures.EXTRA).getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= 900, "retry_after " + retryAfter);
    // another spelling of the same account is the same account
    failsWith("login_throttled", accounts.login(credentials(name.toUpperCase(), PASSWORD), newAddress()));
    failsWith("login_throttled", accounts.login(credentials(name, "wrong again"), newAddress()));
  }

  @Test
  @DisplayName("failed logins from one client address across different accounts throttle that address only")
  void throttledPerAddress() throws Exception {
    List<JsonObject> users = registerMany(3);
    String a = users.get(0).getJsonObject("user").getString("username");
    String b = users.get(1).getJsonObject("user").getString("username");
    String c = users.get(2).getJsonObject("user").getString("username");
    String address = newAddress();

    // 2 + 2 + 1 failures: no account reaches its own limit of 3, the address reaches its limit of 5
    failsWith("invalid_credentials", accounts.login(credentials(a, "wrong password 1"), address));
    failsWith("invalid_credentials", accounts.login(credentials(a, "wrong password 2"), address));
    failsWith("invalid_credentials", accounts.login(credentials(b, "wrong password 1"), address));
    failsWith("invalid_credentials", accounts.login(credentials(b, "wrong password 2"), address));
    failsWith("invalid_credentials", accounts.login(credentials(newUsername(), "wrong password 1"), address));

    Throwable throttled = failsWith("login_throttled", accounts.login(credentials(c, PASSWORD), address));
    assertTrue(debugInfo(throttled).getJsonObject(Failures.EXTRA).getLong("retry_after") >= 1);
    failsWith("login_throttled", accounts.login(credentials(a, PASSWORD), address));
    // the same accounts from another address are fine
    assertNotNull(await(accounts.login(credentials(a, PASSWORD), newAddress())).getString("access_token"));
    assertNotNull(await(accounts.login(credentials(c, PASSWORD), newAddress())).getString("access_token"));
  }

  @Test
  @DisplayName("a successful login resets the account's failed-login counter")
  void successResetsCounter() throws Exception {
    String name = newUsername();
    register(new JsonObject().put("username", name));

    for (int i = 0; i < PER_ACCOUNT - 1; i++) {
      failsWith("invalid_credentials", accounts.login(credentials(name, "wrong password " + i), newAddress()));
    }
    login(name, PASSWORD);
    // without the reset, these would make PER_ACCOUNT + 1 failures within the window
    for (int i = 0; i < PER_ACCOUNT - 1; i++) {
      failsWith("invalid_credentials", accounts.login(credentials(name, "wrong password again " + i), newAddress()));
    }
    assertNotNull(login(name, PASSWORD).getString("access_token"));
  }

  @Test
  @DisplayName("the tokens a login returns verify, belong to a live session and carry the device label")
  void loginTokensWork() throws Exception {
    String name = newUsername();
    long id = newUserNamed(name);
    JsonObject tokens = await(accounts.login(credentials(name, PASSWORD).put("device", "Pixel 8 test"), newAddress()));
    assertEquals("Bearer", tokens.getString("token_type"));
    assertEquals(id, tokens.getLong("user_id"));
    assertTrue(tokens.getInteger("expires_in") > 0);

    AccessClaims claims = await(platform.accessTokens().verify(tokens.getString("access_token")));
    assertEquals(id, claims.userId());
    assertEquals(tokens.getString("session_id"), claims.sessionId());
    assertTrue(await(platform.sessions().isActive(id, claims.sessionId())));
    List<SessionInfo> sessions = await(platform.sessions().list(id));
    assertTrue(sessions.stream().anyMatch(s -> s.id().equals(claims.sessionId()) && s.device().equals("Pixel 8 test")),
        "sessions: " + sessions);
    assertTrue(tokens.getString("refresh_token").startsWith(id + "."));
  }

  @Test
  @DisplayName("reusing a refresh token after it was rotated revokes the whole session")
  void refreshReuseRevokesSession() throws Exception {
    String name = newUsername();
    long id = newUserNamed(name);
    JsonObject tokens = login(name, PASSWORD);
    String sid = tokens.getString("session_id");
    String first = tokens.getString("refresh_token");

    TokenPair rotated = await(platform.sessions().refresh(first));
    assertEquals(sid, rotated.sessionId());
    assertNotEquals(first, rotated.refreshToken());
    assertTrue(await(platform.sessions().isActive(id, sid)));

    failsWith("refresh_token_invalid", platform.sessions().refresh(first));
    assertFalse(await(platform.sessions().isActive(id, sid)));
    // the legitimate holder's newer token is dead too
    failsWith("refresh_token_invalid", platform.sessions().refresh(rotated.refreshToken()));
    // other sessions of the user are untouched, and the user can log in again
    assertTrue(await(platform.sessions().isActive(id, login(name, PASSWORD).getString("session_id"))));
  }

  @Test
  @DisplayName("changing the password refuses a wrong current password and a weak new one")
  void changePasswordRefusals() throws Exception {
    String name = newUsername();
    long id = newUserNamed(name);
    String sid = login(name, PASSWORD).getString("session_id");

    failsWithField("invalid_credentials", "current_password",
        accounts.changePassword(id, "not my password", "a brand new passphrase"));
    failsWithField("weak_password", "new_password", accounts.changePassword(id, PASSWORD, "short"));
    failsWithField("weak_password", "new_password", accounts.changePassword(id, PASSWORD, "password123"));
    failsWithField("weak_password", "new_password", accounts.changePassword(id, PASSWORD, name.toUpperCase()));
    failsWithField("weak_password", "new_password", accounts.changePassword(id, PASSWORD, "y".repeat(129)));

    // nothing changed: the old password still works and the session is alive
    assertTrue(await(platform.sessions().isActive(id, sid)));
    assertNotNull(login(name, PASSWORD).getString("access_token"));
    failsWith("invalid_credentials", accounts.login(credentials(name, "a brand new passphrase"), newAddress()));
  }

  @Test
  @DisplayName("changing the password revokes every session; the new password logs in and the old one does not")
  void changePasswordRevokesSessions() throws Exception {
    String name = newUsername();
    JsonObject registered = register(new JsonObject().put("username", name));
    long id = idOf(registered);
    String s1 = registered.getJsonObject("tokens").getString("session_id");
    JsonObject second = login(name, PASSWORD);
    String s2 = second.getString("session_id");
    assertTrue(await(platform.sessions().isActive(id, s1)));
    assertTrue(await(platform.sessions().isActive(id, s2)));

    await(accounts.changePassword(id, PASSWORD, "a brand new passphrase"));

    assertFalse(await(platform.sessions().isActive(id, s1)));
    assertFalse(await(platform.sessions().isActive(id, s2)));
    assertTrue(await(platform.sessions().list(id)).isEmpty());
    failsWith("refresh_token_invalid", platform.sessions().refresh(second.getString("refresh_token")));
    failsWith("invalid_credentials", accounts.login(credentials(name, PASSWORD), newAddress()));
    assertEquals(id, login(name, "a brand new passphrase").getLong("user_id"));
  }

  /** How many of the outcomes failed with each code ("ok" for successes). */
  private static Map<String, Integer> outcomes(List<? extends Future<?>> all) throws Exception {
    try {
      await(Future.join(all));
    } catch (ExecutionException e) {
      // some failed: counted below
    }
    Map<String, Integer> counts = new TreeMap<>();
    for (Future<?> f : all) {
      counts.merge(f.succeeded() ? "ok" : String.valueOf(Failures.codeOf(f.cause())), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  @DisplayName("many concurrent wrong passwords for one account: at most the per-account limit reach verification")
  void concurrentWrongLoginsPerAccount() throws Exception {
    String name = newUsername();
    register(new JsonObject().put("username", name));

    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      all.add(accounts.login(credentials(name, "wrong password " + i), newAddress()));
    }

    Map<String, Integer> counts = outcomes(all);
    assertEquals(Map.of("invalid_credentials", PER_ACCOUNT, "login_throttled", 20 - PER_ACCOUNT), counts);
    failsWith("login_throttled", accounts.login(credentials(name, PASSWORD), newAddress()));
  }

  @Test
  @DisplayName("many concurrent wrong logins from one address: at most the per-address limit reach verification")
  void concurrentWrongLoginsPerAddress() throws Exception {
    String address = newAddress();

    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      all.add(accounts.login(credentials(newUsername(), "wrong password " + i), address));
    }

    assertEquals(Map.of("invalid_credentials", PER_ADDRESS, "login_throttled", 20 - PER_ADDRESS), outcomes(all));
  }

  @Test
  @DisplayName("many concurrent wrong current passwords in a password change: at most the per-account limit are checked")
  void concurrentWrongCurrentPasswords() throws Exception {
    String name = newUsername();
    long id = newUserNamed(name);

    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      all.add(accounts.changePassword(id, "wrong password " + i, "a brand new passphrase"));
    }

    assertEquals(Map.of("invalid_credentials", PER_ACCOUNT, "login_throttled", 20 - PER_ACCOUNT), outcomes(all));
    failsWith("login_throttled", accounts.login(credentials(name, PASSWORD), newAddress()));
  }

  @Test
  @DisplayName("successful logins do not count against the client address")
  void successesDoNotCountAgainstAddress() throws Exception {
    List<JsonObject> users = registerMany(2);
    String a = users.get(0).getJsonObject("user").getString("username");
    String b = users.get(1).getJsonObject("user").getString("username");
    String address = newAddress();

    // more successes than the address may fail, some of them at once
    List<Future<JsonObject>> together = new ArrayList<>();
    for (int i = 0; i < PER_ADDRESS; i++) {
      together.add(accounts.login(credentials(i % 2 == 0 ? a : b, PASSWORD), address));
    }
    assertEquals(Map.of("ok", PER_ADDRESS), outcomes(together));
    for (int i = 0; i < PER_ADDRESS; i++) {
      await(accounts.login(credentials(a, PASSWORD), address));
    }

    // the address may still fail up to its limit
    for (int i = 0; i < PER_ADDRESS; i++) {
      failsWith("invalid_credentials", accounts.login(credentials(newUsername(), "wrong password " + i), address));
    }
    failsWith("login_throttled", accounts.login(credentials(b, PASSWORD), address));
  }

  @Test
  @DisplayName("a right current password in a password change clears the account's failed-login counter")
  void passwordChangeResetsCounter() throws Exception {
    String name = newUsername();
    long id = newUserNamed(name);
    for (int i = 0; i < PER_ACCOUNT - 1; i++) {
      failsWith("invalid_credentials", accounts.login(credentials(name, "wrong password " + i), newAddress()));
    }

    await(accounts.changePassword(id, PASSWORD, "a brand new passphrase"));

    for (int i = 0; i < PER_ACCOUNT - 1; i++) {
      failsWith("invalid_credentials", accounts.login(credentials(name, "wrong password again " + i), newAddress()));
    }
    assertEquals(id, login(name, "a brand new passphrase").getLong("user_id"));
  }

  private long newUserNamed(String name) throws Exception {
    return idOf(register(new JsonObject().put("username", name)));
  }

  @Test
  @DisplayName("a hash of another cost is replaced at the next successful login, never after a wrong password, and "
      + "never over a password changed meanwhile")
  void outdatedHashIsUpgradedAtLogin() throws Exception {
    String name = newUsername();
    long id = idOf(register(new JsonObject().put("username", name)));
    AccountStore store = new AccountStore(platform.mongo());
    String current = await(store.passwordOf(id));
    assertTrue(current.startsWith("$argon2id$v=19$m=1024,t=1,p=1$"), current); // the test kit's cost
    Passwords older = new Passwords(vertx, 1, 8, 2048, 1);
    try {
      String old = await(older.hash(PASSWORD));
      await(store.setPassword(id, old));

      assertThrows(ExecutionException.class, () -> login(name, "wrong horse battery"));
      assertEquals(old, await(store.passwordOf(id)), "a wrong password rehashed the stored hash");

      assertEquals(id, login(name, PASSWORD).getLong("user_id"));
      poll("the hash at the current cost", Duration.ofSeconds(10), () -> store.passwordOf(id)
          .map(h -> h.startsWith("$argon2id$v=19$m=1024,t=1,p=1$")));
      assertEquals(id, login(name, PASSWORD).getLong("user_id"), "the rehashed password no longer logs in");

      // a rehash that read the hash before a password change leaves the changed password alone
      String changed = await(older.hash("a new password 42"));
      await(store.setPassword(id, changed));
      assertFalse(await(store.rehash(id, old, await(older.hash(PASSWORD)))));
      assertEquals(changed, await(store.passwordOf(id)));
    } finally {
      older.close();
    }
  }
}
