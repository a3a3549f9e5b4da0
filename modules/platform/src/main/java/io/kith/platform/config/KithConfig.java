package io.kith.platform.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kith's configuration: the defaults from {@code kith.yaml} on the classpath (a copy of {@code conf/kith.yaml}),
 * overlaid by an optional file given on the command line, overlaid by environment variables.
 *
 * <p>An environment variable {@code KITH_A_B} overrides the key whose dotted path, upper-cased with dots and dashes
 * turned into underscores, reads {@code A_B} (so {@code KITH_HTTP_PORT} sets {@code http.port} and
 * {@code KITH_CLUSTER_MEMBERS} sets {@code cluster.members}; keys of the {@code kith} section need no repeated
 * prefix: {@code KITH_MODULES} sets {@code kith.modules}). Only keys that exist in the defaults can be set this way,
 * and the value is converted to the type of the default (number, boolean, comma-separated list). A variable that
 * matches no key is reported by {@link #unknownEnvironment()} so the operator learns about a typo.
 *
 * <p>{@link #load} validates the result against a schema derived from the defaults: a key the defaults do not have
 * (a typo such as {@code redis.ulr}) or a value of another type than its default is refused with one line naming
 * the key and the file or variable it came from.
 */
public final class KithConfig {

  /** Environment variable prefix. */
  public static final String ENV_PREFIX = "KITH_";
  private static final String DEFAULTS_RESOURCE = "kith.yaml";

  private final JsonObject root;
  private final List<String> unknownEnvironment;

  private KithConfig(JsonObject root, List<String> unknownEnvironment) {
    this.root = root;
    this.unknownEnvironment = List.copyOf(unknownEnvironment);
  }

  /**
   * Loads defaults from the classpath, then {@code file} (may be null), then {@code env}.
   *
   * @throws ConfigException when a file cannot be read or a value cannot be converted
   */
  public static KithConfig load(Path file, Map<String, String> env) {
    JsonObject defaults = readDefaults();
    JsonObject merged = defaults.copy();
    JsonObject fromFile = new JsonObject();
    if (file != null) {
      if (!Files.isRegularFile(file)) {
        throw new ConfigException("configuration file " + file + " does not exist");
      }
      try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        fromFile = parse(reader, file.toString());
      } catch (IOException e) {
        throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
      }
      deepMerge(merged, fromFile);
    }
    List<String> unknown = new ArrayList<>();
    Map<String, String> fromEnvironment = applyEnvironment(merged, env, unknown);
    JsonObject overlay = fromFile;
    // Before anything starts: a typo must not silently fall back to a default (an embedded store in production),
    // and a wrong type must not start half the node and then fail with a ClassCastException.
    ConfigSchema.of(defaults).validate(merged, key -> {
      for (Map.Entry<String, String> e : fromEnvironment.entrySet()) {
        if (key.equals(e.getKey()) || key.startsWith(e.getKey() + ".")) {
          return "environment variable " + e.getValue();
        }
      }
      return file != null && contains(overlay, key) ? file.toString() : "classpath:" + DEFAULTS_RESOURCE;
    });
    return new KithConfig(merged, unknown);
  }

  private static boolean contains(JsonObject tree, String dottedPath) {
    Object current = tree;
    for (String part : dottedPath.split("\\.")) {
      if (!(current instanceof JsonObject) || !((JsonObject) current).containsKey(part)) {
        return false;
      }
      current = ((JsonObject) current).getValue(part);
    }
    return true;
  }

  /** A configuration from a JSON tree (defaults from the classpath underneath), used by tests and tools. */
  public static KithConfig of(JsonObject overrides) {
    JsonObject merged = readDefaults();
    deepMerge(merged, overrides);
    return new KithConfig(merged, List.of());
  }

  /** The whole tree (a copy). */
  public JsonObject json() {
    return root.copy();
  }

  /** A top-level section such as {@code http} or {@code redis} (a copy; empty when absent). */
  public JsonObject section(String name) {
    Object s = root.getValue(name);
    if (s != null && !(s instanceof JsonObject)) {
      throw new ConfigException("configuration key '" + name + "' must be a section (a mapping), not a value");
    }
    return s == null ? new JsonObject() : ((JsonObject) s).copy();
  }

  /** Environment variables with the {@code KITH_} prefix that matched no configuration key. */
  public List<String> unknownEnvironment() {
    return unknownEnvironment;
  }

  /** The value at a dotted path, or null. */
  public Object get(String dottedPath) {
    Object current = root;
    for (String part : dottedPath.split("\\.")) {
      if (!(current instanceof JsonObject)) {
        return null;
      }
      current = ((JsonObject) current).getValue(part);
    }
    return current;
  }

  /** The string at a dotted path, or {@code fallback} when absent or blank. */
  public String getString(String dottedPath, String fallback) {
    Object v = get(dottedPath);
    return v == null || v.toString().isBlank() ? fallback : v.toString();
  }

  private static JsonObject readDefaults() {
    try (InputStream in = KithConfig.class.getClassLoader().getResourceAsStream(DEFAULTS_RESOURCE)) {
      if (in == null) {
        return new JsonObject();
      }
      return parse(new java.io.InputStreamReader(in, StandardCharsets.UTF_8), "classpath:" + DEFAULTS_RESOURCE);
    } catch (IOException e) {
      throw new ConfigException("cannot read default configuration: " + e.getMessage());
    }
  }

  @SuppressWarnings("unchecked")
  private static JsonObject parse(Reader reader, String source) {
    Object loaded;
    try {
      loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
    } catch (RuntimeException e) {
      throw new ConfigException("configuration file " + source + " is not valid YAML: " + firstLine(e.getMessage()));
    }
    if (loaded == null) {
      return new JsonObject();
    }
    if (!(loaded instanceof Map)) {
      throw new ConfigException("configuration file " + source + " must hold a mapping at its top level");
    }
    return new JsonObject((Map<String, Object>) normalise(loaded));
  }

  // SnakeYAML yields Dates, Integers and Longs; Vert.x JSON wants plain JSON types.
  @SuppressWarnings("unchecked")
  private static Object normalise(Object value) {
    if (value instanceof Map) {
      Map<String, Object> out = new java.util.LinkedHashMap<>();
      ((Map<Object, Object>) value).forEach((k, v) -> out.put(String.valueOf(k), normalise(v)));
      return out;
    }
    if (value instanceof List) {
      List<Object> out = new ArrayList<>();
      ((List<Object>) value).forEach(v -> out.add(normalise(v)));
      return out;
    }
    if (value instanceof java.util.Date) {
      return ((java.util.Date) value).toInstant().toString();
    }
    return value;
  }

  private static void deepMerge(JsonObject target, JsonObject overlay) {
    for (String key : overlay.fieldNames()) {
      Object over = overlay.getValue(key);
      Object base = target.getValue(key);
      if (over instanceof JsonObject && base instanceof JsonObject) {
        deepMerge((JsonObject) base, (JsonObject) over);
      } else {
        target.put(key, over instanceof JsonObject ? ((JsonObject) over).copy() : over);
      }
    }
  }

  // Returns the key paths set, each with the variable that set it.
  private static Map<String, String> applyEnvironment(JsonObject root, Map<String, String> env, List<String> unknown) {
    Map<String, String> applied = new java.util.LinkedHashMap<>();
    Map<String, String> keys = new java.util.HashMap<>();
    collectKeys(root, "", keys);
    env.entrySet().stream()
        .filter(e -> e.getKey().startsWith(ENV_PREFIX))
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> {
          String path = keys.get(e.getKey().substring(ENV_PREFIX.length()));
          if (path == null) {
            unknown.add(e.getKey());
          } else {
            set(root, path, e.getKey(), e.getValue());
            applied.put(path, e.getKey());
          }
        });
    return applied;
  }

  private static void collectKeys(JsonObject node, String prefix, Map<String, String> out) {
    for (String key : node.fieldNames()) {
      String path = prefix.isEmpty() ? key : prefix + "." + key;
      String name = path.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
      out.put(name, path);
      // keys of the "kith" section also answer without repeating the prefix: KITH_DATA_DIR = kith.data-dir
      if (name.startsWith("KITH_")) {
        out.putIfAbsent(name.substring("KITH_".length()), path);
      }
      Object v = node.getValue(key);
      if (v instanceof JsonObject) {
        collectKeys((JsonObject) v, path, out);
      }
    }
  }

  private static void set(JsonObject root, String path, String variable, String raw) {
    String[] parts = path.split("\\.");
    JsonObject node = root;
    for (int i = 0; i < parts.length - 1; i++) {
      node = node.getJsonObject(parts[i]);
    }
    String leaf = parts[parts.length - 1];
    Object current = node.getValue(leaf);
    node.put(leaf, convert(current, raw, variable));
  }

  private static Object convert(Object current, String raw, String variable) {
    String value = raw.trim();
    try {
      if (current instanceof Boolean) {
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
          throw new IllegalArgumentException();
        }
        return Boolean.parseBoolean(value);
      }
      if (current instanceof Integer) {
        return Integer.parseInt(value);
      }
      if (current instanceof Long) {
        return Long.parseLong(value);
      }
      if (current instanceof Number) {
        return Double.parseDouble(value);
      }
      if (current instanceof JsonArray) {
        JsonArray out = new JsonArray();
        for (String item : value.split(",")) {
          if (!item.isBlank()) {
            out.add(item.trim());
          }
        }
        return out;
      }
      if (current instanceof JsonObject) {
        return new JsonObject(value);
      }
    } catch (RuntimeException e) {
      throw new ConfigException(variable + "=" + raw + " is not a valid "
          + current.getClass().getSimpleName().replace("JsonArray", "comma-separated list").toLowerCase(java.util.Locale.ROOT));
    }
    return value;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @Override
  public String toString() {
    return "KithConfig" + Objects.toString(root.fieldNames());
  }
}
