package io.kith.gateway.http;

import io.kith.push.api.ApiKeysService;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * HTTP operations of API key administration ({@code /api/v1/admin/api-keys...}), with the operator's admin token as
 * their credential (handed to the service, which decides; see {@link WebhooksRoutes}).
 */
public final class ApiKeysRoutes implements ApiRoutes {

  private final ApiKeysService keys;

  /** Creates the routes over the API keys service proxy. */
  public ApiKeysRoutes(ApiKeysService keys) {
    this.keys = keys;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("createApiKey").addHandler(rc ->
        Http.replyCreated(rc, keys.create(WebhooksRoutes.operator(rc), Http.body(rc))));
    builder.getRoute("listApiKeys").addHandler(rc ->
        Http.reply(rc, keys.list(WebhooksRoutes.operator(rc)), json -> json));
    builder.getRoute("revokeApiKey").addHandler(rc -> Http.reply(rc, keys.revoke(WebhooksRoutes.operator(rc),
        Http.validated(rc).getPathParameters().get("keyId").getLong()), json -> json));
  }
}
