package io.kith.platform.token;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Signs and verifies access tokens: JWTs signed with HMAC-SHA256 (the only algorithm accepted: a token whose header
 * names another algorithm, including {@code none}, is refused before its signature is looked at), carrying
 * {@code sub} (user id), {@code sid} (session id), {@code iss}, {@code aud}, {@code iat} and {@code exp}.
 * Issuer and audience are checked on every verification. A token whose {@code iat} or {@code nbf} lies more than
 * {@value #CLOCK_SKEW_SECONDS} seconds in the future is refused (the allowance covers clocks of nodes that differ a
 * little); {@code exp} has no allowance.
 *
 * <p>Verification here is cryptographic only; whether the session is still alive is {@link Sessions}' business.
 */
public final class AccessTokens {

  /** The pinned algorithm. */
  public static final String ALGORITHM = "HS256";
  private static final String PINNED_HEADER =
      Base64.getUrlEncoder().withoutPadding().encodeToString(
          "{\"typ\":\"JWT\",\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8));

  /** How far in the future {@code iat} and {@code nbf} may lie (seconds): the clocks of nodes differ a little. */
  public static final int CLOCK_SKEW_SECONDS = 30;

  private final JWTAuth jwt;
  private final JWTOptions signOptions;
  private final int ttlSeconds;

  /**
   * @param secret     HMAC key, at least 32 bytes
   * @param issuer     {@code iss} written and required
   * @param audience   {@code aud} written and required
   * @param ttlSeconds access token lifetime
   */
  public AccessTokens(Vertx vertx, String secret, String issuer, String audience, int ttlSeconds) {
    if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < 32) {
      throw new IllegalArgumentException("tokens.secret must be at least 32 bytes");
    }
    if (ttlSeconds < 1) {
      throw new IllegalArgumentException("tokens.access-ttl must be positive");
    }
    this.ttlSeconds = ttlSeconds;
    this.signOptions = new JWTOptions()
        .setAlgorithm(ALGORITHM)
        .setIssuer(issuer)
        .setAudience(List.of(audience))
        .setExpiresInSeconds(ttlSeconds);
    JWTOptions verifyOptions = new JWTOptions()
        .setAlgorithm(ALGORITHM)
        .setIssuer(issuer)
        .setAudience(List.of(audience))
        .setLeeway(0)
        // expiry is checked below so that an expired token gets its own code; ignoring it also skips the library's
        // iat and nbf checks, so those are made below too
        .setIgnoreExpiration(true);
    this.jwt = JWTAuth.create(vertx, new JWTAuthOptions()
        .addPubSecKey(new PubSecKeyOptions().setAlgorithm(ALGORITHM).setBuffer(secret))
        .setJWTOptions(verifyOptions));
  }

  /** Access token lifetime in seconds. */
  public int ttlSeconds() {
    return ttlSeconds;
  }

  /** Signs an access token for {@code userId} in session {@code sessionId}. */
  public String issue(long userId, String sessionId) {
    return jwt.generateToken(new JsonObject().put("sub", Long.toString(userId)).put("sid", sessionId), signOptions);
  }

  /**
   * Verifies signature, algorithm, issuer, audience and expiry.
   *
   * @return the claims, or a failure coded {@code token_invalid} or {@code token_expired}
   */
  public Future<AccessClaims> verify(String token) {
    if (token == null || token.length() > 4096) {
      return Failures.fail(KithErrors.TOKEN_INVALID, "the access token is malformed");
    }
    int dot = token.indexOf('.');
    if (dot < 0 || !pinnedAlgorithm(token.substring(0, dot))) {
      return Failures.fail(KithErrors.TOKEN_INVALID, "the access token is malformed or not signed with " + ALGORITHM);
    }
    Future<User> authenticated;
    try {
      authenticated = jwt.authenticate(new TokenCredentials(token));
    } catch (RuntimeException e) {
      // vertx-auth-jwt throws (instead of failing) on some signed payloads, e.g. "aud": null or "exp": null
      authenticated = Future.failedFuture(e);
    }
    return authenticated
        .recover(e -> Failures.fail(KithErrors.TOKEN_INVALID, "the access token is not valid"))
        .compose(user -> {
          // Vert.x 5 moves exp, iat, nbf and sub out of the principal; the whole payload is the accessToken attribute
          JsonObject p = user.attributes().getJsonObject("accessToken", user.principal());
          Object expClaim = p.getValue("exp");
          Object sub = p.getValue("sub");
          Object sid = p.getValue("sid");
          long exp = expClaim instanceof Number ? ((Number) expClaim).longValue() : 0L;
          long uid;
          try {
            uid = Long.parseLong((String) sub);
          } catch (NumberFormatException | NullPointerException | ClassCastException e) {
            return Failures.fail(KithErrors.TOKEN_INVALID, "the access token has no valid subject");
          }
          if (!(sid instanceof String) || exp == 0) {
            return Failures.fail(KithErrors.TOKEN_INVALID, "the access token lacks required claims");
          }
          long now = System.currentTimeMillis() / 1000;
          if (!notInFuture(p.getValue("iat"), now) || !notInFuture(p.getValue("nbf"), now)) {
            return Failures.fail(KithErrors.TOKEN_INVALID, "the access token is not valid yet");
          }
          if (exp <= now) {
            return Failures.fail(KithErrors.TOKEN_EXPIRED, "the access token has expired; refresh it");
          }
          return Future.succeededFuture(new AccessClaims(uid, (String) sid, exp));
        });
  }

  /** Whether an optional time claim is absent, or a number of epoch seconds no later than now plus the skew. */
  private static boolean notInFuture(Object claim, long now) {
    if (claim == null) {
      return true;
    }
    return claim instanceof Number && ((Number) claim).doubleValue() <= now + CLOCK_SKEW_SECONDS;
  }

  private static boolean pinnedAlgorithm(String encodedHeader) {
    if (encodedHeader.equals(PINNED_HEADER)) {
      return true;
    }
    try {
      JsonObject header = new JsonObject(new String(Base64.getUrlDecoder().decode(encodedHeader),
          StandardCharsets.UTF_8));
      return ALGORITHM.equals(header.getString("alg"));
    } catch (RuntimeException e) {
      return false;
    }
  }
}
