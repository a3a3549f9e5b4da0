package io.kith.platform.config;

import io.vertx.core.json.JsonObject;

/**
 * One module's configuration section read into its typed settings record: each value with its bounds, refused at
 * start when out of them (a cap of 0 would let a timeline grow forever), so a bad value never reaches the code.
 *
 * <p>Defaults live in {@code conf/kith.yaml} only: a key missing from the section (a test's partial section, a tool)
 * falls back to that file's default, and a key the file does not have fails at once, so no module keeps a second copy
 * of a default that could drift from the documented one.
 */
public final class Bounds {

  private final String name;
  private final JsonObject section;
  private final JsonObject defaults;

  private Bounds(String name, JsonObject section, JsonObject defaults) {
    this.name = name;
    this.section = section;
    this.defaults = defaults;
  }

  /**
   * Reads {@code section}, the configuration section called {@code name}: a top-level one such as {@code "feeds"}, or
   * a nested one by its dotted path such as {@code "feeds.media"}.
   */
  public static Bounds of(String name, JsonObject section) {
    Object defaults = Defaults.ROOT.get(name);
    return new Bounds(name, section, defaults instanceof JsonObject ? (JsonObject) defaults : new JsonObject());
  }

  /** The integer at {@code key}, refused when below {@code min} or above {@code max}. */
  public int within(String key, int min, int max) {
    int value = integer(key);
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + "." + key + " must be between " + min + " and " + max + ": " + value);
    }
    return value;
  }

  /** The long at {@code key}, refused when below {@code min} or above {@code max}. */
  public long within(String key, long min, long max) {
    long value = section.getLong(key, defaults.getLong(check(key)));
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + "." + key + " must be between " + min + " and " + max + ": " + value);
    }
    return value;
  }

  /** The integer at {@code key} (no bounds: any value works, e.g. a limit that 0 switches off). */
  public int integer(String key) {
    return section.getInteger(key, defaults.getInteger(check(key)));
  }

  /** The long integer at {@code key} (no bounds), such as a size in bytes. */
  public long longValue(String key) {
    return section.getLong(key, defaults.getLong(check(key)));
  }

  /** The number at {@code key}. */
  public double decimal(String key) {
    return section.getDouble(key, defaults.getDouble(check(key)));
  }

  /** The boolean at {@code key}. */
  public boolean flag(String key) {
    return section.getBoolean(key, defaults.getBoolean(check(key)));
  }

  /** The string at {@code key}. */
  public String text(String key) {
    return section.getString(key, defaults.getString(check(key)));
  }

  private String check(String key) {
    if (defaults.getValue(key) == null) {
      throw new IllegalStateException(name + "." + key + " has no default in conf/kith.yaml");
    }
    return key;
  }

  /** The defaults, parsed once per JVM. */
  private static final class Defaults {
    static final KithConfig ROOT = KithConfig.of(new JsonObject());
  }
}
