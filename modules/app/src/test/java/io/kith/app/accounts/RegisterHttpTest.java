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

import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.newPhone;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Registration over HTTP (POST /api/v1/accounts)")
class RegisterHttpTest {

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

  private static JsonObject request(String username, String password) {
    return new JsonObject().put("username", username).put("password", password);
  }

  @Test
  @DisplayName("a new account is 201 with the owner's profile and a working token pair")
  void registers() {
    String username = unique("Reg");
    String email = username + "@Example.test";
    String phone = newPhone();
    String digits = phone.substring(3);
    String written = "+44 (" + digits.substring(0, 3) + ") " + digits.substring(3, 6) + "-" + digits.substring(6);
    JsonObject body = kith.registerRaw(request(username, "Sunny-meadow-42").put("email", email)
        .put("phone", written).put("device", "test phone"), newAddress()).expect(201);

    JsonObject user = body.getJsonObject("user");
    JsonObject tokens = body.getJsonObject("tokens");
    assertEquals(username, user.getString("username"));
    assertEquals(username, user.getString("nickname"), "the nickname starts as the username");
    assertEquals(email.toLowerCase(Locale.ROOT), user.getString("email"), "emails are stored lower-cased");
    assertEquals(phone, user.getString("phone"), "the phone is stored without formatting");
    assertEquals("user", user.getString("role"));
    assertNotNull(user.getJsonObject("settings"), "the owner's view has the settings");
    assertFalse(user.containsKey("password"), "never the password: " + user);
    assertEquals("Bearer", tokens.getString("token_type"));
    assertEquals(user.getLong("id"), tokens.getLong("user_id"));

    JsonObject me = kith.get("/me", tokens.getString("access_token")).expect(200);
    assertEquals(user.getLong("id"), me.getLong("id"));
    assertEquals(username, me.getString("username"));
  }

  @Test
  @DisplayName("a username taken in any case is 409 username_taken naming the field")
  void duplicateUsername() {
    User first = kith.register();

    kith.registerRaw(request(first.username().toUpperCase(Locale.ROOT), "Sunny-meadow-42"), newAddress())
        .problem(409, "username_taken", "username");
    kith.registerRaw(request(first.username(), "Sunny-meadow-42"), newAddress())
        .problem(409, "username_taken", "username");
  }

  @Test
  @DisplayName("of simultaneous registrations of one username in different cases exactly one succeeds, the rest get 409")
  void simultaneousRegistrations() {
    String username = unique("Same");
    List<Future<Reply>> attempts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String spelled = i % 2 == 0 ? username : username.toUpperCase(Locale.ROOT);
      attempts.add(kith.send(HttpMethod.POST, AccountsKith.API + "/accounts", null, newAddress(),
          request(spelled, "Sunny-meadow-42")));
    }
    Await.result(Future.join(new ArrayList<>(attempts)));

