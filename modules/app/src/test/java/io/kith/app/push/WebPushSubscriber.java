package io.kith.app.push;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A browser's side of Web Push, written from the RFCs with the JDK alone (not with the library Kith sends with): a
 * P-256 key pair and auth secret to subscribe with, decryption of an {@code aes128gcm} body (RFC 8188 and 8291), and
 * the check of a VAPID {@code Authorization: vapid t=<JWT>, k=<key>} header (RFC 8292).
 */
final class WebPushSubscriber {

  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder UNB64 = Base64.getUrlDecoder();

  final KeyPair keys;
  final byte[] auth = new byte[16];

  WebPushSubscriber() throws GeneralSecurityException {
    keys = pair();
    ThreadLocalRandom.current().nextBytes(auth);
  }

  static KeyPair pair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  /** The uncompressed point of a P-256 public key (65 bytes). */
  static byte[] point(PublicKey key) {
    ECPoint w = ((ECPublicKey) key).getW();
    byte[] out = new byte[65];
    out[0] = 4;
    fixed(w.getAffineX(), out, 1);
    fixed(w.getAffineY(), out, 33);
    return out;
  }

  static void fixed(BigInteger n, byte[] into, int at) {
    byte[] b = n.toByteArray();
    int skip = Math.max(0, b.length - 32);
    System.arraycopy(b, skip, into, at + 32 - (b.length - skip), b.length - skip);
  }

  static String b64(byte[] bytes) {
    return B64.encodeToString(bytes);
  }

  /** The registration a browser's subscription makes. */
  JsonObject target(String endpoint) {
    return new JsonObject().put("kind", "webpush").put("endpoint", endpoint).put("keys", new JsonObject()
        .put("p256dh", b64(point(keys.getPublic()))).put("auth", b64(auth)));
  }

  /** Decrypts an aes128gcm body sent to this subscription (RFC 8291 section 3.4, RFC 8188 section 2). */
  JsonObject decrypt(Buffer body) throws GeneralSecurityException {
    ByteBuffer in = ByteBuffer.wrap(body.getBytes());
    byte[] salt = new byte[16];
    in.get(salt);
    in.getInt(); // record size
    byte[] senderPoint = new byte[in.get() & 0xff];
    in.get(senderPoint);
    byte[] cipherText = new byte[in.remaining()];
    in.get(cipherText);

    KeyAgreement ecdh = KeyAgreement.getInstance("ECDH");
    ecdh.init(keys.getPrivate());
    ecdh.doPhase(publicKey(senderPoint), true);
    byte[] ecdhSecret = ecdh.generateSecret();
    byte[] keyInfo = concat("WebPush: info\0".getBytes(StandardCharsets.US_ASCII), point(keys.getPublic()),
        senderPoint);
    byte[] ikm = expand(hmac(auth, ecdhSecret), keyInfo, 32);
    byte[] prk = hmac(salt, ikm);
    byte[] cek = expand(prk, "Content-Encoding: aes128gcm\0".getBytes(StandardCharsets.US_ASCII), 16);
    byte[] nonce = expand(prk, "Content-Encoding: nonce\0".getBytes(StandardCharsets.US_ASCII), 12);
    Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
    aes.init(Cipher.DECRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(128, nonce));
    byte[] padded = aes.doFinal(cipherText);
    int end = padded.length - 1;
    while (end >= 0 && padded[end] == 0) {
      end--;
    }
    if (end < 0 || padded[end] != 2) {
      throw new GeneralSecurityException("the last record must end with the delimiter 0x02");
    }
    return new JsonObject(new String(padded, 0, end, StandardCharsets.UTF_8));
  }

  /**
   * Checks a VAPID Authorization header against the server's public key: the JWT's ES256 signature, its audience
   * (the endpoint's origin), expiry within 24 hours and subject. Returns the JWT's claims.
   */
  static JsonObject vapid(String header, byte[] serverPoint, String origin) throws GeneralSecurityException {
    if (header == null || !header.startsWith("vapid ")) {
      throw new GeneralSecurityException("not a vapid Authorization: " + header);
    }
    String t = null;
    String k = null;
    for (String part : header.substring(6).split(",")) {
      String p = part.trim();
      if (p.startsWith("t=")) {
        t = p.substring(2);
      } else if (p.startsWith("k=")) {
        k = p.substring(2);
      }
    }
    if (t == null || k == null || !Arrays.equals(UNB64.decode(k), serverPoint)) {
      throw new GeneralSecurityException("vapid t and k (the server's key) expected: " + header);
    }
    String[] jwt = t.split("\\.");
    Signature es256 = Signature.getInstance("SHA256withECDSAinP1363Format");
    es256.initVerify(publicKey(serverPoint));
    es256.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
    if (!es256.verify(UNB64.decode(jwt[2]))) {
      throw new GeneralSecurityException("the VAPID JWT's signature does not verify");
    }
    JsonObject claims = new JsonObject(new String(UNB64.decode(jwt[1]), StandardCharsets.UTF_8));
    long exp = claims.getLong("exp", 0L);
    long now = System.currentTimeMillis() / 1000;
    if (!origin.equals(claims.getString("aud")) || exp <= now || exp > now + 86_400) {
      throw new GeneralSecurityException("bad VAPID claims: " + claims.encode());
    }
    return claims;
  }

  private static PublicKey publicKey(byte[] point) throws GeneralSecurityException {
    KeyPair any = pair();
    ECPublicKey template = (ECPublicKey) any.getPublic();
    ECPoint w = new ECPoint(new BigInteger(1, Arrays.copyOfRange(point, 1, 33)),
        new BigInteger(1, Arrays.copyOfRange(point, 33, 65)));
    return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, template.getParams()));
  }

  private static byte[] hmac(byte[] key, byte[] data) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(data);
  }

  /** HKDF-Expand for one block (every length here is at most 32). */
  private static byte[] expand(byte[] prk, byte[] info, int length) throws GeneralSecurityException {
    return Arrays.copyOf(hmac(prk, concat(info, new byte[] {1})), length);
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
