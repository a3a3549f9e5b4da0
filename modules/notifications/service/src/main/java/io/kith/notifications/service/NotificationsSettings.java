package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code notifications} configuration section.
 *
 * @param maxPerUser          most notifications kept per user; the oldest are evicted beyond it
 * @param markReadsPerMinute  mark-read calls (by ids, all, or by condition, counted together) a user may make per
 *                            minute
 * @param customTypes         the app-defined types: name to {field name: field type} (see
 *                            {@link Notifications#CUSTOM_FIELD_TYPES})
 */
record NotificationsSettings(int maxPerUser, int markReadsPerMinute, Map<String, Map<String, String>> customTypes) {

  /** Config key of {@link #maxPerUser}. */
  static final String MAX_PER_USER = "max-per-user";
  /** Config key of {@link #markReadsPerMinute}. */
  static final String MARK_READS_PER_MINUTE = "mark-reads-per-minute";
  /** Config key of {@link #customTypes}: a list of {@code {name, fields: {name: type}}}. */
  static final String CUSTOM_TYPES = "custom-types";
  /** Most custom types ({@link Notifications#MAX_CUSTOM_TYPES}), and most fields of one. */
  static final int MAX_CUSTOM_TYPES = Notifications.MAX_CUSTOM_TYPES;
  static final int MAX_FIELDS = 20;
  private static final String NAME = "[a-z][a-z0-9_]{0,39}";

  static NotificationsSettings from(JsonObject section) {
    Bounds b = Bounds.of("notifications", section);
    return new NotificationsSettings(b.within(MAX_PER_USER, 1, 100_000), b.within(MARK_READS_PER_MINUTE, 1, 1_000_000),
        customTypes(section.getJsonArray(CUSTOM_TYPES, new JsonArray())));
  }

  /** Every type of this node: the built-in ones, then the custom ones in configuration order. */
  List<String> types() {
    List<String> all = new ArrayList<>(Notifications.TYPES);
    all.addAll(customTypes.keySet());
    return all;
  }

  private static Map<String, Map<String, String>> customTypes(JsonArray list) {
    if (list.size() > MAX_CUSTOM_TYPES) {
      throw new IllegalArgumentException("notifications.custom-types: at most " + MAX_CUSTOM_TYPES + " types");
    }
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (Object o : list) {
      JsonObject t = o instanceof JsonObject ? (JsonObject) o : new JsonObject();
      String name = t.getString("name", "");
      if (!name.matches(NAME) || Notifications.TYPES.contains(name) || out.containsKey(name)) {
        throw new IllegalArgumentException("notifications.custom-types: each name must match " + NAME
            + " and differ from the built-in types and the others: " + name);
      }
      JsonObject fields = t.getJsonObject("fields", new JsonObject());
      if (fields.size() > MAX_FIELDS) {
        throw new IllegalArgumentException("notifications.custom-types." + name + ": at most " + MAX_FIELDS
            + " fields");
      }
      Map<String, String> declared = new LinkedHashMap<>();
      for (String field : fields.fieldNames()) {
        String type = String.valueOf(fields.getValue(field));
        if (!field.matches(NAME) || !Notifications.CUSTOM_FIELD_TYPES.contains(type)) {
          throw new IllegalArgumentException("notifications.custom-types." + name + ".fields." + field
              + ": the name must match " + NAME + " and the type be one of " + Notifications.CUSTOM_FIELD_TYPES);
        }
        declared.put(field, type);
      }
      out.put(name, Collections.unmodifiableMap(declared));
    }
    return Collections.unmodifiableMap(out);
  }
}
