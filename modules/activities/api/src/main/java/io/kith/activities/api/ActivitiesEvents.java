package io.kith.activities.api;

/**
 * Events the activities domain appends to the stream {@code events:activities}, consumed by notifications. Every
 * payload carries {@code activity} (its id), {@code organiser} and {@code title}, so that a consumer can word a
 * notification without asking back. {@code participants} lists the ids of the participants at the time of the event
 * (the organiser excluded; bounded by the activities' participant limit).
 *
 * <p>Each type has a record of the same name in {@code io.kith.activities.api.events} whose {@code toJson()} writes the
 * payload and whose {@code fromJson} reads it: producers publish records, consumers read them.
 */
public final class ActivitiesEvents {

  /** The domain (stream) name. */
  public static final String DOMAIN = "activities";
  /** An activity was created: {@code {activity, organiser, title, start, end, visibility}}. */
  public static final String ACTIVITY_CREATED = "ActivityCreated";
  /**
   * The organiser edited an activity: {@code {activity, organiser, title, changed: [names of changed fields], start,
   * end, place: {name, lat?, lon?}, participants}}. Participants are told when {@code changed} holds
   * {@code start}, {@code end} or {@code place}.
   */
  public static final String ACTIVITY_UPDATED = "ActivityUpdated";
  /** The organiser cancelled an activity: {@code {activity, organiser, title, start, participants}}. */
  public static final String ACTIVITY_CANCELLED = "ActivityCancelled";
  /**
   * A user became a participant: {@code {activity, organiser, title, user, via: "join" | "invitation" |
   * "promoted"}} ({@code promoted}: from the waitlist when a place freed up). The organiser is told.
   */
  public static final String ACTIVITY_JOINED = "ActivityJoined";
  /**
   * A participant left or was removed: {@code {activity, organiser, title, user, removed_by? (the organiser, when
   * removed)}}. A removed user is told.
   */
  public static final String ACTIVITY_LEFT = "ActivityLeft";
  /** The organiser invited users to an activity: {@code {activity, organiser, title, start, invited: [ids]}}. */
  public static final String ACTIVITY_INVITED = "ActivityInvited";
  /**
   * An activity starts soon (the reminder, appended once per activity even with several nodes):
   * {@code {activity, organiser, title, start, place: {name, ...}, participants}}. The organiser and every
   * participant are told.
   */
  public static final String ACTIVITY_STARTING_SOON = "ActivityStartingSoon";

  private ActivitiesEvents() {
  }
}
