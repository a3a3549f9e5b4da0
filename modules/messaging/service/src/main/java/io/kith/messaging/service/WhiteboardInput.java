package io.kith.messaging.service;

import io.kith.messaging.api.Whiteboards;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.UserText;
import io.vertx.core.json.JsonArray;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Validation of whiteboard input: a board's title and the ids a request names. */
final class WhiteboardInput {

  private WhiteboardInput() {
  }

  static String title(Object raw) {
    if (!(raw instanceof String) || ((String) raw).isBlank()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "title", "title must be a non-blank string");
    }
    String t = ((String) raw).strip();
    if (t.codePointCount(0, t.length()) > Whiteboards.MAX_TITLE) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "title",
          "title must be at most " + Whiteboards.MAX_TITLE + " characters");
    }
    return UserText.line("title", t);
  }

  static long id(Object raw, String field) {
    if (!(raw instanceof Number) || ((Number) raw).doubleValue() != Math.rint(((Number) raw).doubleValue())
        || ((Number) raw).longValue() <= 0) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a positive integer id");
    }
    return ((Number) raw).longValue();
  }

  static List<Long> ids(Object raw, String field) {
    if (!(raw instanceof JsonArray)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a list of user ids");
    }
    Set<Long> out = new LinkedHashSet<>();
    for (Object item : (JsonArray) raw) {
      out.add(id(item, field));
    }
    return new ArrayList<>(out);
  }
}
