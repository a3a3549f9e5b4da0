package io.kith.messaging.service;

import io.kith.messaging.api.Whiteboards;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates a stroke strictly and answers the form that is stored and relayed: only the known members, the colour
 * in lower case, numbers rounded to 2 decimals (so that a stroke's size is bounded by its number of points, whatever
 * precision a client sends).
 */
final class WhiteboardStroke {

  private static final Set<String> FIELDS = Set.of("tool", "color", "width", "points", "client_id");
  private static final Set<String> TOOLS = Set.of("pen", "eraser");
  private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}");

  private WhiteboardStroke() {
  }

  static JsonObject normalize(JsonObject stroke) {
    if (stroke == null) {
      throw invalid("stroke", "a stroke is required");
    }
    for (String field : stroke.fieldNames()) {
      if (!FIELDS.contains(field)) {
        throw invalid(field, "unknown stroke member " + field + "; a stroke has tool, color, width, points, client_id");
      }
    }
    JsonObject out = new JsonObject();
    tool(stroke, out);
    double width = number(stroke.getValue("width"), "width");
    if (width < Whiteboards.MIN_WIDTH || width > Whiteboards.MAX_WIDTH) {
      throw invalid("width", "width must be between 1 and 50");
    }
    out.put("width", rounded(width));
    out.put("points", points(stroke.getValue("points")));
    Object clientId = stroke.getValue("client_id");
    if (clientId != null) {
      if (!(clientId instanceof String) || ((String) clientId).isEmpty()
          || ((String) clientId).length() > Whiteboards.MAX_CLIENT_ID) {
        throw invalid("client_id", "client_id must be a string of 1 to " + Whiteboards.MAX_CLIENT_ID + " characters");
      }
      out.put("client_id", clientId);
    }
    // bounds what one entry costs in Redis (and on every member's connection) whatever the points hold
    int bytes = out.toBuffer().length();
    if (bytes > Whiteboards.MAX_STROKE_BYTES) {
      throw invalid("points", "a stroke is at most " + Whiteboards.MAX_STROKE_BYTES + " bytes once stored (this one is "
          + bytes + "); split it into several strokes");
    }
    return out;
  }

  /** The tool, and the colour (required for a pen, in lower case). */
  private static void tool(JsonObject stroke, JsonObject out) {
    Object tool = stroke.getValue("tool");
    if (!(tool instanceof String) || !TOOLS.contains(tool)) {
      throw invalid("tool", "tool must be pen or eraser");
    }
    out.put("tool", tool);
    Object color = stroke.getValue("color");
    if (color != null || "pen".equals(tool)) {
      if (!(color instanceof String) || !COLOR.matcher((String) color).matches()) {
        throw invalid("color", "color must be #rrggbb (six hexadecimal digits)");
      }
      out.put("color", ((String) color).toLowerCase(java.util.Locale.ROOT));
    }
  }

  /** The points: 1 to {@code MAX_POINTS} [x, y] pairs of bounded numbers, rounded. */
  private static JsonArray points(Object points) {
    if (!(points instanceof JsonArray) || ((JsonArray) points).isEmpty()
        || ((JsonArray) points).size() > Whiteboards.MAX_POINTS) {
      throw invalid("points", "points must be a list of 1 to " + Whiteboards.MAX_POINTS + " [x, y] pairs");
    }
    JsonArray kept = new JsonArray();
    for (Object point : (JsonArray) points) {
      if (!(point instanceof JsonArray) || ((JsonArray) point).size() != 2) {
        throw invalid("points", "each point must be an [x, y] pair of numbers");
      }
      JsonArray pair = new JsonArray();
      for (Object c : (JsonArray) point) {
        double v = number(c, "points");
        if (Math.abs(v) > Whiteboards.MAX_COORDINATE) {
          throw invalid("points", "coordinates must be between -100000 and 100000");
        }
        pair.add(rounded(v));
      }
      kept.add(pair);
    }
    return kept;
  }

  /** A finite number (a JSON number; NaN, infinities, strings and booleans are refused). */
  private static double number(Object value, String field) {
    if (!(value instanceof Number)) {
      throw invalid(field, field + " must be made of numbers");
    }
    double v = ((Number) value).doubleValue();
    if (!Double.isFinite(v)) {
      throw invalid(field, field + " must be made of finite numbers");
    }
    return v;
  }

  /** Rounded to 2 decimals; whole numbers as integers (shorter JSON). */
  private static Number rounded(double v) {
    double r = Math.round(v * 100) / 100.0;
    return r == Math.rint(r) ? (Number) (long) r : (Number) r;
  }

  private static io.vertx.serviceproxy.ServiceException invalid(String field, String detail) {
    return Failures.field(KithErrors.VALIDATION_FAILED, field, detail);
  }
}
