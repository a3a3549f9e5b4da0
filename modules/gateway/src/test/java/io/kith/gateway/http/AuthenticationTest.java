package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.AccessTokens;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("HTTP authentication")
class AuthenticationTest {

  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  private static String b64(String s) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonObject payloadOf(String jwt) {
    String payload = jwt.split("\\.")[1];
    return new JsonObject(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8));
  }

  private static void assertUnauthorized(HttpResponse<Buffer> response, String code) {
    assertProblem(response, 401, code);
    String challenge = response.getHeader("WWW-Authenticate");
    assertTrue(challenge != null && challenge.startsWith("Bearer"), "WWW-Authenticate: " + challenge);
  }

  @Test
  @DisplayName("ping answers 200 with pong and the server time, without a token")
  void ping(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    long before = System.currentTimeMillis();

    HttpResponse<Buffer> response = gateway.get(API + "/ping", null);

    assertEquals(200, response.statusCode(), response.bodyAsString());
    assertTrue(response.getHeader("Content-Type").startsWith("application/json"));
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(Boolean.TRUE, body.getBoolean("pong"));
    long time = body.getLong("time");
    assertTrue(time >= before && time <= System.currentTimeMillis(), "server time " + time);
  }

  @Test
  @DisplayName("whoami with a valid access token returns the token's user and session")
  void whoami(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();

    HttpResponse<Buffer> response = gateway.whoami(session.accessToken());

    assertEquals(200, response.statusCode(), response.bodyAsString());
    assertEquals(new JsonObject().put("user_id", session.userId()).put("session_id", session.sessionId()),
        response.bodyAsJsonObject());
  }

  @Test
  @DisplayName("whoami without a token is 401 unauthenticated with a Bearer challenge")
  void missingToken(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = gateway.whoami(null);

    assertUnauthorized(response, "unauthenticated");
    assertEquals("Bearer", response.getHeader("WWW-Authenticate"));
  }

  @ParameterizedTest(name = "Authorization: \"{0}\"")
  @ValueSource(strings = {"Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", "Token abc.def.ghi", "bearer-abc"})
  @DisplayName("a malformed Authorization header is 401 token_invalid with an invalid_request challenge")
  void malformedHeader(String header, Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = Await.result(gateway.request(HttpMethod.GET, API + "/whoami", null)
        .putHeader("Authorization", header).send());

    assertUnauthorized(response, "token_invalid");
  }

  @ParameterizedTest(name = "token \"{0}\"")
  @ValueSource(strings = {"not-a-jwt", "a.b.c", "Bearer.Bearer.Bearer"})
  @DisplayName("a bearer value that is not a JWT is 401 token_invalid")
  void garbageToken(String token, Vertx vertx) {
    gateway = TestGateway.start(vertx);

    assertUnauthorized(gateway.whoami(token), "token_invalid");
  }

  @Test
  @DisplayName("an expired access token is 401 token_expired")
  void expiredToken(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("tokens", new JsonObject().put("access-ttl", 1)));
    TokenPair session = gateway.newSession();
    AtomicReference<HttpResponse<Buffer>> last = new AtomicReference<>();

    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the one-second token to stop working", () ->
        gateway.request(HttpMethod.GET, API + "/whoami", session.accessToken()).send().map(r -> {
          last.set(r);
          return r.statusCode() != 200;
        })));

    assertUnauthorized(last.get(), "token_expired");
    assertTrue(last.get().getHeader("WWW-Authenticate").contains("invalid_token"));
  }

  @Test
  @DisplayName("a token whose payload was changed to claim another user is 401 token_invalid")
  void tamperedClaims(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair victim = gateway.newSession();
    TokenPair attacker = gateway.newSession();
    String[] parts = attacker.accessToken().split("\\.");
    JsonObject claims = payloadOf(attacker.accessToken()).put("sub", Long.toString(victim.userId()))
        .put("sid", victim.sessionId());
    String forged = parts[0] + "." + b64(claims.encode()) + "." + parts[2];

    assertUnauthorized(gateway.whoami(forged), "token_invalid");
  }

  @Test
  @DisplayName("a token with one character of its payload flipped is 401 token_invalid")
  void flippedPayloadCharacter(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();
    String[] parts = session.accessToken().split("\\.");
    char[] payload = parts[1].toCharArray();
    int i = payload.length / 2;
    payload[i] = payload[i] == 'A' ? 'B' : 'A';
    String tampered = parts[0] + "." + new String(payload) + "." + parts[2];
    assertNotEquals(session.accessToken(), tampered);

    assertUnauthorized(gateway.whoami(tampered), "token_invalid");
  }

  @Test
  @DisplayName("an unsigned token (alg none) with valid claims is 401 token_invalid")
  void algNone(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();
    JsonObject claims = payloadOf(session.accessToken());
    String header = b64(new JsonObject().put("typ", "JWT").put("alg", "none").encode());

    assertUnauthorized(gateway.whoami(header + "." + b64(claims.encode()) + "."), "token_invalid");
    assertUnauthorized(gateway.whoami(header + "." + b64(claims.encode())), "token_invalid");
  }

  @Test
  @DisplayName("a token signed with another key for a live session is 401 token_invalid")
  void otherKey(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();
    AccessTokens other = new AccessTokens(vertx, "an-entirely-different-secret-of-48-bytes-length!", "kith",
        "kith-api", 900);
    String forged = other.issue(session.userId(), session.sessionId());

    assertUnauthorized(gateway.whoami(forged), "token_invalid");
    assertEquals(200, gateway.whoami(session.accessToken()).statusCode(), "the genuine token still works");
  }

  @Test
  @DisplayName("after logout the session's still-unexpired access token is 401 session_revoked")
  void revokedSession(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();
    assertEquals(200, gateway.whoami(session.accessToken()).statusCode());

    HttpResponse<Buffer> logout = gateway.call(HttpMethod.POST, API + "/auth/logout", session.accessToken());
    assertEquals(204, logout.statusCode(), logout.bodyAsString());

    assertUnauthorized(gateway.whoami(session.accessToken()), "session_revoked");
  }

  @Test
  @DisplayName("a session revoked through the platform is refused by the gateway at once")
  void revokedElsewhere(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();
    // warm the gateway's "session alive" cache, which a revocation must clear
    assertEquals(200, gateway.whoami(session.accessToken()).statusCode());

    Await.result(gateway.platform().sessions().revoke(session.userId(), session.sessionId()));

    assertUnauthorized(gateway.whoami(session.accessToken()), "session_revoked");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"GET /api/v1/whoami/", "GET /api/v1/whoami//", "GET /api/v1/auth/sessions/",
      "POST /api/v1/auth/logout/", "POST /api/v1/auth/logout-all/", "GET //api/v1/whoami", "GET /api/v1/./whoami",
      "GET /api/v1/x/../whoami", "GET /api/v1/%77hoami"})
  @DisplayName("a spelling of an authenticated path that the router serves still needs a token")
  void pathVariantsNeedToken(String request, Vertx vertx) {
    gateway = TestGateway.start(vertx);
    String[] parts = request.split(" ");
    TokenPair session = gateway.newSession();

    // the core client sends the path as written (the web client would normalise it)
    JsonObject[] body = new JsonObject[1];
    int status = Await.result(vertx.createHttpClient()
        .request(HttpMethod.valueOf(parts[0]), gateway.port(), "localhost", parts[1])
        .compose(r -> r.send())
        .compose(r -> r.body().map(b -> {
          body[0] = b.toJsonObject();
          return r.statusCode();
        })));

    assertEquals(401, status, String.valueOf(body[0]));
    assertEquals("unauthenticated", body[0].getString("code"));
    assertTrue(gateway.whoami(session.accessToken()).statusCode() == 200, "the session is untouched");
  }

  @Test
  @DisplayName("an authenticated operation checks the token before the request body")
  void authBeforeValidation(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = gateway.postRaw(API + "/auth/logout", null, "{not json");

    assertUnauthorized(response, "unauthenticated");
  }

  private static final String SECRET = "a-known-test-secret-of-at-least-32-bytes";

  /** Signs {@code claims} (plus sub, sid, iss, aud and a live exp) as the gateway would, with no automatic iat. */
  private String signed(Vertx vertx, TokenPair session, JsonObject claims) {
    JWTAuth jwt = JWTAuth.create(vertx, new JWTAuthOptions()
        .addPubSecKey(new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(SECRET)));
    long now = System.currentTimeMillis() / 1000;
    return jwt.generateToken(new JsonObject().put("sub", Long.toString(session.userId()))
            .put("sid", session.sessionId()).put("exp", now + 600).mergeIn(claims),
        new JWTOptions().setAlgorithm("HS256").setIssuer("kith").setAudience(List.of("kith-api")).setNoTimestamp(true));
  }

  private TestGateway withKnownSecret(Vertx vertx) {
    return TestGateway.start(vertx, new JsonObject().put("tokens", new JsonObject().put("secret", SECRET)));
  }

  @ParameterizedTest(name = "{0} an hour ahead")
  @ValueSource(strings = {"nbf", "iat"})
  @DisplayName("a token that is not valid yet (nbf or iat in the future) is 401 token_invalid")
  void notValidYet(String claim, Vertx vertx) {
    gateway = withKnownSecret(vertx);
    TokenPair session = gateway.newSession();
    long now = System.currentTimeMillis() / 1000;

    assertUnauthorized(gateway.whoami(signed(vertx, session, new JsonObject().put(claim, now + 3600))),
        "token_invalid");
    assertUnauthorized(gateway.whoami(signed(vertx, session, new JsonObject().put(claim, "soon"))), "token_invalid");
    assertEquals(200, gateway.whoami(signed(vertx, session, new JsonObject().put(claim, now - 5))).statusCode(),
        "a time claim in the past is fine");
  }

  @Test
  @DisplayName("nbf and iat a few seconds ahead (another node's clock) are within the allowed skew")
  void smallSkewAllowed(Vertx vertx) {
    gateway = withKnownSecret(vertx);
    TokenPair session = gateway.newSession();
    long ahead = System.currentTimeMillis() / 1000 + AccessTokens.CLOCK_SKEW_SECONDS / 2;

    HttpResponse<Buffer> response = gateway.whoami(signed(vertx, session,
        new JsonObject().put("iat", ahead).put("nbf", ahead)));

    assertEquals(200, response.statusCode(), response.bodyAsString());
  }

  @Test
  @DisplayName("a request with two Authorization headers is 401 token_invalid, even when both hold the valid token")
  void twoAuthorizationHeaders(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    TokenPair session = gateway.newSession();
    TokenPair other = gateway.newSession();

    for (String second : new String[] {session.accessToken(), other.accessToken(), "garbage"}) {
      HttpResponse<Buffer> response = Await.result(gateway.request(HttpMethod.GET, API + "/whoami", null)
          .putHeader("Authorization", List.of("Bearer " + session.accessToken(), "Bearer " + second)).send());

      assertUnauthorized(response, "token_invalid");
    }
    assertEquals(200, gateway.whoami(session.accessToken()).statusCode(), "one header still works");
  }
}
