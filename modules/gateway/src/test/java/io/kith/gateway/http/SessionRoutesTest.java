package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.stream.Collectors;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("HTTP token refresh and session management")
class SessionRoutesTest {

  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  private HttpResponse<Buffer> refresh(String refreshToken) {
    return gateway.postJson(API + "/auth/refresh", null, new JsonObject().put("refresh_token", refreshToken));
  }

  private JsonArray sessions(String accessToken) {
    HttpResponse<Buffer> response = gateway.get(API + "/auth/sessions", accessToken);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject().getJsonArray("items");
  }

  private static List<String> ids(JsonArray items) {
    return items.stream().map(o -> ((JsonObject) o).getString("id")).collect(Collectors.toList());
  }

  @Test
  @DisplayName("refresh returns a new token pair for the same session and user, and the new access token works")
  void refreshRotates(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair first = gateway.newSession();

    HttpResponse<Buffer> response = refresh(first.refreshToken());

    assertEquals(200, response.statusCode(), response.bodyAsString());
    JsonObject next = response.bodyAsJsonObject();
    assertEquals("Bearer", next.getString("token_type"));
    assertEquals(first.userId(), next.getLong("user_id"));
    assertEquals(first.sessionId(), next.getString("session_id"));
    assertTrue(next.getInteger("expires_in") > 0);
    assertNotEquals(first.refreshToken(), next.getString("refresh_token"));
    HttpResponse<Buffer> whoami = gateway.whoami(next.getString("access_token"));
    assertEquals(200, whoami.statusCode(), whoami.bodyAsString());
    assertEquals(first.userId(), whoami.bodyAsJsonObject().getLong("user_id"));
  }

  @Test
  @DisplayName("reusing a refresh token after rotation is 401 refresh_token_invalid and revokes the whole session")
  void refreshReuseRevokes(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair first = gateway.newSession();
    JsonObject second = refresh(first.refreshToken()).bodyAsJsonObject();
    String newestAccess = second.getString("access_token");
    assertEquals(200, gateway.whoami(newestAccess).statusCode(), "the rotated pair works before the reuse");

    assertProblem(refresh(first.refreshToken()), 401, "refresh_token_invalid");

    assertProblem(gateway.whoami(newestAccess), 401, "session_revoked");
    assertProblem(refresh(second.getString("refresh_token")), 401, "refresh_token_invalid");
  }

  @Test
  @DisplayName("an unknown or malformed refresh token is 401 refresh_token_invalid")
  void unknownRefreshToken(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();
    String[] parts = session.refreshToken().split("\\.");

    assertProblem(refresh(parts[0] + "." + parts[1] + ".not-the-secret"), 401, "refresh_token_invalid");
    assertProblem(refresh("garbage"), 401, "refresh_token_invalid");
    assertEquals(200, refresh(session.refreshToken()).statusCode(), "a wrong guess does not end the session");
  }

  @Test
  @DisplayName("the session list shows every session of the caller and marks the caller's own as current")
  void listSessions(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair laptop = gateway.newSession();
    TokenPair phone = gateway.openSession(laptop.userId(), "phone");
    TokenPair stranger = gateway.newSession();

    JsonArray items = sessions(laptop.accessToken());

    assertEquals(2, items.size(), items.encode());
    assertTrue(ids(items).containsAll(List.of(laptop.sessionId(), phone.sessionId())), items.encode());
    for (Object o : items) {
      JsonObject s = (JsonObject) o;
      assertEquals(s.getString("id").equals(laptop.sessionId()), s.getBoolean("current"), items.encode());
      assertTrue(s.getLong("created") > 0 && s.getLong("last_used") > 0, items.encode());
    }
    JsonObject phoneItem = items.stream().map(o -> (JsonObject) o)
        .filter(s -> s.getString("id").equals(phone.sessionId())).findFirst().orElseThrow();
    assertEquals("phone", phoneItem.getString("device"));
    assertTrue(!ids(items).contains(stranger.sessionId()), "another user's session is not listed");
  }

  @Test
  @DisplayName("a user can end another of their sessions; its token stops working and the others keep working")
  void revokeOtherSession(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair laptop = gateway.newSession();
    TokenPair phone = gateway.openSession(laptop.userId(), "phone");

    HttpResponse<Buffer> response = gateway.call(HttpMethod.DELETE,
        API + "/auth/sessions/" + phone.sessionId(), laptop.accessToken());

    assertEquals(204, response.statusCode(), response.bodyAsString());
    assertProblem(gateway.whoami(phone.accessToken()), 401, "session_revoked");
    assertProblem(refresh(phone.refreshToken()), 401, "refresh_token_invalid");
    assertEquals(200, gateway.whoami(laptop.accessToken()).statusCode());
    assertEquals(List.of(laptop.sessionId()), ids(sessions(laptop.accessToken())));
  }

  @Test
  @DisplayName("revoking a session that does not exist is 404 not_found")
  void revokeUnknownSession(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();

    // well-formed (22 characters of base64url, as session ids are) but unknown
    assertProblem(gateway.call(HttpMethod.DELETE, API + "/auth/sessions/no-such-session-000000",
        session.accessToken()), 404, "not_found");
    assertEquals(200, gateway.whoami(session.accessToken()).statusCode());
  }

  @Test
  @DisplayName("a user cannot end another user's session: it is 404 and that session keeps working")
  void revokeStrangersSession(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair stranger = gateway.newSession();

    assertProblem(gateway.call(HttpMethod.DELETE, API + "/auth/sessions/" + stranger.sessionId(),
        me.accessToken()), 404, "not_found");

    assertEquals(200, gateway.whoami(stranger.accessToken()).statusCode());
    assertEquals(200, refresh(stranger.refreshToken()).statusCode());
  }

  @Test
  @DisplayName("a session id outside the contract's pattern is 400 validation_failed")
  void revokeInvalidSessionId(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();

    assertProblem(gateway.call(HttpMethod.DELETE, API + "/auth/sessions/" + "x".repeat(65), session.accessToken()),
        400, "validation_failed");
  }

  @Test
  @DisplayName("log out everywhere ends every session of the caller and no one else's")
  void logoutEverywhere(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair laptop = gateway.newSession();
    TokenPair phone = gateway.openSession(laptop.userId(), "phone");
    TokenPair stranger = gateway.newSession();

    HttpResponse<Buffer> response = gateway.call(HttpMethod.POST, API + "/auth/logout-all", laptop.accessToken());

    assertEquals(204, response.statusCode(), response.bodyAsString());
    assertProblem(gateway.whoami(laptop.accessToken()), 401, "session_revoked");
    assertProblem(gateway.whoami(phone.accessToken()), 401, "session_revoked");
    assertProblem(refresh(laptop.refreshToken()), 401, "refresh_token_invalid");
    assertProblem(refresh(phone.refreshToken()), 401, "refresh_token_invalid");
    assertEquals(200, gateway.whoami(stranger.accessToken()).statusCode());
  }

  @Test
  @DisplayName("logout ends only the current session")
  void logoutCurrentOnly(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair laptop = gateway.newSession();
    TokenPair phone = gateway.openSession(laptop.userId(), "phone");

    assertEquals(204, gateway.call(HttpMethod.POST, API + "/auth/logout", laptop.accessToken()).statusCode());

    assertProblem(gateway.whoami(laptop.accessToken()), 401, "session_revoked");
    assertEquals(200, gateway.whoami(phone.accessToken()).statusCode());
    assertEquals(List.of(phone.sessionId()), ids(sessions(phone.accessToken())));
  }
}
