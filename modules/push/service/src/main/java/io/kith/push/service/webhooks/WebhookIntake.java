package io.kith.push.service.webhooks;

import io.kith.platform.Platform;
import io.kith.platform.events.ConsumerSet;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Queues a delivery per subscribed endpoint for every domain event a webhook type stands for. It reads each domain's
 * stream in its own consumer group ({@code push-webhooks-<domain>}, once per event id), so webhooks neither wait for
 * nor slow another module's consumers, and a redelivered event queues nothing new (each delivery's key is unique).
 */
final class WebhookIntake {

  static final String GROUP_PREFIX = "push-webhooks-";

  private final Platform platform;
  private final WebhookEndpoints endpoints;
  private final WebhookDeliveries deliveries;
  private final ConsumerSet consumers;

  WebhookIntake(Platform platform, WebhookEndpoints endpoints, WebhookDeliveries deliveries) {
    this.platform = platform;
    this.endpoints = endpoints;
    this.deliveries = deliveries;
    this.consumers = new ConsumerSet(platform.events());
  }

  Future<Void> start() {
    Future<Void> chain = Future.succeededFuture();
    for (String domain : WebhookEvents.DOMAINS) {
      String group = GROUP_PREFIX + domain;
      chain = chain.compose(v -> consumers.once(domain, group, this::handle));
    }
    return chain;
  }

  Future<Void> stop() {
    return consumers.stop();
  }

  private Future<?> handle(DomainEvent e) {
    WebhookEvents.Mapped mapped = WebhookEvents.of(e);
    if (mapped == null) {
      return Future.succeededFuture();
    }
    String body = WebhookEvents.body(e, mapped).encode();
    return endpoints.subscribedTo(mapped.type()).compose(subscribed -> Future.all(subscribed.stream()
        .map(endpoint -> deliveries.enqueue(delivery(endpoint.getLong("_id"), e, mapped, body))).toList()));
  }

  private JsonObject delivery(long endpoint, DomainEvent e, WebhookEvents.Mapped mapped, String body) {
    long now = System.currentTimeMillis();
    return new JsonObject().put("_id", platform.ids().next()).put("endpoint", endpoint).put("event_id", e.id())
        .put("key", endpoint + ":" + e.id() + ":" + mapped.type()).put("type", mapped.type())
        .put("resource", mapped.resource()).put("seq", e.id()).put("body", body)
        .put("state", WebhookDeliveries.PENDING).put("attempts", 0).put("created", now).put("next_at", now)
        .put("lease_until", 0L);
  }
}
