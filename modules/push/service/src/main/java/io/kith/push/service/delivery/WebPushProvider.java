package io.kith.push.service.delivery;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import nl.martijndwars.webpush.AbstractPushService;
import nl.martijndwars.webpush.Encoding;
import nl.martijndwars.webpush.Encrypted;
import nl.martijndwars.webpush.Utils;
import org.bouncycastle.jce.interfaces.ECPublicKey;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Security;
import java.util.Base64;

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and the {@code aes128gcm} payload encryption of RFC 8291: the
 * {@code web-push} library encrypts the JSON payload for the subscription's keys, jose4j (the library's own JWT
 * dependency) signs the VAPID token, and Kith's non-blocking client sends the request. The token is signed here
 * rather than by the library because the library leaves a non-default port out of the audience (the endpoint's
 * origin). The push service's 404 and 410 mean the subscription is gone.
 */
final class WebPushProvider implements Provider {

  /** Seconds a push service keeps an undelivered message (a notification is stale after a day). */
  private static final int TTL_SECONDS = 86_400;
  /** VAPID tokens live 12 hours (RFC 8292 allows up to 24). */
  private static final long TOKEN_SECONDS = 12 * 3600;

  private final Vertx vertx;
  private final WebClient web;
  private final PrivateKey privateKey;
  private final String publicKey;
  private final String subject;
  private final long timeoutMs;

  WebPushProvider(Vertx vertx, WebClient web, DeliverySettings settings) throws GeneralSecurityException {
    if (Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null) {
      // the library names the BC provider for its key and ECDH operations
      Security.addProvider(new BouncyCastleProvider());
    }
    this.vertx = vertx;
    this.web = web;
    DeliverySettings.WebPush w = settings.webPush();
    this.privateKey = Utils.loadPrivateKey(w.privateKey());
    if (!Utils.verifyKeyPair(privateKey, Utils.loadPublicKey(w.publicKey()))) {
      throw new GeneralSecurityException("push.webpush.public-key and private-key are not one key pair");
    }
    this.publicKey = w.publicKey();
    this.subject = w.subject();
    this.timeoutMs = settings.timeoutMs();
  }

  @Override
  public String kind() {
    return "webpush";
  }

  @Override
  public Future<Outcome> send(JsonObject target, PushMessage message) {
    String endpoint = target.getString("endpoint");
    // ECDH, HKDF, AES-GCM and an ES256 signature: CPU work kept off the event loop
    return vertx.executeBlocking(() -> new Prepared(encrypt(target, message), vapid(endpoint)), false)
        .compose(p -> web.postAbs(endpoint).timeout(timeoutMs)
            .putHeader("TTL", Integer.toString(TTL_SECONDS)).putHeader("Urgency", "high")
            // Topic (RFC 8030 5.4): a newer push of the same key replaces one still waiting at the push service
            .putHeader("Topic", topic(message.collapse()))
            .putHeader("Content-Type", "application/octet-stream").putHeader("Content-Encoding", "aes128gcm")
            .putHeader("Authorization", p.authorization())
            .sendBuffer(Buffer.buffer(p.body())))
        .map(response -> Provider.ofStatus(response.statusCode()));
  }

  private record Prepared(byte[] body, String authorization) {
  }

  private static byte[] encrypt(JsonObject target, PushMessage message) throws Exception {
    JsonObject payload = new JsonObject().put("body", message.body()).put("badge", message.badge())
        .put("tag", message.collapse()).put("data", message.data());
    if (message.title() != null) {
      payload.put("title", message.title());
    }
    ECPublicKey key = (ECPublicKey) Utils.loadPublicKey(target.getString("p256dh"));
    byte[] auth = Base64.getUrlDecoder().decode(target.getString("auth"));
    Encrypted encrypted = AbstractPushService.encrypt(payload.encode().getBytes(StandardCharsets.UTF_8), key, auth,
        Encoding.AES128GCM);
    return encrypted.getCiphertext();
  }

  /** {@code vapid t=<ES256 JWT: aud (the endpoint's origin), exp, sub>, k=<public key>}. */
  private String vapid(String endpoint) throws Exception {
    URI uri = URI.create(endpoint);
    String origin = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
    JwtClaims claims = new JwtClaims();
    claims.setAudience(origin);
    claims.setExpirationTime(NumericDate.fromSeconds(System.currentTimeMillis() / 1000 + TOKEN_SECONDS));
    claims.setSubject(subject);
    JsonWebSignature jws = new JsonWebSignature();
    jws.setHeader("typ", "JWT");
    jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256);
    jws.setPayload(claims.toJson());
    jws.setKey(privateKey);
    return "vapid t=" + jws.getCompactSerialization() + ", k=" + publicKey;
  }

  /** A Topic header value: up to 32 characters of the URL-safe base64 alphabet. */
  private static String topic(String collapse) {
    String t = collapse.replaceAll("[^A-Za-z0-9_-]", "-");
    return t.length() > 32 ? t.substring(0, 32) : t;
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture(); // the shared web client is closed by the part
  }
}
