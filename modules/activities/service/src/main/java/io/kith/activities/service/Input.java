package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.json.JsonObject;

/** Checks of the caller and of list queries shared by the features; each failure names the field to fix. */
final class Input {

  private Input() {
  }

  static void requireUser(long actor) {
    if (actor <= 0) {
      throw Failures.of(KithErrors.UNAUTHENTICATED, "sign in to do this");
    }
  }

  static int limit(JsonObject q) {
    Object l = q.getValue("limit");
    if (l == null) {
      return Activities.DEFAULT_LIMIT;
    }
    if (!(l instanceof Integer || l instanceof Long) || ((Number) l).longValue() < 1
        || ((Number) l).longValue() > Activities.MAX_LIMIT) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "limit",
          "limit must be between 1 and " + Activities.MAX_LIMIT);
    }
    return ((Number) l).intValue();
  }

  static Long longCursor(JsonObject q) {
    Object c = q.getValue("cursor");
    if (c == null) {
      return null;
    }
    try {
      return Long.parseLong(String.valueOf(c));
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next of a previous page");
    }
  }

  static int offsetCursor(JsonObject q) {
    Long c = longCursor(q);
    if (c == null) {
      return 0;
    }
    if (c < 0 || c > 100_000) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next of a previous page");
    }
    return c.intValue();
  }

  /** A {@code "<start>.<id>"} cursor, or null. */
  static long[] startCursor(JsonObject q) {
    Object c = q.getValue("cursor");
    if (c == null) {
      return null;
    }
    String[] parts = String.valueOf(c).split("\\.");
    try {
      if (parts.length != 2) {
        throw new NumberFormatException();
      }
      return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next of a previous page");
    }
  }

  /** Whether the activity comes after a {@code "<start>.<id>"} cursor (true without one). */
  static boolean after(JsonObject d, long[] cursor) {
    if (cursor == null) {
      return true;
    }
    long s = d.getLong("start");
    return s > cursor[0] || s == cursor[0] && d.getLong("_id") > cursor[1];
  }

  /** Whether the activity comes before a {@code "<start>.<id>"} cursor (true without one). */
  static boolean before(JsonObject d, long[] cursor) {
    if (cursor == null) {
      return true;
    }
    long s = d.getLong("start");
    return s < cursor[0] || s == cursor[0] && d.getLong("_id") < cursor[1];
  }

  /** The {@code "<start>.<id>"} cursor of the page ending with {@code last}. */
  static String startCursorOf(JsonObject last) {
    return last.getLong("start") + "." + last.getLong("_id");
  }

  static double required(JsonObject q, String field, double bound) {
    Object v = q.getValue(field);
    if (v == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " is required");
    }
    return ActivityDraft.coordinate(v, field, bound);
  }
}
