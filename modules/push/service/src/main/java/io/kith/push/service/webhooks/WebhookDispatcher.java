package io.kith.push.service.webhooks;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Attempts due deliveries, in order per endpoint and resource: every {@code push.webhooks.poll-ms} each node reads
 * the oldest pending deliveries, and only the head of each endpoint's resource queue may go (a later event of a post
 * waits until the earlier one was delivered or dead-lettered). A node claims a head with a lease before sending, so
 * two nodes never send the same attempt. A failed attempt waits {@code backoff-base-ms * 2^attempts} (at most
 * {@code backoff-max-ms}); once the next wait would end beyond {@code retry-hours} after the delivery was queued, the
 * delivery is dead-lettered and the next one of its resource goes.
 */
final class WebhookDispatcher {

  /** Most attempts running at once on one node (others wait for a later look): bounds open connections. */
  static final int MAX_IN_FLIGHT = 64;

  private final Vertx vertx;
  private final WebhookEndpoints endpoints;
  private final WebhookDeliveries deliveries;
  private final WebhookSender sender;
  private final WebhooksSettings settings;
  private long timer = -1;
  private boolean looking;
  // touched on this verticle's event loop only (the timer's and the attempts' callbacks)
  private int inFlight;

  WebhookDispatcher(Vertx vertx, WebhookEndpoints endpoints, WebhookDeliveries deliveries, WebhookSender sender,
                    WebhooksSettings settings) {
    this.vertx = vertx;
    this.endpoints = endpoints;
    this.deliveries = deliveries;
    this.sender = sender;
    this.settings = settings;
  }

  void start() {
    timer = vertx.setPeriodic(settings.pollMs(), id -> {
      if (!looking) {
        looking = true;
        look().onComplete(ar -> looking = false);
      }
    });
  }

  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }

  /**
   * One look: starts attempts at the due heads of the resource queues, without waiting for them (a slow endpoint
   * must not hold up the others until its timeout), as long as fewer than {@value #MAX_IN_FLIGHT} run on this node.
   */
  Future<Void> look() {
    long now = System.currentTimeMillis();
    return deliveries.pending(settings.scanBatch()).map(pending -> {
      Map<String, JsonObject> heads = new LinkedHashMap<>();
      for (JsonObject d : pending) {
        heads.putIfAbsent(d.getLong("endpoint") + "/" + d.getString("resource"), d);
      }
      for (JsonObject head : heads.values()) {
        if (inFlight < MAX_IN_FLIGHT && head.getLong("next_at", 0L) <= now
            && head.getLong("lease_until", 0L) <= now) {
          inFlight++;
          attempt(head.getLong("_id"), now).onComplete(ar -> inFlight--);
        }
      }
      return null;
    });
  }

  private Future<Void> attempt(long id, long now) {
    return deliveries.claim(id, now, now + settings.timeoutMs() * 2).compose(d -> d == null
        ? Future.succeededFuture()
        : endpoints.find(d.getLong("endpoint")).compose(endpoint -> endpoint == null
            ? deliveries.abandon(d.getLong("endpoint"), now)
            : sender.attempt(endpoint, d).compose(answer -> settle(d, answer))));
  }

  private Future<Void> settle(JsonObject d, JsonObject answer) {
    long now = System.currentTimeMillis();
    int status = answer.getInteger("status", 0);
    if (status >= 200 && status < 300) {
      return deliveries.record(d.getLong("_id"), answer, new JsonObject()
          .put("state", WebhookDeliveries.DELIVERED).put("delivered", now));
    }
    int attempts = d.getInteger("attempts", 0);
    long wait = Math.min(settings.backoffMaxMs(), settings.backoffBaseMs() << Math.min(attempts, 30));
    boolean expired = now + wait > d.getLong("created") + settings.retryMillis();
    return deliveries.record(d.getLong("_id"), answer, expired
        ? new JsonObject().put("state", WebhookDeliveries.DEAD)
        : new JsonObject().put("next_at", now + wait));
  }
}
