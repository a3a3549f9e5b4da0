package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.newEmail;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Scheduling and cancelling an account's deletion over HTTP (DELETE /api/v1/me, POST /me/deletion/cancel)")
class DeletionHttpTest {

  private static final long DAY = 86_400_000L;

  private Inboxes inboxes;
  private AccountsKith kith;
  /** A second node whose codes live one second, for the expired deletion code. */
  private AccountsKith shortCodes;

  @BeforeAll
  void start() {
    inboxes = new Inboxes();
    kith = AccountsKith.start(inboxes.config());
    shortCodes = AccountsKith.start(inboxes.config().put("accounts",
        new JsonObject().put("verification-code-ttl-seconds", 1)));
  }

  @AfterAll
  void stop() throws Exception {
    if (kith != null) {
      kith.close();
    }
    if (shortCodes != null) {
      shortCodes.close();
    }
    if (inboxes != null) {
      inboxes.close();
    }
  }

  private io.kith.app.support.Reply delete(User user, JsonObject body) {
    return kith.call(HttpMethod.DELETE, AccountsKith.API + "/me", user.access(), newAddress(), body);
  }

  private io.kith.app.support.Reply cancel(String token) {
    return kith.post("/me/deletion/cancel", null, new JsonObject().put("deletion_token", token));
  }

  /** A user whose email is verified (deletion mail goes to a verified email only). */
  private User verifiedUser() {
    return verifiedUser(kith);
  }

  private User verifiedUser(AccountsKith node) {
    String email = newEmail();
    User user = node.register(unique("Del"), email, null);
    node.confirmCode(user, "email", inboxes.nextMail(email).code()).expect(200);
    return user;
  }

  private static io.kith.app.support.Reply deleteOn(AccountsKith node, User user, JsonObject body) {
    return node.call(HttpMethod.DELETE, AccountsKith.API + "/me", user.access(), newAddress(), body);
  }

  @Test
  @DisplayName("a deletion confirmed by a mailed code instead of the password is scheduled; a wrong code is "
      + "code_invalid and a used one cannot be used again")
  void confirmedByCode() {
    User user = verifiedUser();
    JsonObject sent = kith.post("/me/deletion/code", user.access(), new JsonObject()).expect(202);
    assertEquals("email", sent.getString("channel"), sent.encode());
    Inboxes.Mail mail = inboxes.nextMail(user.email());
    assertTrue(mail.subject().contains("deletion"), mail.subject());
    String code = mail.code();
    String wrong = code.equals("000000") ? "111111" : "000000";

    delete(user, new JsonObject().put("code", wrong)).problem(400, "code_invalid");
    kith.get("/me", user.access()).expect(200);
    JsonObject answer = delete(user, new JsonObject().put("code", code)).expect(200);
    assertTrue(answer.getBoolean("pending_deletion"), answer.encode());
    kith.get("/me", user.access()).problem(401, "session_revoked");
    kith.login(user.username(), user.password(), newAddress()).problem(403, "account_pending_deletion");
    assertTrue(inboxes.nextMail(user.email()).subject().contains("deleted"));
  }

  @Test
  @DisplayName("a deletion code is refused when expired, when never sent, and for an account with no verified "
      + "identifier (409 nothing_to_verify)")
  void codeRefusals() {
    User user = verifiedUser(shortCodes);
    shortCodes.post("/me/deletion/code", user.access(), new JsonObject()).expect(202);
    String code = inboxes.nextMail(user.email()).code();
    long sent = System.currentTimeMillis();
    shortCodes.eventually("the code's second passed", () -> io.vertx.core.Future.succeededFuture(
        System.currentTimeMillis() > sent + 1500));
    deleteOn(shortCodes, user, new JsonObject().put("code", code)).problem(400, "code_expired");
    deleteOn(shortCodes, user, new JsonObject().put("code", code)).problem(400, "code_invalid");
    shortCodes.get("/me", user.access()).expect(200);

    User unverified = kith.register(unique("Del"), newEmail(), null);
    kith.post("/me/deletion/code", unverified.access(), new JsonObject()).problem(409, "nothing_to_verify");
    delete(unverified, new JsonObject().put("code", "123456")).problem(400, "code_invalid");
    kith.post("/me/deletion/code", unverified.access(), new JsonObject().put("channel", "fax"))
        .problem(400, "validation_failed");
  }

