package io.kith.activities.api.events;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * An event of the activities stream. Every one carries the activity, its organiser and its title, so that a consumer
 * can word a notification without asking back. Consumers read one with {@link #fromJson}, which gives the record of
 * the entry's type.
 */
public sealed interface ActivitiesEvent extends Event
    permits ActivityCreated, ActivityUpdated, ActivityCancelled, ActivityJoined, ActivityLeft, ActivityInvited,
    ActivityStartingSoon {

  /** The activity's id. */
  long activity();

  /** Its organiser. */
  long organiser();

  /** Its title. */
  String title();

  /** The members every payload starts with, in this order: {@code {activity, organiser, title}}. */
  default JsonObject base() {
    return new JsonObject().put("activity", activity()).put("organiser", organiser()).put("title", title());
  }

  /**
   * Reads a stream entry of {@code type} (a constant of {@link ActivitiesEvents}); null for a type this version does
   * not know (a newer node's), which consumers skip.
   */
  static ActivitiesEvent fromJson(String type, JsonObject json) {
    return switch (type) {
      case ActivitiesEvents.ACTIVITY_CREATED -> ActivityCreated.fromJson(json);
      case ActivitiesEvents.ACTIVITY_UPDATED -> ActivityUpdated.fromJson(json);
      case ActivitiesEvents.ACTIVITY_CANCELLED -> ActivityCancelled.fromJson(json);
      case ActivitiesEvents.ACTIVITY_JOINED -> ActivityJoined.fromJson(json);
      case ActivitiesEvents.ACTIVITY_LEFT -> ActivityLeft.fromJson(json);
      case ActivitiesEvents.ACTIVITY_INVITED -> ActivityInvited.fromJson(json);
      case ActivitiesEvents.ACTIVITY_STARTING_SOON -> ActivityStartingSoon.fromJson(json);
      default -> null;
    };
  }
}
