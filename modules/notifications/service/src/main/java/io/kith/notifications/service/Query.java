package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates queries and conditions and turns them into the spec the Lua scripts read:
 * {@code {types: [...], where: [[field, value]...], max, min, offset, limit}} with ids as decimal strings and
 * {@code max}/{@code min} as exclusive score bounds.
 */
final class Query {

  static final int MAX_LIMIT = 100;
  static final int DEFAULT_LIMIT = 20;
  static final int MAX_OFFSET = 1_000;
  static final int MAX_IDS = 1_000;
  private static final long MAX_ID = (1L << 53) - 1;

  private Query() {
  }

  /** The spec of a list query. */
  static JsonObject list(JsonObject query, List<String> known) {
    JsonObject q = query == null ? new JsonObject() : query;
    known(q, Set.of("types", "where", "max_id", "since_id", "offset", "limit"));
    JsonObject spec = filter(q, known);
    long maxId = id(q, "max_id");
    long sinceId = id(q, "since_id");
    if (maxId > 0) {
      spec.put("max", "(" + maxId);
    }
    if (sinceId > 0) {
      spec.put("min", "(" + sinceId);
    }
    spec.put("offset", integer(q, "offset", 0, 0, MAX_OFFSET));
    spec.put("limit", integer(q, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT));
    return spec;
  }

  /** The spec of a grouped query: {@code {types, before, limit}}. */
  static JsonObject grouped(JsonObject query, List<String> known) {
    JsonObject q = query == null ? new JsonObject() : query;
    known(q, Set.of("types", "max_id", "limit"));
    JsonObject spec = new JsonObject().put("types", types(q, known));
    long maxId = id(q, "max_id");
    if (maxId > 0) {
      spec.put("before", Long.toString(maxId));
    }
    spec.put("limit", integer(q, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT));
    return spec;
  }

  /** The spec of a mark-read or delete condition: at least one of types and where. */
  static JsonObject condition(JsonObject condition, List<String> known) {
    JsonObject c = condition == null ? new JsonObject() : condition;
    known(c, Set.of("types", "where"));
    JsonObject spec = filter(c, known);
    if (spec.getJsonArray("types").isEmpty() && spec.getJsonArray("where").isEmpty()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "where",
          "give types or where conditions (to mark everything read, use mark all)");
    }
    return spec;
  }

  /** A list of 1..{@value #MAX_IDS} positive ids, duplicates dropped. */
  static List<Long> ids(List<Long> ids) {
    if (ids == null || ids.isEmpty() || ids.size() > MAX_IDS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "ids", "give 1 to " + MAX_IDS + " notification ids");
    }
    Set<Long> out = new LinkedHashSet<>();
    for (Long id : ids) {
      if (id == null || id < 1 || id > MAX_ID) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "ids", "ids must be positive integers below 2^53");
      }
      out.add(id);
    }
    return new ArrayList<>(out);
  }

  /** Known types given as a list, in the order given, duplicates dropped. */
  static List<String> typeList(Object value, String field, List<String> known) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a list of notification types");
    }
    Set<String> out = new LinkedHashSet<>();
    for (Object t : (JsonArray) value) {
      if (!(t instanceof String) || !known.contains(t)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, field, "unknown notification type '" + t
            + "'; known types: " + String.join(", ", known));
      }
      out.add((String) t);
    }
    return new ArrayList<>(out);
  }

  private static JsonObject filter(JsonObject q, List<String> known) {
    JsonObject spec = new JsonObject().put("types", types(q, known));
    JsonArray where = new JsonArray();
    Object raw = q.getValue("where");
    if (raw != null && !(raw instanceof JsonObject)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "where", "where must be an object of field conditions");
    }
    if (raw != null) {
      for (Map.Entry<String, Object> e : (JsonObject) raw) {
        String field = e.getKey();
        Object value = e.getValue();
        if (Notifications.UNREAD.equals(field)) {
          if (!(value instanceof Boolean)) {
            throw Failures.field(KithErrors.VALIDATION_FAILED, "where.unread", "unread must be true or false");
          }
          where.add(new JsonArray().add("unread").add((Boolean) value ? "1" : "0"));
        } else if (Notifications.FIELDS.contains(field)) {
          if (!(value instanceof Number) || ((Number) value).longValue() < 1 || ((Number) value).longValue() > MAX_ID
              || ((Number) value).doubleValue() != ((Number) value).longValue()) {
            throw Failures.field(KithErrors.VALIDATION_FAILED, "where." + field, field + " must be a positive id");
          }
          where.add(new JsonArray().add(field).add(Long.toString(((Number) value).longValue())));
        } else {
          throw Failures.field(KithErrors.VALIDATION_FAILED, "where." + field, "unknown condition field '" + field
              + "'; known: " + String.join(", ", Notifications.FIELDS) + ", unread");
        }
      }
    }
    return spec.put("where", where);
  }

  private static JsonArray types(JsonObject q, List<String> known) {
    return new JsonArray(typeList(q.getValue("types"), "types", known));
  }

  private static void known(JsonObject q, Set<String> members) {
    for (String name : q.fieldNames()) {
      if (!members.contains(name)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, name, "unknown member '" + name + "'");
      }
    }
  }

  private static long id(JsonObject q, String name) {
    Object v = q.getValue(name);
    if (v == null) {
      return 0;
    }
    if (!(v instanceof Number) || ((Number) v).longValue() < 0 || ((Number) v).longValue() > MAX_ID) {
      throw invalid(name, name + " must be an id (0 for none)");
    }
    return ((Number) v).longValue();
  }

  private static int integer(JsonObject q, String name, int fallback, int min, int max) {
    Object v = q.getValue(name);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Number) || ((Number) v).longValue() < min || ((Number) v).longValue() > max) {
      throw invalid(name, name + " must be between " + min + " and " + max);
    }
    return ((Number) v).intValue();
  }

  private static ServiceException invalid(String field, String detail) {
    return Failures.field(KithErrors.VALIDATION_FAILED, field, detail);
  }

  /**
   * A list query: its filters with the page's {@code limit}, {@code max_id} and {@code since_id} among them (those
   * the page gives), where the query checks have always read them.
   */
  static JsonObject paged(JsonObject filters, PageRequest page) {
    JsonObject query = filters == null ? new JsonObject() : filters.copy();
    if (page != null) {
      if (page.limit() != null) {
        query.put("limit", page.limit());
      }
      if (page.maxId() != 0) {
        query.put("max_id", page.maxId());
      }
      if (page.sinceId() != 0) {
        query.put("since_id", page.sinceId());
      }
    }
    return query;
  }

  /** A list's body as a page: both notification lists hold their notifications or groups under {@code items}. */
  static Page page(JsonObject body) {
    return Page.of("items", body);
  }
}
