package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Locale;

import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.newEmail;
import static io.kith.app.accounts.AccountsKith.newPhone;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Changing username, email, phone and password over HTTP, with mail and SMS read where they arrive")
class AccountChangesHttpTest {

  static final int COOLDOWN_DAYS = 30;
  static final long DAY_MS = 86_400_000L;

  private final Conformance contract = Conformance.load();
  // one node for the class (PER_CLASS), built with the instance: its mail and SMS go to these inboxes
  private final Inboxes inboxes = new Inboxes();
  private final AccountsKith kith = AccountsKith.start(inboxes.config().put("accounts", new JsonObject()
      .put("username-change-cooldown-days", COOLDOWN_DAYS).put("username-reserve-days", 30)));

  @AfterAll
  void stop() {
    try (inboxes; kith) {
      // nothing to do but close them: the node first, then the inboxes (resources close in reverse order)
    }
  }

  /** A user whose email and phone are verified with the codes that reached the inboxes. */
  private User verifiedUser() {
    String username = unique("Chg");
    User user = kith.register(username, newEmail(), newPhone());
    kith.confirmCode(user, "email", inboxes.nextMail(user.email()).code()).expect(200);
    kith.confirmCode(user, "phone", Inboxes.code(inboxes.nextText(user.phone()).getString("text"))).expect(200);
    return user;
  }

  private Reply rename(User user, String username, String password) {
    return kith.post("/me/username", user.access(),
        new JsonObject().put("username", username).put("password", password));
  }

  private Reply byUsername(User viewer, String username) {
    return kith.get("/users/by-username/" + username, viewer.access());
  }

  /** The parts of a refusal a client can tell apart (not the request path). */
  private static JsonObject answer(JsonObject problem) {
    JsonObject copy = problem.copy();
    copy.remove("instance");
    return copy;
  }

  @Test
  @DisplayName("a username change with the password renames the account: the new name logs in and is found, "
      + "the old one finds nobody")
  void rename() {
    User user = kith.register();
    User viewer = kith.register();
    String renamed = unique("Ren");

    JsonObject own = rename(user, renamed, user.password()).expect(200);
    assertEquals(renamed, own.getString("username"), own.encode());
    assertEquals(List.of(), contract.problems("changeUsername", 200, own), "the body is as documented");
    assertEquals(renamed, kith.get("/me", user.access()).expect(200).getString("username"));
    assertEquals(user.id(), byUsername(viewer, renamed.toLowerCase(Locale.ROOT)).expect(200).getLong("id"));
    assertEquals(renamed, kith.get("/users/" + user.id(), viewer.access()).expect(200).getString("username"),
        "the cached profile follows the change");
    byUsername(viewer, user.username()).problem(404, "user_not_found");
    kith.login(renamed, user.password(), newAddress()).expect(200);
    kith.login(user.username(), user.password(), newAddress()).problem(401, "invalid_credentials");
  }

  @Test
  @DisplayName("a username change with a wrong password is 401 invalid_credentials and keeps the name")
  void wrongPassword() {
    User user = kith.register();
    rename(user, unique("Bad"), "not-" + user.password()).problem(401, "invalid_credentials", "password");
    assertEquals(user.username(), kith.get("/me", user.access()).expect(200).getString("username"));
  }

  @Test
  @DisplayName("an invalid new username is 400 validation_failed naming username, and a missing password is 400")
  void badInput() {
    User user = kith.register();
    rename(user, "9starts-with-a-digit", user.password()).problem(400, "validation_failed", "username");
    kith.post("/me/username", user.access(), new JsonObject().put("username", unique("Np")))
        .problem(400, "validation_failed");
    kith.post("/me/username", null, new JsonObject().put("username", unique("Na")).put("password", "x"))
        .problem(401, "unauthenticated");
  }

  @Test
  @DisplayName("a second username change within the cool-down is 429 username_change_too_soon saying when it ends")
  void coolDown() {
    User user = kith.register();
    long before = System.currentTimeMillis();
    rename(user, unique("One"), user.password()).expect(200);
    String third = unique("Two");

    JsonObject problem = rename(user, third, user.password()).problem(429, "username_change_too_soon");
    long availableAt = problem.getLong("available_at");
    assertTrue(availableAt >= before + COOLDOWN_DAYS * DAY_MS
        && availableAt <= System.currentTimeMillis() + COOLDOWN_DAYS * DAY_MS, problem.encode());
    assertTrue(problem.getLong("retry_after") > (COOLDOWN_DAYS - 1) * 86_400L, problem.encode());
    kith.login(third, user.password(), newAddress()).problem(401, "invalid_credentials");
  }

