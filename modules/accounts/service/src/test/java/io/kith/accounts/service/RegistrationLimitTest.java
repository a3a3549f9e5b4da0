package io.kith.accounts.service;

import io.kith.platform.error.Failures;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Registrations are limited per client address. */
class RegistrationLimitTest extends AccountsTestBase {

  @Override
  protected JsonObject overrides() {
    return new JsonObject().put("accounts", new JsonObject()
        .put("register-max-per-address", 2)
        .put("register-window-seconds", 600));
  }

  private static JsonObject request(String username) {
    return new JsonObject().put("username", username).put("password", "correct horse battery");
  }

  @Test
  @DisplayName("past the per-address limit, registrations from that address are refused with retry_after")
  void registrationThrottledPerAddress() throws Exception {
    String address = newAddress();
    assertNotNull(await(accounts.register(request(newUsername()), address)).getJsonObject("user"));
    assertNotNull(await(accounts.register(request(newUsername()), address)).getJsonObject("user"));

    String refusedName = newUsername();
    Throwable refused = failsWith("registration_throttled", accounts.register(request(refusedName), address));
    assertEquals(429, ((ServiceException) refused).failureCode());
    long retryAfter = debugInfo(refused).getJsonObject(Failures.EXTRA).getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= 600, "retry_after " + retryAfter);

    // the refused registration created nothing: the name is still free, from another address
    JsonObject later = await(accounts.register(request(refusedName), newAddress()));
    assertEquals(refusedName, later.getJsonObject("user").getString("username"));
  }

  @Test
  @DisplayName("the registration limit of one address does not reach another address")
  void otherAddressesUnaffected() throws Exception {
    String busy = newAddress();
    await(accounts.register(request(newUsername()), busy));
    await(accounts.register(request(newUsername()), busy));
    failsWith("registration_throttled", accounts.register(request(newUsername()), busy));
    assertNotNull(await(accounts.register(request(newUsername()), newAddress())).getJsonObject("tokens"));
  }
}
