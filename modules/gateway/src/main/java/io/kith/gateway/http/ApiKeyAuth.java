package io.kith.gateway.http;

import io.kith.platform.error.Failures;
import io.kith.push.api.ApiKeys;
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
 * put on the routing context under {@link #KEY}. An operation that also takes a user token proceeds without a key
 * when {@link BearerAuth} verified one.
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
    List<String> scopes = scopes(op);
    if (scopes == null || rc.get(Http.CALLER) != null) {
      // no key here, or the operation also takes a user token and BearerAuth verified one
      rc.next();
      return;
    }
    String scope = scopes.isEmpty() ? null : scopes.get(0);
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

  /** The key's view on a request authenticated by an API key; null on one authenticated otherwise. */
  public static JsonObject key(RoutingContext rc) {
    return rc.get(KEY);
  }

  /** Whether {@code op} takes an API key as an alternative to a user token (see {@link ContractDocument}). */
  static boolean alternativeTo(Operation op) {
    return op.getOpenAPIModel().getValue(ContractDocument.API_KEY_ALTERNATIVE) != null;
  }

  /** The scopes of the API key {@code op} takes (an empty list: any key), or null when it takes none. */
  private static List<String> scopes(Operation op) {
    if (op == null) {
      return null;
    }
    if (alternativeTo(op)) {
      return op.getOpenAPIModel().getJsonArray(ContractDocument.API_KEY_ALTERNATIVE).stream()
          .map(String::valueOf).toList();
    }
    SecurityRequirement requirement = op.getSecurityRequirements() == null ? null
        : op.getSecurityRequirements().stream().filter(r -> r.getNames().contains(SCHEME)).findFirst().orElse(null);
    return requirement == null ? null : requirement.getScopes(SCHEME);
  }

  /** Whether the request offers an API key ({@code X-Api-Key}, or a bearer credential that reads {@code kith_sk_}). */
  static boolean offersKey(RoutingContext rc) {
    String key = presented(rc);
    return !rc.request().headers().getAll(HEADER).isEmpty() || key != null && key.startsWith(ApiKeys.PREFIX);
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
