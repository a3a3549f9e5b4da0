package io.kith.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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
 */
public final class ContractDocument {

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
        }
      }
    }
    JsonObject components = copy.getJsonObject("components", new JsonObject());
    components.getJsonObject("responses", new JsonObject()).forEach(e -> strip(e.getValue()));
    return copy;
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
