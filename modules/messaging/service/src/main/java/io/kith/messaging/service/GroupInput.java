package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.UserText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading the input of group operations: names and texts counted in characters, id lists, page sizes and cursors,
 * and the search words of a group. Every refusal is {@code validation_failed} naming the field.
 */
final class GroupInput {

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final int MAX_KEYWORDS = 20;

  private GroupInput() {
  }

  /** Distinct positive user ids of a managed-members change (null is none). */
  static List<Long> managedIds(List<Long> ids, String field) {
    List<Long> out = new ArrayList<>();
    if (ids != null) {
      for (Long id : ids) {
        if (id == null || id <= 0) {
          throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must hold user ids");
        }
        if (!out.contains(id)) {
          out.add(id);
        }
      }
    }
    return out;
  }

  /** Up to {@value Messaging#MAX_INVITEES} distinct user ids, not the actor's own. */
  static List<Long> ids(Object raw, String field, long actor) {
    if (!(raw instanceof JsonArray) || ((JsonArray) raw).size() > Messaging.MAX_INVITEES) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a list of at most "
          + Messaging.MAX_INVITEES + " user ids");
    }
    LinkedHashSet<Long> out = new LinkedHashSet<>();
    for (Object v : (JsonArray) raw) {
      if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() <= 0) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must hold user ids");
      }
      if (n.longValue() == actor) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, field, "you cannot add yourself");
      }
      out.add(n.longValue());
    }
    return new ArrayList<>(out);
  }

  /**
   * A one-line text member (a name, a topic) of {@code min..max} characters (code points), trimmed; null when absent
   * and not required.
   */
  static String text(JsonObject body, String field, int min, int max, boolean required) {
    return UserText.line(field, trimmed(body, field, min, max, required));
  }

  /** As {@link #text}, for a text that may run over several lines (a group's about). */
  static String paragraph(JsonObject body, String field, int min, int max, boolean required) {
    return UserText.lines(field, trimmed(body, field, min, max, required));
  }

  private static String trimmed(JsonObject body, String field, int min, int max, boolean required) {
    Object raw = body.getValue(field);
    if (raw == null) {
      if (required) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " is required");
      }
      return null;
    }
    if (!(raw instanceof String)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a string");
    }
    String s = ((String) raw).strip();
    int n = s.codePointCount(0, s.length());
    if (n < min || n > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be " + (min == 0 ? "at most " + max
          : min + " to " + max) + " characters");
    }
    return s;
  }

  /** Lower-case words (letters and digits) of a text, in order, without repeats. */
  static List<String> words(String text) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      out.add(m.group());
    }
    return new ArrayList<>(out);
  }

  static JsonArray keywords(String name, String topic) {
    LinkedHashSet<String> all = new LinkedHashSet<>();
    if (topic != null) {
      all.addAll(words(topic));
    }
    all.addAll(words(name));
    return new JsonArray(new ArrayList<>(all).subList(0, Math.min(all.size(), MAX_KEYWORDS)));
  }

  static int limit(JsonObject q, String field, int dflt, int max) {
    Object raw = q.getValue(field);
    if (raw == null) {
      return dflt;
    }
    if (!(raw instanceof Number) || ((Number) raw).longValue() < 1 || ((Number) raw).longValue() > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be between 1 and " + max);
    }
    return ((Number) raw).intValue();
  }

  static Long positive(JsonObject q, String field) {
    Object raw = q.getValue(field);
    if (raw == null) {
      return null;
    }
    if (!(raw instanceof Number) || ((Number) raw).longValue() <= 0) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be the next of a previous page");
    }
    return ((Number) raw).longValue();
  }

  /**
   * A {@code "<number>_<number>"} page cursor (an underscore: the HTTP contract validator would read a dot as a
   * decimal number; {@code "."} is still accepted), or null when absent.
   */
  static long[] cursor(JsonObject q, String field) {
    Object raw = q.getValue(field);
    if (raw == null) {
      return null;
    }
    String[] parts = String.valueOf(raw).split("[._]");
    try {
      if (parts.length != 2) {
        throw new NumberFormatException();
      }
      return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be the next of a previous page");
    }
  }
}
