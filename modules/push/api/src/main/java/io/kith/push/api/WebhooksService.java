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
 * <p>Every method takes the caller first: {@code actor}, the user of a verified token (0 when none), and
 * {@code apiKey}, the view {@code {id, name, scopes}} of an API key the gateway authenticated (null when none). An
 * admin (moderation role {@code admin}) or a key with {@link ApiKeys#WEBHOOKS_ADMIN} may; anyone else fails with
 * {@code role_required} (403), a key without the scope with {@link ApiKeysErrors#INSUFFICIENT_SCOPE}, no caller with
 * {@code unauthenticated} (401). Changes (register, remove, rotate, replay) are recorded in the moderation audit log.
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
  Future<JsonObject> register(long actor, JsonObject apiKey, JsonObject endpoint);

  /** Every endpoint, oldest first: {@code {items: [views]}} (no secrets). */
  Future<JsonObject> list(long actor, JsonObject apiKey);

  /** One endpoint's view, or {@link WebhooksErrors#WEBHOOK_NOT_FOUND}. */
  Future<JsonObject> get(long actor, JsonObject apiKey, long id);

  /** Removes an endpoint; its pending deliveries are not attempted any more. */
  Future<Void> remove(long actor, JsonObject apiKey, long id);

  /**
   * Makes a new signing secret; the previous one stays valid for {@code push.webhooks.rotation-hours} (deliveries
   * are signed with both meanwhile). Returns the endpoint view with the new {@code secret}.
   */
  Future<JsonObject> rotateSecret(long actor, JsonObject apiKey, long id);

  /** The endpoint's deliveries, newest first ({@code page}: {@code max_id}, {@code limit} 1..100). */
  Future<Page> deliveries(long actor, JsonObject apiKey, long id, PageRequest page);

  /**
   * Delivers a recorded delivery of the endpoint again (a dead one, or one the receiver lost) as a new delivery with
   * the same body, queued behind the pending ones of its resource. Returns the new delivery's view.
   */
  Future<JsonObject> replay(long actor, JsonObject apiKey, long id, long delivery);
}
