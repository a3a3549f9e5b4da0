package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Reply;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Verifying an email or phone over HTTP, with mail through an in-process SMTP server and signed SMS posts")
class VerificationHttpTest {

  static final int MAX_ATTEMPTS = 3;
  static final int SENDS_PER_IDENTIFIER = 4;

  private Inboxes inboxes;
  private AccountsKith kith;

  @BeforeAll
  void start() {
    inboxes = new Inboxes();
    kith = AccountsKith.start(inboxes.config().put("accounts", new JsonObject()
        .put("verification-max-attempts", MAX_ATTEMPTS)
        .put("verification-sends-per-identifier", SENDS_PER_IDENTIFIER)
        .put("verification-link", "https://app.kith.test/verify?token=")));
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
    if (inboxes != null) {
      inboxes.close();
    }
  }

  private Reply confirm(User user, String channel, String code) {
    return kith.confirmCode(user, channel, code);
  }

  private JsonObject me(User user) {
    return kith.get("/me", user.access()).expect(200);
  }

  private Reply lookup(User as, String key, String value) {
    return kith.post("/people/lookup", as.access(), new JsonObject().put(key, new JsonArray().add(value)));
  }

  @Test
  @DisplayName("a registered email is verified with the six-digit code of the mail (text and HTML), and then owned")
  void emailByCode() {
    String email = newEmail();
    User user = kith.register(unique("Ver"), email, null);
    JsonObject before = me(user);
    assertEquals(email, before.getString("email"));
    assertFalse(before.getBoolean("email_verified"), before.encode());

    Inboxes.Mail mail = inboxes.nextMail(email);
    String code = mail.code();
    assertTrue(mail.text().contains(code), "the plain-text part has the code: " + mail.text());
    assertTrue(mail.html().contains("<strong>" + code + "</strong>"), "the HTML part has the code: " + mail.html());
    assertTrue(mail.text().contains("https://app.kith.test/verify?token="), "the mail has the link: " + mail.text());

    JsonObject after = confirm(user, "email", code).expect(200);
    assertTrue(after.getBoolean("email_verified"), after.encode());
    assertEquals(email, after.getString("email"));
    assertTrue(me(user).getBoolean("email_verified"));
  }

  @Test
  @DisplayName("a phone is verified with the code of the text message the provider endpoint received, signed")
  void phoneBySms() {
    String phone = newPhone();
    User user = kith.register(unique("Sms"), null, phone);
    assertFalse(me(user).getBoolean("phone_verified"));

    JsonObject text = inboxes.nextText(phone);
    assertEquals("verification_code", text.getString("kind"));
    JsonObject after = confirm(user, "phone", Inboxes.code(text.getString("text"))).expect(200);
    assertTrue(after.getBoolean("phone_verified"), after.encode());
    assertEquals(phone, after.getString("phone"));
    assertTrue(inboxes.refused.isEmpty(), "every post was signed correctly: " + inboxes.refused);
  }

  @Test
  @DisplayName("the link token of the mail verifies the email without a session, once only")
  void emailByLink() {
    String email = newEmail();
    User user = kith.register(unique("Lnk"), email, null);
    String text = inboxes.nextMail(email).text();
    String token = text.substring(text.indexOf("token=") + 6).split("\\s")[0];

    JsonObject done = kith.post("/verifications/confirm", null, new JsonObject().put("token", token)).expect(200);
    assertEquals(user.id(), done.getLong("user_id"));
    assertEquals("email", done.getString("channel"));
    assertTrue(me(user).getBoolean("email_verified"));
    kith.post("/verifications/confirm", null, new JsonObject().put("token", token)).problem(400, "code_invalid");
  }

