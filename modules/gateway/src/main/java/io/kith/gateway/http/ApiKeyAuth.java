package io.kith.gateway.http;

import io.kith.platform.error.Failures;
import io.kith.push.api.ApiKeysErrors;
import io.kith.push.api.ApiKeysService;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.SecurityRequirement;

import java.util.List;

/**
 * Authenticates the server-to-server operations, those the contract marks with {@value #SCHEME} (with the scope they
 * need: {@code security: [{apiKeyAuth: ["users:read"]}]}), before their input is validated, as {@link BearerAuth}
 * does for users. The key comes as {@code X-Api-Key: kith_sk_...} or {@code Authorization: Bearer kith_sk_...}; a
 * user's access token there is refused ({@code api_key_required}), and the push module's {@link ApiKeysService}
 * decides the rest ({@code api_key_invalid}, {@code api_key_revoked}, {@code insufficient_scope}). The key's view is
 * put on the routing context under {@link #KEY}.
 */
public final class ApiKeyAuth implements Handler<RoutingContext> {

  /** The contract's security scheme of server API keys. */
  public static final String SCHEME = "apiKeyAuth";
  /** Routing context key of the authenticated key's view ({@code {id, name, scopes}}). */
  public static final String KEY = "kith.apikey";
  private static final String HEADER = "X-Api-Key";
  private static final String PREFIX = "bearer ";

  private final OpenAPIContract contract;
  private final ApiKeysService keys;

  /** Creates the handler over the contract and the key service. */
  public ApiKeyAuth(OpenAPIContract contract, ApiKeysService keys) {
    this.contract = contract;
    this.keys = keys;
  }

  @Override
  public void handle(RoutingContext rc) {
    Operation op = BearerAuth.operationOf(contract, rc);
    SecurityRequirement requirement = op == null || op.getSecurityRequirements() == null ? null
        : op.getSecurityRequirements().stream().filter(r -> r.getNames().contains(SCHEME)).findFirst().orElse(null);
    if (requirement == null) {
      rc.next();
      return;
    }
    List<String> scopes = requirement.getScopes(SCHEME);
    String scope = scopes == null || scopes.isEmpty() ? null : scopes.get(0);
    String key = presented(rc);
    if (key == null) {
      rc.fail(Failures.of(ApiKeysErrors.API_KEY_REQUIRED,
          "this route takes a server API key: X-Api-Key: kith_sk_... or Authorization: Bearer kith_sk_..."));
      return;
    }
    keys.authenticate(key, scope).onComplete(ar -> {
      if (ar.succeeded()) {
        rc.put(KEY, ar.result());
        rc.next();
      } else {
        rc.fail(ar.cause());
      }
    });
  }

  /** The key's view on an authenticated server-to-server request. */
  public static JsonObject key(RoutingContext rc) {
    return rc.get(KEY);
  }

  private static String presented(RoutingContext rc) {
    List<String> apiKeys = rc.request().headers().getAll(HEADER);
    List<String> auth = rc.request().headers().getAll("Authorization");
    if (apiKeys.size() + auth.size() != 1) {
      return null;
    }
    if (apiKeys.size() == 1) {
      return apiKeys.get(0).trim();
    }
    String header = auth.get(0);
    return header.length() > PREFIX.length() && header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())
        ? header.substring(PREFIX.length()).trim() : null;
  }
}