  @Test
  @DisplayName("a deletion without a token, without a password or with a wrong one is refused and changes nothing")
  void refusals() {
    User user = kith.register();
    kith.call(HttpMethod.DELETE, AccountsKith.API + "/me", null, newAddress(),
        new JsonObject().put("password", user.password())).problem(401, "unauthenticated");
    delete(user, new JsonObject()).problem(400, "validation_failed");
    delete(user, new JsonObject().put("password", "")).problem(400, "validation_failed");
    delete(user, new JsonObject().put("password", "not-" + user.password())).problem(401, "invalid_credentials",
        "password");
    kith.get("/me", user.access()).expect(200);
    JsonObject tokens = kith.login(user.username(), user.password(), newAddress()).expect(200);
    assertNotNull(tokens.getString("access_token"), tokens.encode());
  }

  @Test
  @DisplayName("a scheduled deletion ends every session at once, hides the profile from others and mails the owner")
  void scheduled() {
    User user = verifiedUser();
    User other = kith.register();
    kith.get("/users/" + user.id(), other.access()).expect(200);
    long before = System.currentTimeMillis();

    JsonObject answer = delete(user, new JsonObject().put("password", user.password())).expect(200);
    assertTrue(answer.getBoolean("pending_deletion"), answer.encode());
    long due = answer.getLong("deletion_at");
    assertTrue(due >= before + 14 * DAY && due <= System.currentTimeMillis() + 14 * DAY, answer.encode());

    kith.get("/me", user.access()).problem(401, "session_revoked");
    assertEquals(401, kith.post("/auth/refresh", null, new JsonObject().put("refresh_token", user.refresh())).status());
    kith.get("/users/" + user.id(), other.access()).problem(404, "user_not_found");
    kith.get("/users/by-username/" + user.username(), other.access()).problem(404, "user_not_found");
    JsonObject lookup = kith.get("/users?ids=" + user.id(), other.access()).expect(200);
    assertTrue(lookup.getJsonArray("items").isEmpty(), lookup.encode());
    Inboxes.Mail mail = inboxes.nextMail(user.email());
    assertTrue(mail.subject().contains("deleted"), mail.subject());
    assertTrue(mail.text().contains(user.username()), mail.text());
  }

  @Test
  @DisplayName("a pending account's login opens no session but answers 403 account_pending_deletion with a token "
      + "that cancels the deletion and restores the account")
  void cancelled() {
    User user = kith.register();
    User other = kith.register();
    long due = delete(user, new JsonObject().put("password", user.password())).expect(200).getLong("deletion_at");

    kith.login(user.username(), "not-" + user.password(), newAddress()).problem(401, "invalid_credentials");
    JsonObject pending = kith.login(user.username(), user.password(), newAddress())
        .problem(403, "account_pending_deletion");
    assertTrue(pending.getBoolean("pending_deletion"), pending.encode());
    assertEquals(due, pending.getLong("deletion_at"), pending.encode());
    assertFalse(pending.containsKey("access_token"), pending.encode());
    String token = pending.getString("deletion_token");

    cancel("not-" + token).problem(401, "token_invalid");
    JsonObject restored = cancel(token).expect(200);
    cancel(token).problem(401, "token_invalid");
    JsonObject me = kith.get("/me", restored.getString("access_token")).expect(200);
    assertEquals(user.username(), me.getString("username"), me.encode());
    kith.get("/users/" + user.id(), other.access()).expect(200);
    kith.get("/users/by-username/" + user.username(), other.access()).expect(200);
    JsonObject again = kith.login(user.username(), user.password(), newAddress()).expect(200);
    assertNotNull(again.getString("access_token"), again.encode());
    assertFalse(again.containsKey("pending_deletion"), again.encode());
  }
}
