package io.kith.gateway.http;

import io.kith.push.api.WebhooksService;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

import java.util.List;

/**
 * HTTP operations of webhooks administration ({@code /api/v1/admin/webhooks...}). They carry the operator's admin
 * token ({@code operatorAuth} in the contract) instead of a user's token: the gateway hands the credential to the
 * service, which decides (see {@code WebhooksService}).
 */
public final class WebhooksRoutes implements ApiRoutes {

  private static final String PREFIX = "bearer ";
  private final WebhooksService webhooks;

  /** Creates the routes over the webhooks service proxy. */
  public WebhooksRoutes(WebhooksService webhooks) {
    this.webhooks = webhooks;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("registerWebhook").addHandler(rc ->
        Http.replyCreated(rc, webhooks.register(operator(rc), Http.body(rc))));
    builder.getRoute("listWebhooks").addHandler(rc -> Http.reply(rc, webhooks.list(operator(rc)), json -> json));
    builder.getRoute("getWebhook").addHandler(rc ->
        Http.reply(rc, webhooks.get(operator(rc), id(rc, "webhookId")), json -> json));
    builder.getRoute("deleteWebhook").addHandler(rc ->
        Http.replyEmpty(rc, webhooks.remove(operator(rc), id(rc, "webhookId"))));
    builder.getRoute("rotateWebhookSecret").addHandler(rc ->
        Http.reply(rc, webhooks.rotateSecret(operator(rc), id(rc, "webhookId")), json -> json));
    builder.getRoute("listWebhookDeliveries").addHandler(rc ->
        Paging.reply(rc, webhooks.deliveries(operator(rc), id(rc, "webhookId"), Paging.byId(rc))));
    builder.getRoute("replayWebhookDelivery").addHandler(rc -> Http.replyCreated(rc,
        webhooks.replay(operator(rc), id(rc, "webhookId"), id(rc, "deliveryId"))));
  }

  /** The bearer credential of the request, or null when there is not exactly one well-formed one. */
  static String operator(RoutingContext rc) {
    List<String> headers = rc.request().headers().getAll("Authorization");
    if (headers.size() != 1) {
      return null;
    }
    String header = headers.get(0);
    return header.length() > PREFIX.length() && header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())
        ? header.substring(PREFIX.length()).trim() : null;
  }

  private static long id(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }
}
