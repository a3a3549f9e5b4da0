package io.kith.push.api;

import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Webhook endpoints of the app's own backend, administered by an operator: registration, listing, removal, secret
 * rotation, and the record of deliveries with their replay.
 *
 * <p>Every method takes the operator credential the caller presented first (the bearer token of an admin request,
 * null when none) and fails with {@link WebhooksErrors#OPERATOR_REQUIRED} or {@link WebhooksErrors#OPERATOR_INVALID}
 * unless it is the configured one. Authorization is decided here so that a later role model (issue 22) replaces one
 * check without touching the gateway.
 *
 * <p><b>Endpoint view</b>: {@code {id, url, events: [types], description, source: "admin"|"config", created,
 * secret_rotated?, previous_secret_expires?}}; {@link #register} and {@link #rotateSecret} add {@code secret}, shown
 * that once.
 *
 * <p><b>Delivery view</b>: {@code {id, event_id, type, resource, state: "pending"|"delivered"|"dead", attempts,
 * created, next_attempt?, delivered?, replay_of?, last: {at, status?, latency_ms, body?, error?}?, history: [last
 * answers, oldest first]}}.
 */
@ProxyGen
@VertxGen
public interface WebhooksService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.push.webhooks";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static WebhooksService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, WebhooksService.class, ADDRESS);
  }

  /**
   * Registers an endpoint: {@code {url, events: [types or "*"], description?}}. The URL must be {@code https} and
   * resolve to public addresses only unless its host is in {@code push.webhooks.allow-hosts}
   * ({@link WebhooksErrors#URL_REFUSED} naming {@code url}); the events must be known types
   * ({@link Webhooks#TYPES}). Returns the endpoint view with its signing {@code secret}.
   */
  Future<JsonObject> register(String operator, JsonObject endpoint);

  /** Every endpoint, oldest first: {@code {items: [views]}} (no secrets). */
  Future<JsonObject> list(String operator);

  /** One endpoint's view, or {@link WebhooksErrors#WEBHOOK_NOT_FOUND}. */
  Future<JsonObject> get(String operator, long id);

  /** Removes an endpoint; its pending deliveries are not attempted any more. */
  Future<Void> remove(String operator, long id);

  /**
   * Makes a new signing secret; the previous one stays valid for {@code push.webhooks.rotation-hours} (deliveries
   * are signed with both meanwhile). Returns the endpoint view with the new {@code secret}.
   */
  Future<JsonObject> rotateSecret(String operator, long id);

  /** The endpoint's deliveries, newest first ({@code page}: {@code max_id}, {@code limit} 1..100). */
  Future<Page> deliveries(String operator, long id, PageRequest page);

  /**
   * Delivers a recorded delivery of the endpoint again (a dead one, or one the receiver lost) as a new delivery with
   * the same body, queued behind the pending ones of its resource. Returns the new delivery's view.
   */
  Future<JsonObject> replay(String operator, long id, long delivery);
}
