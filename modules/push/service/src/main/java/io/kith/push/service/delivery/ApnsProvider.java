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

import java.io.File;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * APNs over HTTP/2 with Pushy and token authentication (a .p8 key): one client for Apple's production host and one
 * for its sandbox, each made on first use, chosen by the target's {@code sandbox} flag (a configured host serves
 * both). Apple's answers: 410, {@code Unregistered} and {@code BadDeviceToken} mean
 * the token is gone; 429 and 5xx are retried.
 */
final class ApnsProvider implements Provider {

  private static final Logger LOG = LoggerFactory.getLogger(ApnsProvider.class);
  // DeviceTokenNotForTopic is left out: a wrong push.apns.topic would otherwise drop every target
  private static final Set<String> GONE = Set.of("Unregistered", "BadDeviceToken");

  private final Vertx vertx;
  private final DeliverySettings.Apns settings;
  private final ApnsSigningKey key;
  private final String trustPath;
  private final long timeoutMs;
  private ApnsClient production;
  private ApnsClient sandbox;

  ApnsProvider(Vertx vertx, DeliverySettings settings) throws IOException, GeneralSecurityException {
    this.vertx = vertx;
    this.settings = settings.apns();
    this.trustPath = settings.trustPath();
    this.timeoutMs = settings.timeoutMs();
    this.key = ApnsSigningKey.loadFromPkcs8File(new File(this.settings.keyPath()), this.settings.teamId(),
        this.settings.keyId());
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
    ApnsClientBuilder builder = new ApnsClientBuilder().setSigningKey(key)
        .setConnectionTimeout(Duration.ofMillis(timeoutMs));
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
