package io.kith.platform.events;

import io.vertx.core.json.JsonObject;

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
}
