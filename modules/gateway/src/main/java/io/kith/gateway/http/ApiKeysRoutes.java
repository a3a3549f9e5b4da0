package io.kith.gateway.http;

import io.kith.push.api.ApiKeysService;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * HTTP operations of API key administration ({@code /api/v1/admin/api-keys...}): an admin's access token, whose user
 * the service checks for the role (see {@code ApiKeysService}).
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
        Http.replyCreated(rc, keys.create(Http.caller(rc).userId(), Http.body(rc))));
    builder.getRoute("listApiKeys").addHandler(rc ->
        Http.reply(rc, keys.list(Http.caller(rc).userId()), json -> json));
    builder.getRoute("revokeApiKey").addHandler(rc -> Http.reply(rc, keys.revoke(Http.caller(rc).userId(),
        Http.validated(rc).getPathParameters().get("keyId").getLong()), json -> json));
  }
}
