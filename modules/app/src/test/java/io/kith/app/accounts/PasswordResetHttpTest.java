package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Reply;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.newEmail;
import static io.kith.app.accounts.AccountsKith.newPhone;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Password reset over HTTP (POST /api/v1/auth/password-reset and /confirm), codes read from real mail")
class PasswordResetHttpTest {

  static final int MAX_ATTEMPTS = 3;
  static final int RESETS_PER_IDENTIFIER = 3;
  static final int RESETS_PER_ADDRESS = 6;
  static final int LOGIN_WINDOW_SECONDS = 3600;

  private Inboxes inboxes;
  private AccountsKith kith;
  private AccountsKith shortCodes;

  @BeforeAll
  void start() {
    inboxes = new Inboxes();
    JsonObject accounts = new JsonObject()
        .put("verification-max-attempts", MAX_ATTEMPTS)
        .put("reset-requests-per-identifier", RESETS_PER_IDENTIFIER)
        .put("reset-requests-per-address", RESETS_PER_ADDRESS)
        // a failed-login window no test outlives: a lock lifted within it was lifted by the reset
        .put("login-window-seconds", LOGIN_WINDOW_SECONDS);
    kith = AccountsKith.start(inboxes.config().put("accounts", accounts));
    // a second node whose codes live one second, for the expiry refusals
    shortCodes = AccountsKith.start(inboxes.config().put("accounts", accounts.copy()
        .put("reset-code-ttl-seconds", 1).put("verification-code-ttl-seconds", 1)));
  }

  @AfterAll
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {kith, shortCodes, inboxes}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static Reply request(AccountsKith node, String identifier, String address) {
    return node.call(io.vertx.core.http.HttpMethod.POST, AccountsKith.API + "/auth/password-reset", null, address,
        new JsonObject().put("identifier", identifier));
  }

  private static Reply confirm(AccountsKith node, String identifier, String code, String password) {
    return node.post("/auth/password-reset/confirm", null, new JsonObject().put("identifier", identifier)
        .put("code", code).put("new_password", password));
  }

  /** A user with a verified email (its registration code used). */
  private User verifiedUser(AccountsKith node, String email) {
    User user = node.register(unique("Rst"), email, null);
    node.confirmCode(user, "email", inboxes.nextMail(email).code()).expect(200);
    return user;
  }

  @Test
  @DisplayName("a reset by email code sets the new password, ends every session and tells the account by mail")
  void resetByEmail() {
    String email = newEmail();
    User user = verifiedUser(kith, email);
    assertEquals("accepted", request(kith, email, newAddress()).expect(202).getString("status"));
    String code = inboxes.nextMail(email).code();

    confirm(kith, email, code, "Brand-new-pass-77").expectNoContent();
    kith.get("/me", user.access()).problem(401, "session_revoked");
    kith.login(user.username(), user.password(), newAddress()).problem(401, "invalid_credentials");
    kith.login(email, "Brand-new-pass-77", newAddress()).expect(200);
    Inboxes.Mail notice = inboxes.nextMail(email);
    assertTrue(notice.text().contains(user.username()), notice.text());
    confirm(kith, email, code, "Another-pass-88").problem(400, "code_invalid");
  }

  @Test
  @DisplayName("a reset by username sends the code to the account's verified email")
  void resetByUsername() {
    String email = newEmail();
    User user = verifiedUser(kith, email);
    request(kith, user.username(), newAddress()).expect(202);
    confirm(kith, user.username(), inboxes.nextMail(email).code(), "Username-path-55").expectNoContent();
    kith.login(user.username(), "Username-path-55", newAddress()).expect(200);
  }

  @Test
  @DisplayName("a reset by phone sends the code by SMS")
  void resetByPhone() {
    String phone = newPhone();
    User user = kith.register(unique("Ph"), null, phone);
    inboxes.nextText(phone);
    request(kith, phone, newAddress()).expect(202);
    JsonObject text = inboxes.nextText(phone);
    assertEquals("reset_code", text.getString("kind"));
    confirm(kith, phone, Inboxes.code(text.getString("text")), "Phone-path-66").expectNoContent();
    kith.login(user.username(), "Phone-path-66", newAddress()).expect(200);
  }

  @Test
  @DisplayName("a reset for an unknown identifier answers exactly as for a known one, and its confirm is code_invalid")
  void unknownIdentifier() {
    String email = newEmail();
    verifiedUser(kith, email);
    Reply known = request(kith, email, newAddress());
    Reply unknown = request(kith, newEmail(), newAddress());
    Reply unknownName = request(kith, unique("Nobody"), newAddress());
    assertEquals(known.status(), unknown.status());
    assertEquals(known.json(), unknown.json());
    assertEquals(known.json(), unknownName.json());
    confirm(kith, unique("Nobody"), "123456", "Whatever-pass-12").problem(400, "code_invalid");
  }

