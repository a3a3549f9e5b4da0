package io.kith.platform.token;

import io.kith.platform.error.Failures;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class AccessTokensTest {

  private static final String SECRET = "a-test-secret-that-is-longer-than-32-bytes";
  private static final String OTHER_SECRET = "another-secret-that-is-longer-than-32-bytes";
  private static final String ISSUER = "kith";
  private static final String AUDIENCE = "kith-api";

  private AccessTokens tokens;

  @BeforeEach
  void setUp(Vertx vertx) {
    tokens = new AccessTokens(vertx, SECRET, ISSUER, AUDIENCE, 900);
  }

  private static String b64(String s) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  /** A JWT signed by hand, so that every part of it is under the test's control. */
  private static String jwt(JsonObject header, JsonObject payload, String secret, String macAlgorithm) {
    String signingInput = b64(header.encode()) + "." + b64(payload.encode());
    try {
      Mac mac = Mac.getInstance(macAlgorithm);
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), macAlgorithm));
      byte[] signature = mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
      return signingInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonObject hs256() {
    return new JsonObject().put("typ", "JWT").put("alg", "HS256");
  }

  private static JsonObject claims(long userId, String sid) {
    long now = System.currentTimeMillis() / 1000;
    return new JsonObject().put("sub", Long.toString(userId)).put("sid", sid).put("iss", ISSUER)
        .put("aud", new JsonArray().add(AUDIENCE)).put("iat", now).put("exp", now + 600);
  }

  private void assertRefused(String token, String code) {
    Throwable e = Await.failure(tokens.verify(token));
    assertEquals(code, Failures.codeOf(e), "token " + token + " failed with " + e);
  }

  @Test
  @DisplayName("an issued token verifies to its user and session and expires after the configured lifetime")
  void roundTrip() {
    long before = System.currentTimeMillis() / 1000;
    String sid = UUID.randomUUID().toString();

    AccessClaims claims = Await.result(tokens.verify(tokens.issue(4_503_599_627_370_495L, sid)));

    assertEquals(4_503_599_627_370_495L, claims.userId());
    assertEquals(sid, claims.sessionId());
    assertTrue(claims.expiresAt() >= before + 900 && claims.expiresAt() <= before + 901, "exp " + claims.expiresAt());
    assertEquals(900, tokens.ttlSeconds());
  }

  @Test
  @DisplayName("a token crafted by hand with the right secret, algorithm, issuer and audience is accepted")
  void handCraftedValidTokenAccepted() {
    AccessClaims claims = Await.result(tokens.verify(jwt(hs256(), claims(42, "s1"), SECRET, "HmacSHA256")));

    assertEquals(42, claims.userId());
    assertEquals("s1", claims.sessionId());
    AccessClaims plainAudience = Await.result(tokens.verify(
        jwt(hs256(), claims(43, "s2").put("aud", AUDIENCE), SECRET, "HmacSHA256")));
    assertEquals(43, plainAudience.userId());
  }

  @Test
  @DisplayName("a token that outlived its lifetime is refused as expired")
  void expiredTokenByTime(Vertx vertx) {
    // two seconds: expiry is kept in whole seconds, so a one-second token issued just before a second's end could
    // already be expired at the first check on a busy machine
    AccessTokens shortLived = new AccessTokens(vertx, SECRET, ISSUER, AUDIENCE, 2);
    String token = shortLived.issue(7, "s");
    Await.result(shortLived.verify(token));

    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the token to expire",
        () -> shortLived.verify(token).map(c -> false).otherwise(e -> true)));

    Throwable e = Await.failure(shortLived.verify(token));
    assertEquals("token_expired", Failures.codeOf(e));
  }

  @Test
  @DisplayName("a correctly signed token whose exp has passed is refused as expired")
  void expiredTokenCrafted() {
    JsonObject claims = claims(42, "s1");
    claims.put("iat", claims.getLong("iat") - 3600).put("exp", claims.getLong("iat") + 60);

    assertRefused(jwt(hs256(), claims, SECRET, "HmacSHA256"), "token_expired");
  }

  @Test
  @DisplayName("a token whose iat or nbf lies beyond the clock skew in the future is not valid yet; within it, it is")
  void notValidYet() {
    for (String claim : new String[] {"iat", "nbf"}) {
      JsonObject early = claims(42, "s1");
      long now = early.getLong("iat");
      early.put(claim, now + AccessTokens.CLOCK_SKEW_SECONDS + 60);
      assertRefused(jwt(hs256(), early, SECRET, "HmacSHA256"), "token_invalid");
      assertRefused(jwt(hs256(), claims(42, "s1").put(claim, "tomorrow"), SECRET, "HmacSHA256"), "token_invalid");

      JsonObject skewed = claims(42, "s1").put(claim, now + AccessTokens.CLOCK_SKEW_SECONDS / 2);
      assertEquals(42, Await.result(tokens.verify(jwt(hs256(), skewed, SECRET, "HmacSHA256"))).userId(), claim);
    }
  }

  @Test
  @DisplayName("an expired token with a bad signature is invalid, not merely expired")
  void expiredAndForgedIsInvalid() {
    JsonObject claims = claims(42, "s1");
    claims.put("exp", claims.getLong("iat") - 60);

    assertRefused(jwt(hs256(), claims, OTHER_SECRET, "HmacSHA256"), "token_invalid");
  }

  @Test
  @DisplayName("a token whose payload was changed after signing is refused")
  void tamperedPayload() {
    String token = tokens.issue(42, "s1");
    String[] parts = token.split("\\.");
    JsonObject payload = new JsonObject(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
    payload.put("sub", "43");

    assertRefused(parts[0] + "." + b64(payload.encode()) + "." + parts[2], "token_invalid");
  }

  @Test
  @DisplayName("a token with a changed signature is refused")
  void tamperedSignature() {
    String token = tokens.issue(42, "s1");
    char last = token.charAt(token.length() - 2);
    String changed = token.substring(0, token.length() - 2) + (last == 'A' ? 'B' : 'A')
        + token.charAt(token.length() - 1);

    assertRefused(changed, "token_invalid");
  }

  @Test
  @DisplayName("an unsigned token (alg none) is refused")
  void algNone() {
    JsonObject header = new JsonObject().put("typ", "JWT").put("alg", "none");
    String unsigned = b64(header.encode()) + "." + b64(claims(42, "s1").encode()) + ".";

    assertRefused(unsigned, "token_invalid");
    assertRefused(unsigned + "c2ln", "token_invalid");
  }

  @Test
  @DisplayName("a token signed with another secret is refused")
  void otherSecret() {
    assertRefused(jwt(hs256(), claims(42, "s1"), OTHER_SECRET, "HmacSHA256"), "token_invalid");
  }

  @Test
  @DisplayName("a token signed with HS512 under the same secret is refused: the algorithm is pinned")
  void otherAlgorithm() {
    JsonObject header = new JsonObject().put("typ", "JWT").put("alg", "HS512");

    assertRefused(jwt(header, claims(42, "s1"), SECRET, "HmacSHA512"), "token_invalid");
  }

  @Test
  @DisplayName("a token whose header says HS256 but whose signature is HS512 is refused")
  void headerSignatureMismatch() {
    assertRefused(jwt(hs256(), claims(42, "s1"), SECRET, "HmacSHA512"), "token_invalid");
  }

  @Test
  @DisplayName("a token from another issuer is refused")
  void wrongIssuer() {
    assertRefused(jwt(hs256(), claims(42, "s1").put("iss", "someone-else"), SECRET, "HmacSHA256"), "token_invalid");
    assertRefused(jwt(hs256(), claims(42, "s1").put("iss", null), SECRET, "HmacSHA256"), "token_invalid");
  }

  @Test
  @DisplayName("a token for another audience is refused")
  void wrongAudience() {
    assertRefused(jwt(hs256(), claims(42, "s1").put("aud", new JsonArray().add("other-api")), SECRET, "HmacSHA256"),
        "token_invalid");
    assertRefused(jwt(hs256(), claims(42, "s1").put("aud", "other-api"), SECRET, "HmacSHA256"), "token_invalid");
    assertRefused(jwt(hs256(), claims(42, "s1").put("aud", null), SECRET, "HmacSHA256"), "token_invalid");
  }

  @Test
  @DisplayName("a signed token without a numeric subject, a session or an expiry is refused")
  void missingClaims() {
    assertRefused(jwt(hs256(), claims(42, "s1").put("sub", "ada"), SECRET, "HmacSHA256"), "token_invalid");
    assertRefused(jwt(hs256(), claims(42, "s1").put("sub", null), SECRET, "HmacSHA256"), "token_invalid");
    assertRefused(jwt(hs256(), claims(42, "s1").put("sid", null), SECRET, "HmacSHA256"), "token_invalid");
    assertRefused(jwt(hs256(), claims(42, "s1").put("exp", null), SECRET, "HmacSHA256"), "token_invalid");
  }

  @Test
  @DisplayName("strings that are not tokens are refused as invalid")
  void garbage() {
    for (String garbage : new String[] {null, "", "abc", "a.b", "a.b.c", "...", "Bearer x.y.z", "é.é.é",
        b64("{\"alg\":\"HS256\"}") + ".%%%.###", "x".repeat(5000)}) {
      assertRefused(garbage, "token_invalid");
    }
  }

  @Test
  @DisplayName("a secret shorter than 32 bytes or a lifetime below one second is refused")
  void constructorRefusals(Vertx vertx) {
    assertThrows(IllegalArgumentException.class, () -> new AccessTokens(vertx, "short", ISSUER, AUDIENCE, 900));
    assertThrows(IllegalArgumentException.class, () -> new AccessTokens(vertx, null, ISSUER, AUDIENCE, 900));
    assertThrows(IllegalArgumentException.class, () -> new AccessTokens(vertx, SECRET, ISSUER, AUDIENCE, 0));
  }
}
