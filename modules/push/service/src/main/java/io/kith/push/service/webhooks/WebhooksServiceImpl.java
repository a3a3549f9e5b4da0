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
 * The admin operations on webhook endpoints and their deliveries; every one checks the operator credential first
 * (the admin token, or an API key with {@code webhooks:admin}).
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

  private <T> Future<T> asOperator(String credential, Supplier<Future<T>> body) {
    return operator.check(credential, ApiKeys.WEBHOOKS_ADMIN).compose(v -> Failures.guard(body));
  }

  @Override
  public Future<JsonObject> register(String credential, JsonObject endpoint) {
    return asOperator(credential, () -> checked(endpoint).compose(valid -> {
      long now = System.currentTimeMillis();
      String secret = WebhookEndpoints.newSecret();
      JsonObject doc = valid.put("_id", ids.next()).put("source", "admin").put("created", now)
          .put("secrets", new JsonArray().add(new JsonObject().put("value", secret).put("created", now)));
      return endpoints.insert(doc).map(d -> WebhookEndpoints.view(d).put("secret", secret));
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
  public Future<JsonObject> list(String credential) {
    return asOperator(credential, () -> endpoints.all().map(all -> new JsonObject().put("items",
        new JsonArray(all.stream().map(WebhookEndpoints::view).toList()))));
  }

  @Override
  public Future<JsonObject> get(String credential, long id) {
    return asOperator(credential, () -> existing(id).map(WebhookEndpoints::view));
  }

  private Future<JsonObject> existing(long id) {
    return endpoints.find(id).compose(e -> e != null ? Future.succeededFuture(e)
        : Failures.fail(WebhooksErrors.WEBHOOK_NOT_FOUND, "no webhook endpoint " + id));
  }

  @Override
  public Future<Void> remove(String credential, long id) {
    return asOperator(credential, () -> endpoints.remove(id).compose(removed -> removed
        ? deliveries.abandon(id, System.currentTimeMillis())
        : Failures.fail(WebhooksErrors.WEBHOOK_NOT_FOUND, "no webhook endpoint " + id)));
  }

  @Override
  public Future<JsonObject> rotateSecret(String credential, long id) {
    return asOperator(credential, () -> {
      long now = System.currentTimeMillis();
      String secret = WebhookEndpoints.newSecret();
      return endpoints.rotate(id, secret, now, now + settings.rotationMillis()).compose(found -> found
          ? existing(id).map(e -> WebhookEndpoints.view(e).put("secret", secret))
          : Failures.fail(WebhooksErrors.WEBHOOK_NOT_FOUND, "no webhook endpoint " + id));
    });
  }

  @Override
  public Future<Page> deliveries(String credential, long id, PageRequest page) {
    return asOperator(credential, () -> {
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
  public Future<JsonObject> replay(String credential, long id, long delivery) {
    return asOperator(credential, () -> existing(id).compose(e -> deliveries.find(id, delivery))
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
          return deliveries.enqueue(copy).map(v -> WebhookDeliveries.view(copy));
        }));
  }
}
