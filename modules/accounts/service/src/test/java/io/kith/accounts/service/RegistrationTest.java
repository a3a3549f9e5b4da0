package io.kith.accounts.service;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistrationTest extends AccountsTestBase {

  @Test
  @DisplayName("registering returns the new profile and a working token pair")
  void registerReturnsProfileAndTokens() throws Exception {
    String name = newUsername();
    JsonObject result = await(accounts.register(new JsonObject().put("username", name)
        .put("password", "correct horse battery").put("email", name + "@Example.org").put("phone", "+86 138-0013-8000".replace("8000", String.valueOf((int) (Math.random() * 9000) + 1000))), newAddress()));
    JsonObject user = result.getJsonObject("user");
    assertEquals(name, user.getString("username"));
    assertEquals((name + "@example.org").toLowerCase(), user.getString("email"));
    assertTrue(user.getLong("id") > 0);
    JsonObject tokens = result.getJsonObject("tokens");
    assertNotNull(tokens.getString("access_token"));
    assertEquals(user.getLong("id"), await(platform.accessTokens().verify(tokens.getString("access_token"))).userId());
    assertTrue(await(platform.sessions().refresh(tokens.getString("refresh_token"))).accessToken() != null);
  }

  @Test
  @DisplayName("usernames are unique whatever their case")
  void duplicateUsernameAnyCase() throws Exception {
    String name = newUsername();
    register(new JsonObject().put("username", name));
    Throwable e = failsWith("username_taken", accounts.register(new JsonObject().put("username", name.toUpperCase())
        .put("password", "another good password"), newAddress()));
    assertTrue(e.getMessage().contains("username"));
  }

  @Test
  @DisplayName("an email or phone another account claimed unverified does not block a registration")
  void duplicateEmailAndPhone() throws Exception {
    String name = newUsername();
    String phone = "+1555" + (1000000 + (int) (Math.random() * 8999999));
    register(new JsonObject().put("email", name + "@example.org").put("phone", phone));
    // an unverified claim blocks nobody: the first to verify owns it
    String formatted = phone.substring(0, 2) + " (" + phone.substring(2, 5) + ") " + phone.substring(5, 8) + "-"
        + phone.substring(8);
    JsonObject second = register(new JsonObject().put("email", name.toUpperCase() + "@EXAMPLE.org")
        .put("phone", formatted));
    assertEquals(name.toLowerCase() + "@example.org", second.getJsonObject("user").getString("email"));
    assertEquals(phone, second.getJsonObject("user").getString("phone"));
    assertEquals(false, second.getJsonObject("user").getBoolean("phone_verified"));
  }

  @Test
  @DisplayName("weak passwords are refused: too short, too long, the username, a common one")
  void weakPasswords() {
    String name = newUsername();
    failsWith("weak_password", accounts.register(new JsonObject().put("username", name).put("password", "short"),
        newAddress()));
    failsWith("weak_password", accounts.register(new JsonObject().put("username", name)
        .put("password", "x".repeat(129)), newAddress()));
    failsWith("weak_password", accounts.register(new JsonObject().put("username", name)
        .put("password", name.toUpperCase()), newAddress()));
    failsWith("weak_password", accounts.register(new JsonObject().put("username", name)
        .put("password", "Password123"), newAddress()));
  }

  @Test
  @DisplayName("malformed usernames, emails and phones are refused naming the field")
  void malformedFields() {
    failsWith("validation_failed", accounts.register(new JsonObject().put("username", "1bad")
        .put("password", "correct horse battery"), newAddress()));
    failsWith("validation_failed", accounts.register(new JsonObject().put("username", newUsername())
        .put("password", "correct horse battery").put("email", "not-an-email"), newAddress()));
    failsWith("validation_failed", accounts.register(new JsonObject().put("username", newUsername())
        .put("password", "correct horse battery").put("phone", "12"), newAddress()));
  }
}
