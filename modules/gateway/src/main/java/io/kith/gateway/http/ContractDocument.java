package io.kith.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.MediaType;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.impl.Utils;

/**
 * Turns the published OpenAPI document into the contract the router validates requests with. The document declares
 * every error response as {@code application/problem+json} (so generated clients get a typed error), but the
 * contract parser accepts only a fixed list of media types, even in responses, which it never validates here. The
 * response content of an unsupported media type is therefore left out of the parsed copy; the document served to
 * clients is the file as written.
 *
 * <p>An operation that takes a user token or an API key ({@code security: [{bearerAuth: []}, {apiKeyAuth:
 * [scope]}]}) keeps only {@code bearerAuth} in the copy, its key's scopes moving to {@value #API_KEY_ALTERNATIVE}: the
 * router builder chains alternative requirements into an authentication handler that, with no handler registered
 * (authentication is {@link BearerAuth}'s and {@link ApiKeyAuth}'s), fails every request.
 */
public final class ContractDocument {

  /** Extension of the parsed copy: the scopes of the API key an operation takes besides a user token. */
  static final String API_KEY_ALTERNATIVE = "x-kith-api-key-alternative";

  private ContractDocument() {
  }

  /** Parses the document's text (YAML) into the request-validating contract. */
  public static Future<OpenAPIContract> parse(Vertx vertx, Buffer text) {
    // the same YAML reading the contract parser does when given a file name
    return Utils.yamlStringToJson(text.toString())
        .compose(raw -> OpenAPIContract.from(vertx, forValidation(raw)));
  }

  /** A copy of the raw document without response content of media types the contract parser refuses. */
  static JsonObject forValidation(JsonObject raw) {
    JsonObject copy = raw.copy();
    JsonObject paths = copy.getJsonObject("paths", new JsonObject());
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String key : item.fieldNames()) {
        if (item.getValue(key) instanceof JsonObject op && op.getValue("responses") instanceof JsonObject responses) {
          responses.forEach(e -> strip(e.getValue()));
          keyAsAlternative(op);
        }
      }
    }
    JsonObject components = copy.getJsonObject("components", new JsonObject());
    components.getJsonObject("responses", new JsonObject()).forEach(e -> strip(e.getValue()));
    return copy;
  }

  private static void keyAsAlternative(JsonObject op) {
    JsonArray security = op.getJsonArray("security");
    if (security == null || security.size() != 2) {
      return;
    }
    JsonObject user = security.getJsonObject(0);
    JsonObject key = security.getJsonObject(1);
    if (user.size() == 1 && user.containsKey(BearerAuth.SCHEME) && key.size() == 1
        && key.containsKey(ApiKeyAuth.SCHEME)) {
      op.put("security", new JsonArray().add(user));
      op.put(API_KEY_ALTERNATIVE, key.getJsonArray(ApiKeyAuth.SCHEME));
    }
  }

  private static void strip(Object response) {
    if (response instanceof JsonObject r && r.getValue("content") instanceof JsonObject content) {
      content.fieldNames().removeIf(type -> !MediaType.isMediaTypeSupported(type));
      if (content.isEmpty()) {
        r.remove("content");
      }
    }
  }
}