  @Test
  @DisplayName("wrong reset codes are refused, then the code is dead and the password stays")
  void wrongCodes() {
    String email = newEmail();
    User user = verifiedUser(kith, email);
    request(kith, email, newAddress()).expect(202);
    String code = inboxes.nextMail(email).code();
    String wrong = code.equals("000000") ? "111111" : "000000";
    for (int i = 0; i < MAX_ATTEMPTS; i++) {
      confirm(kith, email, wrong, "Never-set-pass-1").problem(400, "code_invalid");
    }
    confirm(kith, email, code, "Never-set-pass-1").problem(400, "code_invalid");
    kith.login(user.username(), user.password(), newAddress()).expect(200);
  }

  @Test
  @DisplayName("a reset code of one account does not reset another")
  void codeOfAnotherAccount() {
    String email = newEmail();
    String otherEmail = newEmail();
    verifiedUser(kith, email);
    User other = verifiedUser(kith, otherEmail);
    request(kith, email, newAddress()).expect(202);
    request(kith, otherEmail, newAddress()).expect(202);
    String code = inboxes.nextMail(email).code();
    String otherCode = inboxes.nextMail(otherEmail).code();
    if (!code.equals(otherCode)) {
      confirm(kith, otherEmail, code, "Stolen-code-pass-9").problem(400, "code_invalid");
    }
    kith.login(other.username(), other.password(), newAddress()).expect(200);
  }

  @Test
  @DisplayName("an owner locked out by others' wrong passwords gets in again with a reset code sent to the verified "
      + "email, without waiting for the window")
  void resetUnlocksAThrottledAccount() {
    String email = newEmail();
    User user = verifiedUser(kith, email);
    // the account's limit, each guess from another address, so that only the account's counter fills
    for (int i = 0; i < AccountsKith.MAX_FAILURES_PER_ACCOUNT; i++) {
      kith.login(user.username(), "guess-" + i, newAddress()).problem(401, "invalid_credentials");
    }
    kith.login(user.username(), user.password(), newAddress()).throttled("login_throttled", LOGIN_WINDOW_SECONDS);

    request(kith, email, newAddress()).expect(202);
    confirm(kith, email, inboxes.nextMail(email).code(), "Unlocked-pass-31").expectNoContent();
    kith.login(user.username(), "Unlocked-pass-31", newAddress()).expect(200);
  }

  @Test
  @DisplayName("a weak new password is 400 weak_password and leaves the code usable")
  void weakPassword() {
    String email = newEmail();
    verifiedUser(kith, email);
    request(kith, email, newAddress()).expect(202);
    String code = inboxes.nextMail(email).code();
    confirm(kith, email, code, "password").problem(400, "weak_password", "new_password");
    confirm(kith, email, code, "Strong-enough-pass-3").expectNoContent();
  }

  @Test
  @DisplayName("reset requests past the limit per identifier are 429 with retry_after, for unknown identifiers too")
  void limitPerIdentifier() {
    String unknown = newEmail();
    String email = newEmail();
    verifiedUser(kith, email);
    for (int i = 0; i < RESETS_PER_IDENTIFIER; i++) {
      request(kith, unknown, newAddress()).expect(202);
      request(kith, email, newAddress()).expect(202);
    }
    request(kith, unknown, newAddress()).throttled("rate_limited", 3600);
    request(kith, email, newAddress()).throttled("rate_limited", 3600);
  }

  @Test
  @DisplayName("reset requests past the limit per client address are 429 with retry_after")
  void limitPerAddress() {
    String address = newAddress();
    for (int i = 0; i < RESETS_PER_ADDRESS; i++) {
      request(kith, newEmail(), address).expect(202);
    }
    request(kith, newEmail(), address).throttled("rate_limited", 3600);
  }

  @Test
  @DisplayName("an expired reset code is code_expired, and so is an expired verification code")
  void expiredCodes() {
    String email = newEmail();
    User user = shortCodes.register(unique("Exp"), email, null);
    String verificationCode = inboxes.nextMail(email).code();
    request(shortCodes, email, newAddress()).expect(202);
    String resetCode = inboxes.nextMail(email).code();
    long expiredAt = System.currentTimeMillis() + 1_500;
    shortCodes.eventually("the one-second codes to expire",
        () -> io.vertx.core.Future.succeededFuture(System.currentTimeMillis() > expiredAt));

    confirm(shortCodes, email, resetCode, "Too-late-pass-44").problem(400, "code_expired");
    shortCodes.confirmCode(user, "email", verificationCode).problem(400, "code_expired");
    shortCodes.login(user.username(), user.password(), newAddress()).expect(200);
  }
}
