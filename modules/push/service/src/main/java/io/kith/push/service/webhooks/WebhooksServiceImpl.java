package io.kith.push.service.webhooks;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.push.api.ApiKeys;
import io.kith.push.api.Webhooks;
import io.kith.push.api.WebhooksErrors;
import io.kith.push.api.WebhooksService;
import io.kith.push.service.keys.OperatorCheck;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The admin operations on webhook endpoints and their deliveries; every one checks the caller first (an admin, or an
 * API key with {@code webhooks:admin}), and the changes are recorded in the moderation audit log.
 */
final class WebhooksServiceImpl implements WebhooksService {

  /** Longest description kept. */
  static final int MAX_DESCRIPTION = 500;

  private final OperatorCheck operator;
  private final WebhookEndpoints endpoints;
  private final WebhookDeliveries deliveries;
  private final AddressGuard guard;
  private final IdGenerator ids;
  private final WebhooksSettings settings;

  WebhooksServiceImpl(OperatorCheck operator, WebhookEndpoints endpoints, WebhookDeliveries deliveries,
                      AddressGuard guard, IdGenerator ids, WebhooksSettings settings) {
    this.operator = operator;
    this.endpoints = endpoints;
    this.deliveries = deliveries;
    this.guard = guard;
    this.ids = ids;
    this.settings = settings;
  }

  private <T> Future<T> asOperator(long actor, JsonObject apiKey, Supplier<Future<T>> body) {
    return operator.check(actor, apiKey, ApiKeys.WEBHOOKS_ADMIN).compose(v -> Failures.guard(body));
  }

  /** Records a change of endpoint {@code id} in the audit log, then answers {@code result}. */
  private <T> Future<T> audited(long actor, JsonObject apiKey, String action, long id, JsonObject details, T result) {
    return operator.record(actor, apiKey, "webhook." + action, "webhook", id, details).map(v -> result);
  }

  @Override
  public Future<JsonObject> register(long actor, JsonObject apiKey, JsonObject endpoint) {
    return asOperator(actor, apiKey, () -> checked(endpoint).compose(valid -> {
      long now = System.currentTimeMillis();
      String secret = WebhookEndpoints.newSecret();
      JsonObject doc = valid.put("_id", ids.next()).put("source", "admin").put("created", now)
          .put("secrets", new JsonArray().add(new JsonObject().put("value", secret).put("created", now)));
      return endpoints.insert(doc).compose(d -> audited(actor, apiKey, "register", d.getLong("_id"),
          new JsonObject().put("url", d.getString("url")).put("events", d.getJsonArray("events")),
          WebhookEndpoints.view(d).put("secret", secret)));
    }));
  }

  /**
   * The endpoint's stored fields once its URL passed the guard and its events are known: {@code {url, events,
   * description}}.
   */
  Future<JsonObject> checked(JsonObject endpoint) {
    Object url = endpoint.getValue("url");
    if (!(url instanceof String)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "url", "url must be a string (an https URL)");
    }
    Object events = endpoint.getValue("events");
    if (!(events instanceof JsonArray) || ((JsonArray) events).isEmpty()) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "events",
          "events must list at least one of " + Webhooks.TYPES + " or \"*\"");
    }
    Set<String> types = new LinkedHashSet<>();
    for (Object type : (JsonArray) events) {
      if (!Webhooks.ALL.equals(type) && !Webhooks.TYPES.contains(type)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "events",
            "unknown event type " + type + "; known: " + Webhooks.TYPES + " or \"*\"");
      }
      types.add((String) type);
    }
    String description = endpoint.getString("description", "");
    if (description.length() > MAX_DESCRIPTION) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "description",
          "description must be at most " + MAX_DESCRIPTION + " characters");
    }
    return guard.check((String) url).map(target -> new JsonObject().put("url", ((String) url).trim())
        .put("events", new JsonArray(List.copyOf(types))).put("description", description));
  }

  @Override
  public Future<JsonObject> list(long actor, JsonObject apiKey) {
    return asOperator(actor, apiKey, () -> endpoints.all().map(all -> new JsonObject().put("items",
        new JsonArray(all.stream().map(WebhookEndpoints::view).toList()))));
  }

  @Override
  public Future<JsonObject> get(long actor, JsonObject apiKey, long id) {
    return asOperator(actor, apiKey, () -> existing(id).map(WebhookEndpoints::view));
  }

  private Future<JsonObject> existing(long id) {
    return endpoints.find(id).compose(e -> e != null ? Future.succeededFuture(e)
        : Failures.fail(WebhooksErrors.WEBHOOK_NOT_FOUND, "no webhook endpoint " + id));
  }

  @Override
  public Future<Void> remove(long actor, JsonObject apiKey, long id) {
    return asOperator(actor, apiKey, () -> endpoints.remove(id).compose(removed -> removed
        ? deliveries.abandon(id, System.currentTimeMillis())
            .compose(v -> audited(actor, apiKey, "remove", id, new JsonObject(), (Void) null))
        : Failures.fail(WebhooksErrors.WEBHOOK_NOT_FOUND, "no webhook endpoint " + id)));
  }

  @Override
  public Future<JsonObject> rotateSecret(long actor, JsonObject apiKey, long id) {
    return asOperator(actor, apiKey, () -> {
      long now = System.currentTimeMillis();
      String secret = WebhookEndpoints.newSecret();
      return endpoints.rotate(id, secret, now, now + settings.rotationMillis()).compose(found -> found
          ? existing(id).compose(e -> audited(actor, apiKey, "rotate_secret", id, new JsonObject(),
              WebhookEndpoints.view(e).put("secret", secret)))
          : Failures.fail(WebhooksErrors.WEBHOOK_NOT_FOUND, "no webhook endpoint " + id));
    });
  }

  @Override
  public Future<Page> deliveries(long actor, JsonObject apiKey, long id, PageRequest page) {
    return asOperator(actor, apiKey, () -> {
      int limit = page.limitOrDefault();
      if (limit < 1 || limit > 100) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "limit", "limit must be between 1 and 100");
      }
      return existing(id).compose(e -> deliveries.page(id, page.maxId(), limit)).map(list -> {
        JsonArray items = new JsonArray(list.stream().map(WebhookDeliveries::view).toList());
        Long next = list.size() < limit ? null : list.get(list.size() - 1).getLong("_id");
        return Page.of("items", items).with("next_max_id", next);
      });
    });
  }

  @Override
  public Future<JsonObject> replay(long actor, JsonObject apiKey, long id, long delivery) {
    return asOperator(actor, apiKey, () -> existing(id).compose(e -> deliveries.find(id, delivery))
        .compose(d -> {
          if (d == null) {
            return Failures.fail(WebhooksErrors.DELIVERY_NOT_FOUND, "no delivery " + delivery + " of webhook " + id);
          }
          long now = System.currentTimeMillis();
          long newId = ids.next();
          JsonObject copy = new JsonObject().put("_id", newId).put("endpoint", id)
              .put("event_id", d.getLong("event_id")).put("type", d.getString("type"))
              .put("resource", d.getString("resource")).put("seq", newId).put("body", d.getString("body"))
              .put("state", WebhookDeliveries.PENDING).put("attempts", 0).put("created", now).put("next_at", now)
              .put("lease_until", 0L).put("replay_of", delivery);
          return deliveries.enqueue(copy).compose(v -> audited(actor, apiKey, "replay", id,
              new JsonObject().put("delivery", delivery).put("replay", newId), WebhookDeliveries.view(copy)));
        }));
  }
}
