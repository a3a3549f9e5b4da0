package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.ContentFilters;
import io.kith.platform.text.UserText;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Validation of activity bodies (create) and changes (update) into the stored fields: {@code title, introduction,
 * start, end, place: {name, lat?, lon?}, capacity (null: none), waitlist, visibility, cover ({media} |
 * {url} | null)}. Every refusal is {@code validation_failed} naming the field and saying what would be accepted.
 */
final class ActivityDraft {

  /** The members of an activity body, in the order {@code changed} lists them. */
  static final List<String> FIELDS = List.of("title", "introduction", "start", "end", "place", "capacity", "waitlist",
      "visibility", "cover");
  /** Members that may be set to null by an update (cleared). */
  private static final Set<String> CLEARABLE = Set.of("introduction", "capacity", "cover");

  private ActivityDraft() {
  }

  static ServiceException invalid(String field, String detail) {
    return Failures.field(KithErrors.VALIDATION_FAILED, field, detail);
  }

  /** A new activity's fields (defaults applied), validated against {@code now}. */
  static JsonObject create(JsonObject body, long now, int maxCapacity) {
    if (body == null) {
      throw invalid("title", "an activity needs a title, a start, an end and a place");
    }
    unknownFields(body);
    JsonObject out = new JsonObject();
    out.put("title", title(body.getValue("title")));
    Object intro = body.getValue("introduction");
    out.put("introduction", intro == null ? "" : introduction(intro));
    if (!body.containsKey("start") || body.getValue("start") == null) {
      throw invalid("start", "start is required (epoch milliseconds)");
    }
    if (!body.containsKey("end") || body.getValue("end") == null) {
      throw invalid("end", "end is required (epoch milliseconds)");
    }
    long start = time(body.getValue("start"), "start");
    long end = time(body.getValue("end"), "end");
    checkTimes(start, end, now, true);
    out.put("start", start).put("end", end);
    if (body.getValue("place") == null) {
      throw invalid("place", "place is required: {name, lat?, lon?}");
    }
    out.put("place", place(body.getValue("place")));
    Object capacity = body.getValue("capacity");
    out.put("capacity", capacity == null ? null : capacity(capacity, maxCapacity));
    Object waitlist = body.getValue("waitlist");
    out.put("waitlist", waitlist == null ? Boolean.FALSE : bool(waitlist, "waitlist"));
    Object visibility = body.getValue("visibility");
    out.put("visibility", visibility == null ? Activities.PUBLIC : visibility(visibility));
    Object cover = body.getValue("cover");
    out.put("cover", cover == null ? null : cover(cover));
    return out;
  }

  /**
   * The validated members of {@code changes} (an update), values as stored; null values clear the clearable members.
   * The times are checked by {@link #checkTimes} once merged with the stored ones.
   */
  static JsonObject changes(JsonObject changes, int maxCapacity) {
    if (changes == null || changes.isEmpty()) {
      throw invalid("title", "nothing to change: give at least one of " + FIELDS);
    }
    unknownFields(changes);
    JsonObject out = new JsonObject();
    for (String field : changes.fieldNames()) {
      Object value = changes.getValue(field);
      if (value == null) {
        if (!CLEARABLE.contains(field)) {
          throw invalid(field, field + " cannot be cleared");
        }
        out.put(field, "introduction".equals(field) ? "" : null);
        continue;
      }
      switch (field) {
        case "title" -> out.put(field, title(value));
        case "introduction" -> out.put(field, introduction(value));
        case "start", "end" -> out.put(field, time(value, field));
        case "place" -> out.put(field, place(value));
        case "capacity" -> out.put(field, capacity(value, maxCapacity));
        case "waitlist" -> out.put(field, bool(value, field));
        case "visibility" -> out.put(field, visibility(value));
        case "cover" -> out.put(field, cover(value));
        default -> throw invalid(field, "unknown field " + field);
      }
    }
    return out;
  }

  private static void unknownFields(JsonObject body) {
    for (String field : body.fieldNames()) {
      if (!FIELDS.contains(field)) {
        throw invalid(field, "unknown field " + field + "; an activity has " + FIELDS);
      }
    }
  }

  /**
   * Start in the future (when {@code startChanged}) and at most 2 years ahead; end after start and at most 30 days
   * after it.
   */
  static void checkTimes(long start, long end, long now, boolean startChanged) {
    if (startChanged && start <= now) {
      throw invalid("start", "start must be in the future");
    }
    if (start > now + Activities.MAX_AHEAD_MS) {
      throw invalid("start", "start must be at most 2 years ahead");
    }
    if (end <= start) {
      throw invalid("end", "end must be after start");
    }
    if (end - start > Activities.MAX_DURATION_MS) {
      throw invalid("end", "an activity lasts at most 30 days");
    }
  }

