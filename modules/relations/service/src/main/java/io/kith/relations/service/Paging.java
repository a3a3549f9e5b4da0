package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;

/** How every relations list reads its arguments: the cursor, the clamped limit, a list of ids, the next cursor. */
final class Paging {

  static final int MAX_PAGE = 100;
  static final int MAX_IDS = 1_000;

  private Paging() {
  }

  static String nextCursor(List<JsonObject> page, int limit) {
    return page.size() < limit || page.isEmpty() ? null : Long.toString(page.get(page.size() - 1).getLong("_id"));
  }

  static Long before(String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return null;
    }
    try {
      long v = Long.parseLong(cursor);
      if (v <= 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next value of a previous page");
    }
  }

  static int clamp(int limit) {
    return Math.max(1, Math.min(MAX_PAGE, limit));
  }

  static List<Long> idList(List<Long> ids, int max, String field) {
    if (ids == null || ids.isEmpty()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must list at least one user id");
    }
    if (ids.size() > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, "at most " + max + " ids per call");
    }
    return List.copyOf(new LinkedHashSet<>(ids));
  }
}
