package io.kith.push.service.delivery;

import com.eatthepath.pushy.apns.ApnsClient;
import com.eatthepath.pushy.apns.ApnsClientBuilder;
import com.eatthepath.pushy.apns.DeliveryPriority;
import com.eatthepath.pushy.apns.PushNotificationResponse;
import com.eatthepath.pushy.apns.PushType;
import com.eatthepath.pushy.apns.auth.ApnsSigningKey;
import com.eatthepath.pushy.apns.util.SimpleApnsPayloadBuilder;
import com.eatthepath.pushy.apns.util.SimpleApnsPushNotification;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * APNs over HTTP/2 with Pushy and token authentication (a .p8 key) or certificate authentication (a .p12 client
 * certificate presented in the TLS handshake): one client for Apple's production host and one for its sandbox, each
 * made on first use, chosen by the target's {@code sandbox} flag (a configured host serves both). Apple's answers:
 * 410, {@code Unregistered} and {@code BadDeviceToken} mean the token is gone; 429 and 5xx are retried. A push that
 * fails without an answer (a refused handshake: an expired or untrusted certificate) is logged with its cause.
 */
final class ApnsProvider implements Provider {

  private static final Logger LOG = LoggerFactory.getLogger(ApnsProvider.class);
  // DeviceTokenNotForTopic is left out: a wrong push.apns.topic would otherwise drop every target
  private static final Set<String> GONE = Set.of("Unregistered", "BadDeviceToken");

  private final Vertx vertx;
  private final DeliverySettings.Apns settings;
  private final Credentials credentials;
  private final String trustPath;
  private final long timeoutMs;
  private ApnsClient production;
  private ApnsClient sandbox;

  ApnsProvider(Vertx vertx, DeliverySettings settings) throws IOException, GeneralSecurityException {
    this.vertx = vertx;
    this.settings = settings.apns();
    this.trustPath = settings.trustPath();
    this.timeoutMs = settings.timeoutMs();
    this.credentials = this.settings.certificate() ? certificate(this.settings) : token(this.settings);
  }

  /** How every client of this provider proves who it is. */
  private interface Credentials {
    void apply(ApnsClientBuilder builder) throws IOException;
  }

  private static Credentials token(DeliverySettings.Apns settings) throws IOException, GeneralSecurityException {
    ApnsSigningKey key = ApnsSigningKey.loadFromPkcs8File(new File(settings.keyPath()), settings.teamId(),
        settings.keyId());
    return builder -> builder.setSigningKey(key);
  }

  private static Credentials certificate(DeliverySettings.Apns settings) {
    byte[] p12;
    try {
      p12 = Files.readAllBytes(Path.of(settings.certPath()));
    } catch (IOException e) {
      throw new IllegalArgumentException("push.apns.cert-path " + settings.certPath() + " cannot be read: " + e, e);
    }
    String password = settings.certPassword();
    Credentials credentials = builder -> builder.setClientCredentials(new ByteArrayInputStream(p12), password);
    try {
      // read once now so that a wrong password or a file that is not PKCS#12 fails the start, not every push
      credentials.apply(new ApnsClientBuilder());
    } catch (IOException e) {
      Throwable cause = e;
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      throw new IllegalArgumentException("push.apns.cert-path " + settings.certPath() + " cannot be read as a "
          + "PKCS#12 file with push.apns.cert-password: " + cause, e);
    }
    return credentials;
  }

  @Override
  public String kind() {
    return "apns";
  }

  @Override
  public Future<Outcome> send(JsonObject target, PushMessage message) {
    String topic = target.getString("topic", settings.topic());
    if (topic == null || topic.isEmpty()) {
      LOG.warn("APNs target {} has no topic and push.apns.topic is empty: not sent", target.getLong("_id"));
      return Future.succeededFuture(Outcome.REJECTED);
    }
    SimpleApnsPushNotification notification;
    ApnsClient client;
    try {
      client = client(target.getBoolean("sandbox", false));
      notification = new SimpleApnsPushNotification(target.getString("token"), topic, payload(message),
          Instant.now().plus(Duration.ofDays(1)), DeliveryPriority.IMMEDIATE, PushType.ALERT, message.collapse());
    } catch (IOException | RuntimeException e) {
      return Future.failedFuture(e);
    }
    return Future.fromCompletionStage(client.sendNotification(notification), vertx.getOrCreateContext())
        .onFailure(e -> LOG.warn("APNs push to target {} failed before an answer: {}", target.getLong("_id"),
            e.toString()))
        .map(ApnsProvider::outcome);
  }

  private static String payload(PushMessage message) {
    SimpleApnsPayloadBuilder payload = new SimpleApnsPayloadBuilder();
    if (message.title() != null) {
      payload.setAlertTitle(message.title());
    }
    payload.setAlertBody(message.body()).setBadgeNumber((int) Math.min(Integer.MAX_VALUE, message.badge()))
        .setThreadId(message.collapse()).setSound("default")
        .addCustomProperty("kith", message.data().getMap());
    return payload.build();
  }

  private static Outcome outcome(PushNotificationResponse<SimpleApnsPushNotification> response) {
    if (response.isAccepted()) {
      return Outcome.SENT;
    }
    String reason = response.getRejectionReason().orElse("");
    int status = response.getStatusCode();
    if (status == 410 || GONE.contains(reason)) {
      return Outcome.GONE;
    }
    if (status == 429 || status >= 500) {
      return Outcome.RETRY;
    }
    LOG.warn("APNs refused a push: {} {}", status, reason);
    return Outcome.REJECTED;
  }

  private synchronized ApnsClient client(boolean toSandbox) throws IOException {
    if (toSandbox && sandbox == null) {
      sandbox = build(ApnsClientBuilder.DEVELOPMENT_APNS_HOST);
    } else if (!toSandbox && production == null) {
      production = build(ApnsClientBuilder.PRODUCTION_APNS_HOST);
    }
    return toSandbox ? sandbox : production;
  }

  private ApnsClient build(String appleHost) throws IOException {
    ApnsClientBuilder builder = new ApnsClientBuilder().setConnectionTimeout(Duration.ofMillis(timeoutMs));
    credentials.apply(builder);
    if (settings.host().isEmpty()) {
      builder.setApnsServer(appleHost, settings.port());
    } else {
      builder.setApnsServer(settings.host(), settings.port());
    }
    if (!trustPath.isEmpty()) {
      builder.setTrustedServerCertificateChain(new File(trustPath));
    }
    return builder.build();
  }

  @Override
  public synchronized Future<Void> close() {
    Future<Void> done = Future.succeededFuture();
    for (ApnsClient client : new ApnsClient[] {production, sandbox}) {
      if (client != null) {
        done = done.eventually(() -> Future.fromCompletionStage(client.close()));
      }
    }
    return done;
  }
}