  private static String title(Object value) {
    if (!(value instanceof String) || ((String) value).isBlank()) {
      throw invalid("title", "title is required: 1 to " + Activities.MAX_TITLE + " characters");
    }
    String s = ((String) value).strip();
    if (length(s) > Activities.MAX_TITLE) {
      throw invalid("title", "title must be at most " + Activities.MAX_TITLE + " characters");
    }
    return ContentFilters.check("activity", "title", UserText.line("title", s));
  }

  private static String introduction(Object value) {
    if (!(value instanceof String)) {
      throw invalid("introduction", "introduction must be text");
    }
    String s = (String) value;
    if (length(s) > Activities.MAX_INTRODUCTION) {
      throw invalid("introduction", "introduction must be at most " + Activities.MAX_INTRODUCTION + " characters");
    }
    return ContentFilters.check("activity", "introduction", UserText.lines("introduction", s));
  }

  private static long time(Object value, String field) {
    if (value instanceof Integer || value instanceof Long) {
      long t = ((Number) value).longValue();
      if (t > 0) {
        return t;
      }
    } else if (value instanceof Number n) {
      double d = n.doubleValue();
      if (d > 0 && d == Math.rint(d) && d < 9.0e15) {
        return (long) d;
      }
    }
    throw invalid(field, field + " must be a time in epoch milliseconds");
  }

  private static JsonObject place(Object value) {
    if (!(value instanceof JsonObject p)) {
      throw invalid("place", "place must be {name, lat?, lon?}");
    }
    for (String key : p.fieldNames()) {
      if (!Set.of("name", "lat", "lon").contains(key)) {
        throw invalid("place." + key, "unknown field place." + key + "; a place has name, lat, lon");
      }
    }
    Object name = p.getValue("name");
    if (!(name instanceof String) || ((String) name).isBlank()) {
      throw invalid("place.name", "place.name is required: 1 to " + Activities.MAX_PLACE_NAME + " characters");
    }
    String n = ((String) name).strip();
    if (length(n) > Activities.MAX_PLACE_NAME) {
      throw invalid("place.name", "place.name must be at most " + Activities.MAX_PLACE_NAME + " characters");
    }
    JsonObject out = new JsonObject().put("name", UserText.line("place.name", n));
    Object lat = p.getValue("lat");
    Object lon = p.getValue("lon");
    if ((lat == null) != (lon == null)) {
      throw invalid(lat == null ? "place.lat" : "place.lon", "give both lat and lon, or neither");
    }
    if (lat != null) {
      out.put("lat", coordinate(lat, "place.lat", 90));
      out.put("lon", coordinate(lon, "place.lon", 180));
    }
    return out;
  }

  /** A finite number within ±{@code bound}. */
  static double coordinate(Object value, String field, double bound) {
    if (!(value instanceof Number) || !Double.isFinite(((Number) value).doubleValue())
        || Math.abs(((Number) value).doubleValue()) > bound) {
      throw invalid(field, field + " must be a number between -" + (int) bound + " and " + (int) bound);
    }
    // GEOADD refuses latitudes beyond ±85.05112878 (Web Mercator): such places are kept but never found nearby
    return ((Number) value).doubleValue();
  }

  private static int capacity(Object value, int maxCapacity) {
    if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < 1
        || ((Number) value).longValue() > maxCapacity) {
      throw invalid("capacity", "capacity must be a whole number from 1 to " + maxCapacity);
    }
    return ((Number) value).intValue();
  }

  private static boolean bool(Object value, String field) {
    if (!(value instanceof Boolean)) {
      throw invalid(field, field + " must be true or false");
    }
    return (Boolean) value;
  }

  private static String visibility(Object value) {
    if (!(value instanceof String) || !Activities.VISIBILITIES.contains(value)) {
      throw invalid("visibility", "visibility must be one of " + Activities.VISIBILITIES);
    }
    return (String) value;
  }

  private static JsonObject cover(Object value) {
    if (!(value instanceof JsonObject c) || c.size() != 1 || !(c.containsKey("media") || c.containsKey("url"))) {
      throw invalid("cover", "cover must be {media: <media id>} or {url: \"https://...\"}");
    }
    if (c.containsKey("media")) {
      Object media = c.getValue("media");
      if (!(media instanceof Integer || media instanceof Long) || ((Number) media).longValue() <= 0) {
        throw invalid("cover.media", "cover.media must be the id of an image you uploaded");
      }
      return new JsonObject().put("media", ((Number) media).longValue());
    }
    Object url = c.getValue("url");
    if (!(url instanceof String) || ((String) url).length() > Activities.MAX_COVER_URL || !isHttps((String) url)) {
      throw invalid("cover.url", "cover.url must be an https URL of at most " + Activities.MAX_COVER_URL
          + " characters");
    }
    return new JsonObject().put("url", url);
  }

  private static boolean isHttps(String url) {
    try {
      URI uri = new URI(url);
      return uri.getScheme() != null && "https".equals(uri.getScheme().toLowerCase(Locale.ROOT))
          && uri.getHost() != null && !uri.getHost().isBlank() && uri.getUserInfo() == null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static int length(String s) {
    return s.codePointCount(0, s.length());
  }
}
