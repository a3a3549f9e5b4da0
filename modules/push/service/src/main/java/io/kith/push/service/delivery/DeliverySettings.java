package io.kith.push.service.delivery;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The delivery settings of the {@code push} configuration section and its provider sub-sections.
 *
 * @param offlineOnly     {@code deliver-when: offline}: push only to users without a live bridge connection
 *                        ({@code always}: to every user)
 * @param perMinute       pushes one user may receive per minute; beyond, a notification is stored but not pushed
 * @param concurrency     notification events one node delivers at once
 * @param attempts        tries per target when a provider answers 429 or 5xx or does not answer
 * @param retryBaseMs     wait before the second try, doubled before each next one
 * @param timeoutMs       longest wait for one provider answer
 * @param trustPath       PEM file of extra CA certificates trusted for provider endpoints (empty: the JDK's)
 * @param apns            the {@code apns} sub-section
 * @param fcm             the {@code fcm} sub-section
 * @param webPush         the {@code webpush} sub-section
 */
record DeliverySettings(boolean offlineOnly, int perMinute, int concurrency, int attempts, long retryBaseMs,
                        long timeoutMs, String trustPath, Apns apns, Fcm fcm, WebPush webPush) {

  static final String DELIVER_WHEN = "deliver-when";
  static final String PUSHES_PER_MINUTE = "pushes-per-minute";
  static final String CONCURRENCY = "concurrency";
  static final String ATTEMPTS = "attempts";
  static final String RETRY_BASE_MS = "retry-base-ms";
  static final String TIMEOUT_MS = "timeout-ms";
  static final String TRUST_PATH = "trust-path";

  /**
   * APNs with token authentication ({@code keyPath}, {@code keyId} and {@code teamId} all set) or certificate
   * authentication ({@code certPath} set); {@link #from} admits exactly one of them, or none (APNs off).
   *
   * @param keyPath      the .p8 signing key from Apple's developer account
   * @param keyId        its key id
   * @param teamId       the developer team id
   * @param certPath     the PKCS#12 (.p12) file holding the APNs client certificate and its private key
   * @param certPassword the password of that file (may be empty)
   * @param topic        the bundle id used for targets registered without a topic
   * @param host         APNs host for every target (empty: Apple's production or sandbox host by the target's flag)
   * @param port         port of {@code host}
   */
  record Apns(String keyPath, String keyId, String teamId, String certPath, String certPassword, String topic,
              String host, int port) {
    boolean on() {
      return token() || certificate();
    }

    boolean token() {
      return !keyPath.isEmpty();
    }

    boolean certificate() {
      return !certPath.isEmpty();
    }

    /** How APNs authenticates, for the start-up log line. */
    String auth() {
      return token() ? "token" : certificate() ? "certificate" : "off";
    }
  }

  /**
   * FCM HTTP v1: used when {@code credentialsPath} and {@code projectId} are set.
   *
   * @param credentialsPath the service-account JSON key of the Firebase project
   * @param projectId       the Firebase project id
   * @param baseUrl         the FCM API base URL
   */
  record Fcm(String credentialsPath, String projectId, String baseUrl) {
    boolean on() {
      return !credentialsPath.isEmpty() && !projectId.isEmpty();
    }
  }

  /**
   * Web Push with VAPID: used when both keys are set.
   *
   * @param publicKey  the VAPID public key (uncompressed P-256 point, base64url), the one browsers subscribe with
   * @param privateKey the VAPID private key (base64url)
   * @param subject    the contact the push services may reach ({@code mailto:} or {@code https:})
   */
  record WebPush(String publicKey, String privateKey, String subject) {
    boolean on() {
      return !publicKey.isEmpty() && !privateKey.isEmpty();
    }
  }

  static DeliverySettings from(JsonObject section) {
    Bounds b = Bounds.of("push", section);
    String when = b.text(DELIVER_WHEN);
    if (!when.equals("offline") && !when.equals("always")) {
      throw new IllegalArgumentException("push.deliver-when must be offline or always: " + when);
    }
    Bounds a = Bounds.of("push.apns", section.getJsonObject("apns", new JsonObject()));
    Bounds f = Bounds.of("push.fcm", section.getJsonObject("fcm", new JsonObject()));
    Bounds w = Bounds.of("push.webpush", section.getJsonObject("webpush", new JsonObject()));
    return new DeliverySettings(when.equals("offline"), b.within(PUSHES_PER_MINUTE, 1, 10_000),
        b.within(CONCURRENCY, 1, 1_000), b.within(ATTEMPTS, 1, 10), b.within(RETRY_BASE_MS, 1L, 60_000L),
        b.within(TIMEOUT_MS, 100L, 120_000L), b.text(TRUST_PATH),
        apns(a),
        new Fcm(f.text("credentials-path"), f.text("project-id"), f.text("base-url")),
        new WebPush(w.text("public-key"), w.text("private-key"), w.text("subject")));
  }

  /**
   * The {@code apns} sub-section with one way of authenticating or none: a half-made token key or a certificate next
   * to a token key would otherwise start with APNs silently off, or with a key the operator did not mean.
   */
  private static Apns apns(Bounds a) {
    Apns apns = new Apns(a.text("key-path"), a.text("key-id"), a.text("team-id"), a.text("cert-path"),
        a.text("cert-password"), a.text("topic"), a.text("host"), a.within("port", 1, 65_535));
    boolean anyToken = !apns.keyPath().isEmpty() || !apns.keyId().isEmpty() || !apns.teamId().isEmpty();
    if (anyToken && apns.certificate()) {
      throw new IllegalArgumentException("push.apns takes token authentication (key-path, key-id, team-id) or "
          + "certificate authentication (cert-path, cert-password), not both: clear one of them");
    }
    if (anyToken && (apns.keyPath().isEmpty() || apns.keyId().isEmpty() || apns.teamId().isEmpty())) {
      throw new IllegalArgumentException("push.apns token authentication needs push.apns.key-path, "
          + "push.apns.key-id and push.apns.team-id all set (or push.apns.cert-path for certificate authentication)");
    }
    if (!apns.certPassword().isEmpty() && !apns.certificate()) {
      throw new IllegalArgumentException("push.apns.cert-password is set but push.apns.cert-path is empty: "
          + "certificate authentication needs the .p12 file");
    }
    return apns;
  }
}