  @Test
  @DisplayName("a name given up stays reserved: another user's registration or change to it is answered as for a "
      + "name in use")
  void oldNameReserved() {
    User owner = kith.register();
    User other = kith.register();
    User holder = kith.register();
    rename(owner, unique("Moved"), owner.password()).expect(200);
    JsonObject register = new JsonObject().put("password", "Sunny-" + unique("p") + "!");

    JsonObject reservedAtRegistration = kith.registerRaw(register.copy().put("username", owner.username()),
        newAddress()).problem(409, "username_taken", "username");
    JsonObject inUseAtRegistration = kith.registerRaw(register.copy().put("username", holder.username()),
        newAddress()).problem(409, "username_taken", "username");
    assertEquals(answer(inUseAtRegistration), answer(reservedAtRegistration));

    JsonObject reservedAtChange = rename(other, owner.username().toUpperCase(Locale.ROOT), other.password())
        .problem(409, "username_taken", "username");
    JsonObject inUseAtChange = rename(other, holder.username(), other.password())
        .problem(409, "username_taken", "username");
    assertEquals(answer(inUseAtChange), answer(reservedAtChange));
    assertEquals(other.username(), kith.get("/me", other.access()).expect(200).getString("username"));
  }

  @Test
  @DisplayName("the former owner takes its reserved name back, within the cool-down too, and logs in by it again")
  void takeBack() {
    User owner = kith.register();
    User viewer = kith.register();
    String moved = unique("Away");
    rename(owner, moved, owner.password()).expect(200);

    JsonObject back = rename(owner, owner.username(), owner.password()).expect(200);
    assertEquals(owner.username(), back.getString("username"));
    kith.login(owner.username(), owner.password(), newAddress()).expect(200);
    assertEquals(owner.id(), byUsername(viewer, owner.username()).expect(200).getLong("id"));
    // the name left on the way back is reserved in its turn
    kith.registerRaw(new JsonObject().put("username", moved).put("password", "Sunny-" + unique("p") + "!"),
        newAddress()).problem(409, "username_taken", "username");
  }

  @Test
  @DisplayName("a new email waits unverified: the old one still logs in and is found, the new one neither until its "
      + "code is confirmed, and then the old address is told it was replaced")
  void emailChange() {
    User user = verifiedUser();
    User viewer = kith.register();
    String next = newEmail();

    JsonObject pending = kith.updateProfile(user, new JsonObject().put("email", next));
    assertEquals(next, pending.getString("email"));
    assertFalse(pending.getBoolean("email_verified"), pending.encode());
    kith.login(next, user.password(), newAddress()).problem(401, "invalid_credentials");
    kith.login(user.email(), user.password(), newAddress()).expect(200);
    assertEquals(1, lookup(viewer, "emails", user.email()).size(), "the verified email still finds the user");
    assertEquals(0, lookup(viewer, "emails", next).size(), "the pending email finds nobody");

    JsonObject confirmed = kith.confirmCode(user, "email", inboxes.nextMail(next).code()).expect(200);
    assertTrue(confirmed.getBoolean("email_verified"), confirmed.encode());
    kith.login(next, user.password(), newAddress()).expect(200);
    kith.login(user.email(), user.password(), newAddress()).problem(401, "invalid_credentials");
    assertEquals(1, lookup(viewer, "emails", next).size());

    Inboxes.Mail notice = inboxes.nextMail(user.email());
    assertTrue(notice.subject().contains(user.email()), notice.subject());
    assertTrue(notice.text().contains(user.username()) && notice.html().contains(user.username()), notice.text());
    assertFalse(notice.text().contains(next), "the notice does not tell the new address: " + notice.text());
  }

  @Test
  @DisplayName("a new phone waits unverified until the code of its SMS is confirmed, then the old number is told by "
      + "SMS in the account's language")
  void phoneChange() {
    User user = verifiedUser();
    kith.updateProfile(user, new JsonObject().put("locale", "zh-CN"));
    String next = newPhone();

    JsonObject pending = kith.updateProfile(user, new JsonObject().put("phone", next));
    assertFalse(pending.getBoolean("phone_verified"), pending.encode());
    kith.login(next, user.password(), newAddress()).problem(401, "invalid_credentials");
    kith.login(user.phone(), user.password(), newAddress()).expect(200);

    JsonObject code = inboxes.nextText(next);
    assertEquals("verification_code", code.getString("kind"));
    kith.confirmCode(user, "phone", Inboxes.code(code.getString("text"))).expect(200);
    kith.login(next, user.password(), newAddress()).expect(200);
    kith.login(user.phone(), user.password(), newAddress()).problem(401, "invalid_credentials");

    JsonObject notice = inboxes.nextText(user.phone());
    assertEquals("identifier_replaced", notice.getString("kind"), notice.encode());
    assertTrue(notice.getString("text").contains(user.phone()) && notice.getString("text").contains("取代"),
        "the notice names the old number, in Chinese: " + notice.encode());
  }

  @Test
  @DisplayName("a password change ends every session and tells the account by mail")
  void passwordChangeNotice() {
    User user = verifiedUser();
    kith.post("/me/password", user.access(), new JsonObject().put("current_password", user.password())
        .put("new_password", "Changed-pass-91")).expectNoContent();

    kith.get("/me", user.access()).problem(401, "session_revoked");
    kith.login(user.email(), "Changed-pass-91", newAddress()).expect(200);
    Inboxes.Mail notice = inboxes.nextMail(user.email());
    assertTrue(notice.subject().contains("password was changed"), notice.subject());
    assertTrue(notice.text().contains(user.username()), notice.text());
  }

  private JsonArray lookup(User viewer, String key, String value) {
    return kith.post("/people/lookup", viewer.access(), new JsonObject().put(key, new JsonArray().add(value)))
        .expect(200).getJsonArray("items");
  }
}
