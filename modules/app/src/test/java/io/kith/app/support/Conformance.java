package io.kith.app.support;

import io.kith.platform.testkit.Await;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.impl.Utils;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a real response body against the response schema the published OpenAPI document gives for its operation and
 * status, the way a generated client reads it: every member must be declared (a client drops or chokes on undeclared
 * ones) with the declared JSON type (an integer where the document says integer, never a string), enum values must be
 * listed (a {@code const} matched), required members present. References, {@code allOf} (members merged), {@code oneOf}/{@code anyOf} (the
 * closest alternative) and {@code additionalProperties} maps are followed.
 */
public final class Conformance {

  private final JsonObject doc;

  private Conformance(JsonObject doc) {
    this.doc = doc;
  }

  /** The document the gateway serves, read from the class path. */
  public static Conformance load() {
    try (InputStream in = Conformance.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
      return new Conformance(Await.result(Utils.yamlStringToJson(new String(in.readAllBytes(),
          StandardCharsets.UTF_8))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What in {@code body} departs from the schema of {@code operationId}'s {@code status} response (empty: none). */
  public List<String> problems(String operationId, int status, Object body) {
    JsonObject response = resolve(responseOf(operationId, String.valueOf(status)));
    JsonObject schema = response.getJsonObject("content", new JsonObject())
        .getJsonObject("application/json", new JsonObject()).getJsonObject("schema");
    List<String> out = new ArrayList<>();
    if (schema == null) {
      out.add(operationId + " " + status + " declares no application/json body");
    } else {
      check(body, schema, operationId + " " + status + " $", out);
    }
    return out;
  }

  /** What in {@code body} departs from the document's component schema {@code name} (empty: none). */
  public List<String> schemaProblems(String name, Object body) {
    List<String> out = new ArrayList<>();
    check(body, new JsonObject().put("$ref", "#/components/schemas/" + name), name + " $", out);
    return out;
  }

  private JsonObject responseOf(String operationId, String status) {
    JsonObject paths = doc.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (Map.Entry<String, Object> e : paths.getJsonObject(path)) {
        if (e.getValue() instanceof JsonObject op && operationId.equals(op.getString("operationId"))) {
          JsonObject response = op.getJsonObject("responses").getJsonObject(status);
          if (response == null) {
            throw new AssertionError(operationId + " has no " + status + " response in the document");
          }
          return response;
        }
      }
    }
    throw new AssertionError("no operation " + operationId + " in the document");
  }

  private JsonObject resolve(JsonObject schema) {
    while (schema.containsKey("$ref")) {
      JsonObject target = doc;
      for (String part : schema.getString("$ref").substring(2).split("/")) {
        target = target.getJsonObject(part.replace("~1", "/").replace("~0", "~"));
      }
      schema = target;
    }
    return schema;
  }

  private void check(Object value, JsonObject raw, String at, List<String> out) {
    JsonObject schema = resolve(raw);
    for (String combinator : List.of("oneOf", "anyOf")) {
      if (schema.containsKey(combinator)) {
        List<String> best = null;
        for (Object alternative : schema.getJsonArray(combinator)) {
          List<String> found = new ArrayList<>();
          check(value, (JsonObject) alternative, at, found);
          if (best == null || found.size() < best.size()) {
            best = found;
          }
        }
        out.addAll(best);
        return;
      }
    }
    Map<String, JsonObject> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    Object additional = collect(schema, properties, required);
    Object type = typeOf(schema);
    if (type != null && !typeMatches(value, type)) {
      out.add(at + ": " + (value == null ? "null" : value.getClass().getSimpleName()) + " where the document says "
          + type);
      return;
    }
    if (schema.containsKey("enum") && !schema.getJsonArray("enum").contains(value)) {
      out.add(at + ": " + value + " is not one of " + schema.getJsonArray("enum"));
    }
    if (schema.containsKey("const") && !schema.getValue("const").equals(value)) {
      out.add(at + ": " + value + " is not " + schema.getValue("const"));
    }
    if (value instanceof JsonObject object) {
      for (String name : required) {
        if (!object.containsKey(name)) {
          out.add(at + "." + name + ": required but absent");
        }
      }
      for (Map.Entry<String, Object> member : object) {
        JsonObject declared = properties.get(member.getKey());
        if (declared != null) {
          check(member.getValue(), declared, at + "." + member.getKey(), out);
        } else if (additional instanceof JsonObject map) {
          check(member.getValue(), map, at + "." + member.getKey(), out);
        } else if (!Boolean.TRUE.equals(additional)) {
          out.add(at + "." + member.getKey() + ": not declared");
        }
      }
    } else if (value instanceof JsonArray array && schema.containsKey("items")) {
      for (int i = 0; i < array.size(); i++) {
        check(array.getValue(i), schema.getJsonObject("items"), at + "[" + i + "]", out);
      }
    }
  }

  /** Merges the properties and required members of a schema and its allOf parts; answers additionalProperties. */
  private Object collect(JsonObject schema, Map<String, JsonObject> properties, List<String> required) {
    Object additional = schema.getValue("additionalProperties");
    schema.getJsonObject("properties", new JsonObject())
        .forEach(e -> properties.putIfAbsent(e.getKey(), (JsonObject) e.getValue()));
    schema.getJsonArray("required", new JsonArray()).forEach(r -> required.add((String) r));
    for (Object part : schema.getJsonArray("allOf", new JsonArray())) {
      Object more = collect(resolve((JsonObject) part), properties, required);
      additional = additional != null ? additional : more;
    }
    return additional;
  }

  private Object typeOf(JsonObject schema) {
    if (schema.containsKey("type")) {
      return schema.getValue("type");
    }
    for (Object part : schema.getJsonArray("allOf", new JsonArray())) {
      Object type = typeOf(resolve((JsonObject) part));
      if (type != null) {
        return type;
      }
    }
    return null;
  }

  private static boolean typeMatches(Object value, Object type) {
    if (type instanceof JsonArray types) {
      return types.stream().anyMatch(t -> typeMatches(value, t));
    }
    return switch (String.valueOf(type)) {
      case "null" -> value == null;
      case "object" -> value instanceof JsonObject;
      case "array" -> value instanceof JsonArray;
      case "string" -> value instanceof String;
      case "boolean" -> value instanceof Boolean;
      case "integer" -> value instanceof Integer || value instanceof Long
          || (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()));
      case "number" -> value instanceof Number;
      default -> false;
    };
  }
}