    List<Reply> replies = attempts.stream().map(Future::result).toList();
    assertEquals(1, replies.stream().filter(r -> r.status() == 201).count(), replies.toString());
    replies.stream().filter(r -> r.status() != 201).forEach(r -> r.problem(409, "username_taken", "username"));
  }

  @Test
  @DisplayName("an email or phone another account claimed without verifying it does not block a registration")
  void unverifiedClaimsDoNotBlock() {
    User first = kith.register();
    // the same identifiers written otherwise: the email in upper case, the phone with 00, spaces and dashes
    String digits = first.phone().substring(3);
    String formatted = "0044 " + digits.substring(0, 3) + "-" + digits.substring(3, 6) + " " + digits.substring(6);

    JsonObject second = kith.registerRaw(request(unique("u"), "Sunny-meadow-42")
        .put("email", first.email().toUpperCase(Locale.ROOT)).put("phone", formatted), newAddress())
        .expect(201).getJsonObject("user");
    assertEquals(first.email(), second.getString("email"));
    assertEquals(first.phone(), second.getString("phone"));
    assertFalse(second.getBoolean("email_verified"));
    assertFalse(second.getBoolean("phone_verified"));
  }

  @Test
  @DisplayName("a common or username-equal password is 400 weak_password, a short or overlong one 400 "
      + "validation_failed (the contract's 8 to 128 characters), each naming the field")
  void weakPasswords() {
    String username = unique("u");
    for (String weak : new String[] {"password123", "Password123", username, username.toUpperCase(Locale.ROOT)}) {
      JsonObject problem = kith.registerRaw(request(username, weak), newAddress())
          .problem(400, "weak_password", "password");
      assertNotNull(problem.getString("detail"), "the reason is given: " + problem.encode());
    }
    for (String outOfBounds : new String[] {"Sh0rt!", "x".repeat(129)}) {
      kith.registerRaw(request(username, outOfBounds), newAddress()).problem(400, "validation_failed", "password");
    }
    kith.get("/users/by-username/" + username, kith.register().access()).problem(404, "user_not_found");
  }

  @Test
  @DisplayName("a body member the contract does not know is 400 validation_failed naming it")
  void unknownMember() {
    String username = unique("u");
    JsonObject problem = kith.registerRaw(request(username, "Sunny-meadow-42").put("role", "admin"), newAddress())
        .problem(400, "validation_failed");
    assertEquals("role", problem.getString("field"), "the problem names the unknown member: " + problem.encode());
    kith.get("/users/by-username/" + username, kith.register().access()).problem(404, "user_not_found");
  }

  @Test
  @DisplayName("a malformed username, email or phone is 400 validation_failed naming the field")
  void malformedFields() {
    kith.registerRaw(request("9starts-with-digit", "Sunny-meadow-42"), newAddress())
        .problem(400, "validation_failed", "username");
    kith.registerRaw(request("ab", "Sunny-meadow-42"), newAddress())
        .problem(400, "validation_failed", "username");
    kith.registerRaw(request(unique("u"), "Sunny-meadow-42").put("email", "not-an-email"), newAddress())
        .problem(400, "validation_failed", "email");
    kith.registerRaw(request(unique("u"), "Sunny-meadow-42").put("phone", "call me"), newAddress())
        .problem(400, "validation_failed", "phone");
    kith.registerRaw(new JsonObject().put("username", unique("u")), newAddress())
        .problem(400, "validation_failed", "password");
  }

  @Test
  @DisplayName("a device name with NUL, another control character or an unpaired surrogate (a JSON escape) is 400 "
      + "validation_failed naming device, and no account is made")
  void deviceNameRefused() {
    for (String escaped : List.of("a\\u0000b", "a\\uD800b", "tab\\tbed")) {
      String username = unique("u");
      String body = request(username, "Sunny-meadow-42").put("device", "@").encode().replace("@", escaped);
      kith.call(HttpMethod.POST, AccountsKith.API + "/accounts", null, newAddress(), body)
          .problem(400, "validation_failed", "device");
      // the username is still free: nothing was stored
      kith.registerRaw(request(username, "Sunny-meadow-42"), newAddress()).expect(201);
    }
  }

  @Test
  @DisplayName("registrations are limited per client address: past the limit 429 registration_throttled with Retry-After")
  void registrationThrottled() {
    String address = newAddress();
    for (int i = 0; i < AccountsKith.MAX_REGISTRATIONS_PER_ADDRESS; i++) {
      kith.registerRaw(request(unique("u"), "Sunny-meadow-42"), address).expect(201);
    }
    String refused = unique("u");
    kith.registerRaw(request(refused, "Sunny-meadow-42"), address).throttled("registration_throttled", 3600);

    kith.registerRaw(request(unique("u"), "Sunny-meadow-42"), newAddress()).expect(201);
    kith.get("/users/by-username/" + refused, kith.register().access()).problem(404, "user_not_found");
  }
}
