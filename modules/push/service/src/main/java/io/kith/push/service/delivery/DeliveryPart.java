package io.kith.push.service.delivery;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingEvents;
import io.kith.notifications.api.NotificationsEvents;
import io.kith.notifications.api.NotificationsService;
import io.kith.platform.events.ConsumerSet;
import io.kith.platform.Platform;
import io.kith.platform.limit.RateLimiter;
import io.kith.push.service.targets.TargetRecords;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The delivery part of the push module: the providers that have credentials (a provider without them is simply not
 * used; the log says which are on), the consumer of the notifications stream in group {@value #GROUP} and that of the
 * messaging stream (group chat messages) in group {@value #MESSAGES_GROUP}, each event handled once
 * ({@code EventLog.once}), up to {@code push.concurrency} at a time.
 */
public final class DeliveryPart {

  static final String GROUP = "push-notifications";
  static final String MESSAGES_GROUP = "push-messages";
  private static final Logger LOG = LoggerFactory.getLogger(DeliveryPart.class);

  private final Platform platform;
  private final TargetRecords targets;
  private final Preferences preferences;
  private final int maxTargets;
  private final Map<String, Provider> providers = new LinkedHashMap<>();
  private WebClient web;
  private final ConsumerSet consumers;

  /** The Redis window of pushes sent to {@code user} in the minute ({@code push.pushes-per-minute}). */
  public static String rateKey(long user) {
    return "push:{u:" + user + "}:rate";
  }

  /** Builds the part over the targets store; {@code maxTargets} bounds the targets read per push. */
  public DeliveryPart(Platform platform, TargetRecords targets, Preferences preferences, int maxTargets) {
    this.platform = platform;
    this.targets = targets;
    this.preferences = preferences;
    this.maxTargets = maxTargets;
    this.consumers = new ConsumerSet(platform.events());
  }

  /** Makes the providers that have credentials and starts consuming. */
  public Future<Void> start() {
    DeliverySettings settings;
    try {
      settings = DeliverySettings.from(platform.config().section("push"));
      makeProviders(settings);
    } catch (Exception e) {
      return Future.failedFuture(new IllegalStateException("push: cannot set up providers: " + e.getMessage(), e));
    }
    LOG.info("push providers on: {} (apns {}, fcm {}, webpush {}); deliver-when {}", providers.keySet(),
        settings.apns().on() ? "on: " + settings.apns().auth() : "off: no key or certificate", settings.fcm().on() ? "on" : "off: no credentials",
        settings.webPush().on() ? "on" : "off: no VAPID keys", settings.offlineOnly() ? "offline" : "always");
    Deliveries deliveries = new Deliveries(platform.vertx(), settings, new Deliveries.Steps(targets, preferences,
        AccountsInternal.proxy(platform.vertx()), platform.sessions(), new RateLimiter(platform.redis()), maxTargets),
        providers);
    GroupMessages messages = new GroupMessages(deliveries, settings.offlineOnly(),
        AccountsInternal.proxy(platform.vertx()), AccountsService.proxy(platform.vertx()),
        RelationsInternal.proxy(platform.vertx()), NotificationsService.proxy(platform.vertx()));
    return consumers.once(NotificationsEvents.DOMAIN, GROUP, settings.concurrency(), deliveries::handle)
        .compose(v -> consumers.once(MessagingEvents.DOMAIN, MESSAGES_GROUP, settings.concurrency(),
            messages::handle));
  }

  private void makeProviders(DeliverySettings settings) throws Exception {
    WebClientOptions options = new WebClientOptions().setUserAgent("Kith-push").setConnectTimeout(
        (int) settings.timeoutMs());
    if (!settings.trustPath().isEmpty()) {
      options.setTrustOptions(new PemTrustOptions().addCertPath(settings.trustPath()));
    }
    web = WebClient.create(platform.vertx(), options);
    if (settings.apns().on()) {
      providers.put("apns", new ApnsProvider(platform.vertx(), settings));
    }
    if (settings.fcm().on()) {
      providers.put("fcm", new FcmProvider(platform.vertx(), web, settings));
    }
    if (settings.webPush().on()) {
      providers.put("webpush", new WebPushProvider(platform.vertx(), web, settings));
    }
  }

  /** Stops consuming and closes the providers' connections. */
  public Future<Void> stop() {
    return consumers.stop().eventually(() -> {
      List<Future<Void>> closes = new ArrayList<>();
      providers.values().forEach(p -> closes.add(p.close()));
      return Future.join(closes);
    }).eventually(() -> {
      if (web != null) {
        web.close();
      }
      return Future.succeededFuture();
    }).mapEmpty();
  }
}
