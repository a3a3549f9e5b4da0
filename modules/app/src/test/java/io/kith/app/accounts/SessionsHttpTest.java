package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.BridgeSocket;
import io.kith.app.support.Reply;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.kith.app.accounts.AccountsKith.API;
import static io.kith.app.accounts.AccountsKith.newAddress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Sessions of accounts over HTTP: refresh, logout, password change")
class SessionsHttpTest {

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

  private Reply refresh(String refreshToken) {
    return kith.post("/auth/refresh", null, new JsonObject().put("refresh_token", refreshToken));
  }

  @Test
  @DisplayName("reusing a refresh token after rotation revokes the whole session: the newest access token gets 401")
  void refreshReuseRevokesSession() {
    User user = kith.register();
    JsonObject rotated = refresh(user.refresh()).expect(200);
    String newestAccess = rotated.getString("access_token");
    assertEquals(user.sessionId(), rotated.getString("session_id"), "a refresh keeps the session");
    assertNotEquals(user.refresh(), rotated.getString("refresh_token"), "a refresh rotates the refresh token");
    kith.get("/me", newestAccess).expect(200);

    refresh(user.refresh()).problem(401, "refresh_token_invalid");

    kith.get("/me", newestAccess).problem(401, "session_revoked");
    kith.get("/me", user.access()).problem(401, "session_revoked");
    refresh(rotated.getString("refresh_token")).problem(401, "refresh_token_invalid");
    // another session of the same user is untouched
    JsonObject other = kith.login(user.username(), user.password(), newAddress()).expect(200);
    kith.get("/me", other.getString("access_token")).expect(200);
  }

  @Test
  @DisplayName("after logout the session's access token gets 401 session_revoked and its refresh token is refused")
  void logout() {
    User user = kith.register();
    JsonObject second = kith.login(user.username(), user.password(), newAddress()).expect(200);

    kith.post("/auth/logout", user.access(), null).expectNoContent();

    kith.get("/me", user.access()).problem(401, "session_revoked");
    kith.patch("/me", user.access(), new JsonObject().put("nickname", "ghost")).problem(401, "session_revoked");
    refresh(user.refresh()).problem(401, "refresh_token_invalid");
    assertEquals(user.username(), kith.get("/me", second.getString("access_token")).expect(200)
        .getString("nickname"), "the other session still works and the refused PATCH changed nothing");
  }

  @Test
  @DisplayName("a password change revokes every session of the user; the old password stops working")
  void passwordChangeRevokesAll() {
    User user = kith.register();
    JsonObject second = kith.login(user.username(), user.password(), newAddress()).expect(200);
    String newPassword = "Brand-new-" + AccountsKith.unique("p");

    kith.post("/me/password", user.access(), new JsonObject().put("current_password", user.password())
        .put("new_password", newPassword)).expectNoContent();

    kith.get("/me", user.access()).problem(401, "session_revoked");
    kith.get("/me", second.getString("access_token")).problem(401, "session_revoked");
    refresh(user.refresh()).problem(401, "refresh_token_invalid");
    refresh(second.getString("refresh_token")).problem(401, "refresh_token_invalid");
    kith.login(user.username(), user.password(), newAddress()).problem(401, "invalid_credentials");
    JsonObject fresh = kith.login(user.username(), newPassword, newAddress()).expect(200);
    kith.get("/me", fresh.getString("access_token")).expect(200);
  }

  @Test
  @DisplayName("a password change with a wrong current password or a weak new one is refused and changes nothing")
  void passwordChangeRefused() {
    User user = kith.register();

    kith.post("/me/password", user.access(), new JsonObject().put("current_password", user.password() + "x")
        .put("new_password", "Brand-new-password-1")).problem(401, "invalid_credentials", "current_password");
    kith.post("/me/password", user.access(), new JsonObject().put("current_password", user.password())
        .put("new_password", "password123")).problem(400, "weak_password", "new_password");
    kith.post("/me/password", user.access(), new JsonObject().put("current_password", user.password())
        .put("new_password", user.username())).problem(400, "weak_password", "new_password");
    kith.post("/me/password", null, new JsonObject().put("current_password", user.password())
        .put("new_password", "Brand-new-password-1")).problem(401, "unauthenticated");

    kith.get("/me", user.access()).expect(200);
    kith.login(user.username(), user.password(), newAddress()).expect(200);
  }

  @Test
  @DisplayName("a bridge connection of a session that logs out is closed")
  void bridgeClosedOnLogout() {
    User user = kith.register();
    try (BridgeSocket socket = BridgeSocket.connect(kith.client(), kith.port(), null)) {
      socket.register(user.address(), user.access());
      kith.eventually("the connection to count as online", () -> kith.send(HttpMethod.POST,
          API + "/people/presence", user.access(), newAddress(),
          new JsonObject().put("ids", new JsonArray().add(user.id())))
          .map(r -> r.expect(200).getJsonObject(Long.toString(user.id())).getBoolean("online")));

      kith.post("/auth/logout", user.access(), null).expectNoContent();

      kith.eventually("the server to close the bridge connection", () ->
          Future.succeededFuture(socket.isClosed()));
    }
  }
}
