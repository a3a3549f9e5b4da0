package io.kith.push.service.webhooks;

import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.push.api.WebhooksService;
import io.kith.push.service.keys.OperatorCheck;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The webhooks part of the push module: builds its stores, syncs the configured endpoints, binds
 * {@link WebhooksService}, and starts the intake (event log consumers) and the dispatcher.
 */
public final class WebhooksPart {

  private static final Logger LOG = LoggerFactory.getLogger(WebhooksPart.class);

  private final Platform platform;
  private final OperatorCheck operator;
  private ServiceBindings bindings;
  private WebhookIntake intake;
  private WebhookDispatcher dispatcher;
  private WebhookSender sender;

  /** The part on a node's platform, administered by whoever {@code operator} lets in. */
  public WebhooksPart(Platform platform, OperatorCheck operator) {
    this.platform = platform;
    this.operator = operator;
  }

  /** Starts the part; completes once the service is bound and the consumers run. */
  public Future<Void> start() {
    WebhooksSettings settings = WebhooksSettings.from(platform.config().section("push"));
    WebhookEndpoints endpoints = new WebhookEndpoints(platform.mongo());
    WebhookDeliveries deliveries = new WebhookDeliveries(platform.mongo());
    AddressGuard guard = new AddressGuard(platform.vertx(), settings.allowHosts());
    WebhooksServiceImpl service = new WebhooksServiceImpl(operator, endpoints,
        deliveries, guard, platform.ids(), settings);
    sender = new WebhookSender(platform.vertx(), guard, settings);
    intake = new WebhookIntake(platform, endpoints, deliveries);
    dispatcher = new WebhookDispatcher(platform.vertx(), endpoints, deliveries, sender, settings);
    bindings = new ServiceBindings(platform.vertx());
    return endpoints.ensureIndexes()
        .compose(v -> deliveries.ensureIndexes())
        .compose(v -> configured(settings, service, endpoints))
        .compose(v -> bindings.bind(WebhooksService.class, service, WebhooksService.ADDRESS))
        .compose(v -> intake.start())
        .onSuccess(v -> dispatcher.start());
  }

  /**
   * Writes the configured endpoints (checked like the admin API's); one that fails its check is logged and left out
   * rather than stopping the node, and configured endpoints no longer listed are removed.
   */
  private Future<Void> configured(WebhooksSettings settings, WebhooksServiceImpl service, WebhookEndpoints endpoints) {
    List<Future<Void>> each = new ArrayList<>();
    List<String> urls = new ArrayList<>();
    for (JsonObject configured : settings.endpoints()) {
      String secret = configured.getString("secret", "");
      urls.add(String.valueOf(configured.getValue("url")).trim());
      each.add(service.checked(configured).compose(valid -> {
        if (secret.length() < 16) {
          return Future.failedFuture("its secret must be at least 16 characters");
        }
        long now = System.currentTimeMillis();
        return endpoints.upsertConfigured(platform.ids().next(), valid.put("source", "config").put("created", now)
            .put("secrets", new JsonArray().add(new JsonObject().put("value", secret).put("created", now))));
      }).recover(e -> {
        LOG.error("push.webhooks.endpoints: {} left out: {}", configured.getValue("url"), e.getMessage());
        return Future.succeededFuture();
      }));
    }
    return Future.all(each).compose(v -> endpoints.dropConfiguredExcept(urls));
  }

  /** Stops the dispatcher and the consumers, then unbinds the service. */
  public Future<Void> stop() {
    if (dispatcher != null) {
      dispatcher.stop();
    }
    Future<Void> consumers = intake == null ? Future.succeededFuture() : intake.stop();
    return consumers.eventually(() -> bindings == null ? Future.succeededFuture() : bindings.unregister())
        .eventually(() -> sender == null ? Future.succeededFuture() : sender.close());
  }
}
