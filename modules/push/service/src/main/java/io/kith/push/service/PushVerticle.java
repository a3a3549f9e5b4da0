package io.kith.push.service;

import io.kith.platform.Platform;
import io.kith.push.service.delivery.DeliveryPart;
import io.kith.push.service.delivery.Preferences;
import io.kith.push.service.targets.TargetsPart;
import io.kith.push.service.announcements.AnnouncementsPart;
import io.kith.push.service.keys.ApiKeysPart;
import io.kith.push.service.webhooks.WebhooksPart;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Wires the push module's parts: each part starts here and is stopped, in reverse order, when the verticle stops.
 */
public final class PushVerticle extends VerticleBase {

  private final Platform platform;
  private final List<Supplier<Future<?>>> stops = new ArrayList<>();

  /** Creates the verticle on a node's platform. */
  public PushVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    // each part: build it on platform, start it, and add its stop to stops
    Future<?> started = Future.succeededFuture(platform);
    Preferences preferences = new Preferences(platform.mongo());
    TargetsPart targets = new TargetsPart(platform, preferences);
    started = started.compose(v -> preferences.ensureIndexes()).compose(v -> targets.start())
        .onSuccess(v -> stops.add(targets::stop));
    DeliveryPart delivery = new DeliveryPart(platform, targets.records(), preferences, targets.maxTargets());
    started = started.compose(v -> delivery.start()).onSuccess(v -> stops.add(delivery::stop));
    ApiKeysPart keys = new ApiKeysPart(platform);
    started = started.compose(v -> keys.start()).onSuccess(v -> stops.add(keys::stop));
    WebhooksPart webhooks = new WebhooksPart(platform, keys.operator());
    started = started.compose(v -> webhooks.start()).onSuccess(v -> stops.add(webhooks::stop));
    AnnouncementsPart announcements = new AnnouncementsPart(platform);
    started = started.compose(v -> announcements.start()).onSuccess(v -> stops.add(announcements::stop));
    return started;
  }

  @Override
  public Future<?> stop() {
    Future<?> chain = Future.succeededFuture();
    for (int i = stops.size() - 1; i >= 0; i--) {
      Supplier<Future<?>> stop = stops.get(i);
      chain = chain.eventually(stop::get);
    }
    return chain;
  }
}
