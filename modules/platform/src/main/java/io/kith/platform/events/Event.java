package io.kith.platform.events;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A domain event's typed payload: a record in its domain's api module (such as {@code UserFollowed}) that names its
 * type and writes the JSON it travels as on the event log. Each record also has a static {@code fromJson(JsonObject)}
 * that reads what {@link #toJson} writes, so consumers read fields, not keys, and the stream entries keep one shape.
 */
public interface Event {

  /** The past-tense type name this event is appended under, such as {@code UserFollowed}. */
  String eventType();

  /** The payload as appended to the stream (its keys and their order are the stored contract). */
  JsonObject toJson();

  /** Reads a JSON array of ids (any JSON numbers) as longs; a missing array is empty. */
  static List<Long> longs(JsonArray array) {
    List<Long> out = new ArrayList<>();
    if (array != null) {
      array.forEach(v -> out.add(((Number) v).longValue()));
    }
    return List.copyOf(out);
  }

  /** Reads a JSON array of strings; a missing array is empty. */
  static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    if (array != null) {
      array.forEach(v -> out.add((String) v));
    }
    return List.copyOf(out);
  }
}