  @Test
  @DisplayName("a code and its link token are kept only as hashes: the stored code document holds neither")
  void hashedAtRest() {
    String email = newEmail();
    User user = kith.register(unique("Hsh"), email, null);
    Inboxes.Mail mail = inboxes.nextMail(email);
    String code = mail.code();
    String token = mail.text().substring(mail.text().indexOf("token=") + 6).split("\\s")[0];

    JsonObject stored = Await.result(kith.kith().platform().mongo().findOne("account_codes",
        new JsonObject().put("_id", user.id() + ":email"), null));
    assertNotNull(stored, "the code waits in account_codes");
    assertNotNull(stored.getString("code_hash"), stored.encode());
    assertNotNull(stored.getString("token_hash"), stored.encode());
    for (String field : stored.fieldNames()) {
      if (stored.getValue(field) instanceof String value) {
        assertFalse(value.contains(code) || value.contains(token), field + " holds it in clear: " + stored.encode());
      }
    }
    // and the hashes are what the confirmation checks: the mailed code still verifies
    assertTrue(confirm(user, "email", code).expect(200).getBoolean("email_verified"));
  }

  @Test
  @DisplayName("a used code is refused the second time with code_invalid")
  void reusedCode() {
    String email = newEmail();
    User user = kith.register(unique("Reu"), email, null);
    String code = inboxes.nextMail(email).code();
    confirm(user, "email", code).expect(200);
    confirm(user, "email", code).problem(400, "code_invalid");
  }

  @Test
  @DisplayName("wrong codes are refused, and after the allowed number the code is dead: even the right one fails")
  void wrongCodesKillTheCode() {
    String email = newEmail();
    User user = kith.register(unique("Wrg"), email, null);
    String code = inboxes.nextMail(email).code();
    String wrong = code.equals("000000") ? "111111" : "000000";
    for (int i = 0; i < MAX_ATTEMPTS; i++) {
      confirm(user, "email", wrong).problem(400, "code_invalid");
    }
    confirm(user, "email", code).problem(400, "code_invalid");
    assertFalse(me(user).getBoolean("email_verified"));
  }

  @Test
  @DisplayName("a code sent to another account does not verify this one")
  void codeOfAnotherAccount() {
    String email = newEmail();
    User owner = kith.register(unique("Own"), email, null);
    User other = kith.register(unique("Oth"), newEmail(), null);
    String code = inboxes.nextMail(email).code();
    confirm(other, "email", code).problem(400, "code_invalid");
    assertFalse(me(other).getBoolean("email_verified"));
    confirm(owner, "email", code).expect(200);
  }

  @Test
  @DisplayName("a channel with nothing waiting is 409 nothing_to_verify; an unknown channel is 400")
  void nothingToVerify() {
    User user = kith.register(unique("Not"), newEmail(), null);
    kith.post("/me/verifications", user.access(), new JsonObject().put("channel", "phone"))
        .problem(409, "nothing_to_verify");
    kith.post("/me/verifications", user.access(), new JsonObject().put("channel", "fax"))
        .problem(400, "validation_failed");
  }

  @Test
  @DisplayName("an unverified email or phone is not found by address-book lookup; once verified it is")
  void unverifiedIsNotFound() {
    String email = newEmail();
    String phone = newPhone();
    User user = kith.register(unique("Fnd"), email, phone);
    User searcher = kith.register(unique("Srch"), null, null);
    assertTrue(lookup(searcher, "emails", email).expect(200).getJsonArray("items").isEmpty());
    assertTrue(lookup(searcher, "phones", phone).expect(200).getJsonArray("items").isEmpty());

    confirm(user, "email", inboxes.nextMail(email).code()).expect(200);
    confirm(user, "phone", Inboxes.code(inboxes.nextText(phone).getString("text"))).expect(200);
    assertEquals(user.id(), lookup(searcher, "emails", email).expect(200).getJsonArray("items").getJsonObject(0)
        .getJsonObject("user").getLong("id"));
    assertEquals(user.id(), lookup(searcher, "phones", phone).expect(200).getJsonArray("items").getJsonObject(0)
        .getJsonObject("user").getLong("id"));
  }

