package io.kith.gateway.http;

import io.kith.push.api.WebhooksService;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * HTTP operations of webhooks administration ({@code /api/v1/admin/webhooks...}). They take an admin's access token
 * ({@code bearerAuth}) or an API key with {@code webhooks:admin} ({@code apiKeyAuth}); the gateway authenticates
 * either, and the service decides from the verified user or key (see {@code WebhooksService}).
 */
public final class WebhooksRoutes implements ApiRoutes {

  private final WebhooksService webhooks;

  /** Creates the routes over the webhooks service proxy. */
  public WebhooksRoutes(WebhooksService webhooks) {
    this.webhooks = webhooks;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("registerWebhook").addHandler(rc ->
        Http.replyCreated(rc, webhooks.register(Http.viewerId(rc), ApiKeyAuth.key(rc), Http.body(rc))));
    builder.getRoute("listWebhooks").addHandler(rc ->
        Http.reply(rc, webhooks.list(Http.viewerId(rc), ApiKeyAuth.key(rc)), json -> json));
    builder.getRoute("getWebhook").addHandler(rc -> Http.reply(rc,
        webhooks.get(Http.viewerId(rc), ApiKeyAuth.key(rc), id(rc, "webhookId")), json -> json));
    builder.getRoute("deleteWebhook").addHandler(rc -> Http.replyEmpty(rc,
        webhooks.remove(Http.viewerId(rc), ApiKeyAuth.key(rc), id(rc, "webhookId"))));
    builder.getRoute("rotateWebhookSecret").addHandler(rc -> Http.reply(rc,
        webhooks.rotateSecret(Http.viewerId(rc), ApiKeyAuth.key(rc), id(rc, "webhookId")), json -> json));
    builder.getRoute("listWebhookDeliveries").addHandler(rc -> Paging.reply(rc,
        webhooks.deliveries(Http.viewerId(rc), ApiKeyAuth.key(rc), id(rc, "webhookId"), Paging.byId(rc))));
    builder.getRoute("replayWebhookDelivery").addHandler(rc -> Http.replyCreated(rc,
        webhooks.replay(Http.viewerId(rc), ApiKeyAuth.key(rc), id(rc, "webhookId"), id(rc, "deliveryId"))));
  }

  private static long id(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }
}
