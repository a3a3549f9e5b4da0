package io.kith.platform.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The schema of Kith's configuration, derived from the defaults in {@code kith.yaml} so that a key added there is
 * allowed everywhere without a second list to keep: every section is a closed object (an unknown key is refused),
 * every leaf takes the JSON type of its default (an integer default accepts integers only, a decimal default any
 * number), a list takes items of its first default item's type (any items when the default list is empty).
 */
final class ConfigSchema {

  private final JsonObject schema;
  private final Validator validator;

  private ConfigSchema(JsonObject schema) {
    this.schema = schema;
    this.validator = Validator.create(JsonSchema.of(schema), new JsonSchemaOptions()
        .setDraft(Draft.DRAFT202012)
        .setBaseUri("urn:kith:config")
        .setOutputFormat(OutputFormat.Basic));
  }

  /** The schema whose allowed keys and types are those of {@code defaults}. */
  static ConfigSchema of(JsonObject defaults) {
    return new ConfigSchema(schemaOf(defaults));
  }

  private static JsonObject schemaOf(Object value) {
    if (value instanceof JsonObject) {
      JsonObject properties = new JsonObject();
      ((JsonObject) value).forEach(e -> properties.put(e.getKey(), schemaOf(e.getValue())));
      return new JsonObject().put("type", "object").put("properties", properties).put("additionalProperties", false);
    }
    if (value instanceof JsonArray) {
      JsonArray items = (JsonArray) value;
      JsonObject out = new JsonObject().put("type", "array");
      return items.isEmpty() ? out : out.put("items", schemaOf(items.getValue(0)));
    }
    return new JsonObject().put("type", typeOf(value));
  }

  private static String typeOf(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Integer || value instanceof Long || value instanceof java.math.BigInteger) {
      return "integer";
    }
    if (value instanceof Number) {
      return "number";
    }
    if (value instanceof Boolean) {
      return "boolean";
    }
    if (value instanceof JsonObject) {
      return "object";
    }
    if (value instanceof JsonArray) {
      return "array";
    }
    return "string";
  }

  /**
   * Validates {@code config}; the first problem becomes a one-line {@link ConfigException} naming the key path and
   * where its value came from ({@code sourceOf} maps a dotted key path to a file name or an environment variable).
   */
  void validate(JsonObject config, Function<String, String> sourceOf) {
    OutputUnit result = validator.validate(config);
    if (Boolean.TRUE.equals(result.getValid())) {
      return;
    }
    List<String> problems = new ArrayList<>();
    // The validator reports each failure on every enclosing level too; the deepest instance path is the key itself.
    List<OutputUnit> errors = new ArrayList<>(result.getErrors() == null ? List.of() : result.getErrors());
    errors.sort(Comparator.comparingInt((OutputUnit u) -> -depth(u.getInstanceLocation())));
    for (OutputUnit error : errors) {
      List<String> path = path(error.getInstanceLocation());
      problem(config, path, sourceOf).ifPresent(problems::add);
      if (!problems.isEmpty()) {
        break;
      }
    }
    throw new ConfigException(problems.isEmpty()
        ? "the configuration does not match conf/kith.yaml: " + result.getErrors()
        : problems.get(0));
  }

  // What is wrong at one instance path, judged against the schema itself (the validator's wording varies by keyword).
  private Optional<String> problem(JsonObject config, List<String> path, Function<String, String> sourceOf) {
    JsonObject node = schema;
    Object value = config;
    StringBuilder key = new StringBuilder();
    for (String part : path) {
      boolean index = "array".equals(node.getString("type"));
      if (key.length() > 0) {
        key.append(index ? "[" + part + "]" : "." + part);
      } else {
        key.append(part);
      }
      if (index) {
        JsonObject items = node.getJsonObject("items");
        if (items == null) {
          return Optional.empty();
        }
        node = items;
        value = value instanceof JsonArray ? ((JsonArray) value).getValue(Integer.parseInt(part)) : null;
        continue;
      }
      JsonObject properties = node.getJsonObject("properties", new JsonObject());
      if (!properties.containsKey(part)) {
        String known = String.join(", ", properties.fieldNames());
        return Optional.of("unknown configuration key '" + key + "' in " + sourceOf.apply(stripIndexes(key))
            + (known.isEmpty() ? "" : " (known keys here: " + known + ")"));
      }
      node = properties.getJsonObject(part);
      value = value instanceof JsonObject ? ((JsonObject) value).getValue(part) : null;
    }
    String expected = node.getString("type");
    String actual = typeOf(value);
    if (expected.equals(actual) || ("number".equals(expected) && "integer".equals(actual))) {
      if (!"integer".equals(expected) || !(value instanceof Number) || isWhole((Number) value)) {
        return Optional.empty();
      }
      actual = "number";
    }
    if (path.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("configuration key '" + key + "' in " + sourceOf.apply(stripIndexes(key)) + " must be "
        + describe(expected) + ", not " + describe(actual) + (value == null ? "" : " (" + value + ")"));
  }

  private static boolean isWhole(Number n) {
    double d = n.doubleValue();
    return !(n instanceof Double || n instanceof Float) || d == Math.rint(d);
  }

  private static String describe(String type) {
    switch (type) {
      case "object":
        return "a section (a mapping)";
      case "array":
        return "a list";
      case "integer":
        return "an integer";
      case "number":
        return "a number";
      case "null":
        return "empty";
      default:
        return "a " + type;
    }
  }

  private static String stripIndexes(CharSequence key) {
    return key.toString().replaceAll("\\[\\d+]", "");
  }

  private static int depth(String pointer) {
    return path(pointer).size();
  }

  private static List<String> path(String pointer) {
    List<String> out = new ArrayList<>();
    if (pointer == null) {
      return out;
    }
    String p = pointer.startsWith("#") ? pointer.substring(1) : pointer;
    for (String part : p.split("/")) {
      if (!part.isEmpty()) {
        out.add(part.replace("~1", "/").replace("~0", "~"));
      }
    }
    return out;
  }
}