  @Test
  @DisplayName("a squatter's unverified phone does not block its owner, and is released when the owner verifies it")
  void squatterReleased() {
    String phone = newPhone();
    String squatterEmail = newEmail();
    User squatter = kith.register(unique("Sqt"), squatterEmail, phone);
    confirm(squatter, "email", inboxes.nextMail(squatterEmail).code()).expect(200);
    String squatterCode = Inboxes.code(inboxes.nextText(phone).getString("text"));

    User owner = kith.register(unique("Rea"), null, phone);
    confirm(owner, "phone", Inboxes.code(inboxes.nextText(phone).getString("text"))).expect(200);

    assertNull(me(squatter).getString("phone"), "the squatter's claim is gone");
    confirm(squatter, "phone", squatterCode).problem(400, "code_invalid");
    Inboxes.Mail told = inboxes.nextMail(squatterEmail);
    assertTrue(told.text().contains(phone), "the squatter is told by mail: " + told.text());
    assertTrue(me(owner).getBoolean("phone_verified"));
  }

  @Test
  @DisplayName("PATCH /me with a phone another account verified answers as with a free one; the number gets a notice")
  void patchPhoneIsNoOracle() {
    String taken = newPhone();
    User holder = kith.register(unique("Hld"), null, taken);
    confirm(holder, "phone", Inboxes.code(inboxes.nextText(taken).getString("text"))).expect(200);

    User prober = kith.register(unique("Prb"), null, null);
    String free = newPhone();
    Reply onTaken = kith.patch("/me", prober.access(), new JsonObject().put("phone", taken));
    JsonObject takenBody = onTaken.expect(200);
    assertEquals(taken, takenBody.getString("phone"));
    assertFalse(takenBody.getBoolean("phone_verified"));
    Reply onFree = kith.patch("/me", prober.access(), new JsonObject().put("phone", free));
    JsonObject freeBody = onFree.expect(200);
    assertEquals(takenBody.fieldNames(), freeBody.fieldNames(), "the same members either way");
    assertEquals(onTaken.status(), onFree.status());

    JsonObject notice = inboxes.nextText(taken);
    assertEquals("identifier_in_use", notice.getString("kind"), notice.encode());
    assertEquals("verification_code", inboxes.nextText(free).getString("kind"));
    assertEquals(holder.id(), lookup(prober, "phones", taken).expect(200).getJsonArray("items").getJsonObject(0)
        .getJsonObject("user").getLong("id"), "the number stays its verified owner's");
  }

  @Test
  @DisplayName("codes sent to one identifier past the limit are 429 rate_limited with retry_after")
  void sendLimit() {
    String email = newEmail();
    User user = kith.register(unique("Lim"), email, null);
    // each mail is read before the next send: mails go out in the background and may arrive out of order
    String last = inboxes.nextMail(email).code();
    for (int i = 1; i < SENDS_PER_IDENTIFIER; i++) {
      assertNotNull(kith.post("/me/verifications", user.access(), new JsonObject().put("channel", "email"))
          .expect(202).getLong("expires_in"));
      last = inboxes.nextMail(email).code();
    }
    kith.post("/me/verifications", user.access(), new JsonObject().put("channel", "email"))
        .throttled("rate_limited", 3600);
    confirm(user, "email", last).expect(200);
  }

  @Test
  @DisplayName("the code mail follows the Accept-Language of the registration (Simplified Chinese)")
  void chineseMail() {
    String email = newEmail();
    String username = unique("Zh");
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.5")
        .add("X-Forwarded-For", newAddress());
    Reply reply = Await.result(kith.send(HttpMethod.POST, AccountsKith.API + "/accounts", null, headers,
        new JsonObject().put("username", username).put("password", "Sunny-" + username + "!").put("email", email)));
    assertEquals("zh-CN", reply.expect(201).getJsonObject("user").getString("locale"));
    Inboxes.Mail mail = inboxes.nextMail(email);
    assertTrue(mail.subject().startsWith("您的 Kith 验证码"), mail.subject());
    assertNotEquals(-1, mail.html().indexOf("验证码"));
  }
}
