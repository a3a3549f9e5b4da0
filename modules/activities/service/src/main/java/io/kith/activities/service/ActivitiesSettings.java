package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.vertx.core.json.JsonObject;

/**
 * The {@code activities} configuration section.
 *
 * @param reminderBeforeSeconds how long before its start an activity's participants are reminded
 * @param sweepIntervalMillis   how often every node sweeps due reminders and started activities out of the nearby set
 * @param warmDays              activities that started this many days ago or later are kept in Redis (and loaded at
 *                              start-up); older ones are read from MongoDB
 * @param maxParticipants       the most participants an activity can have (its capacity, or the cap when it has none)
 * @param maxWaitlist           the most users waiting for a place in one activity
 * @param createsPerHour        activities a user may create per hour
 * @param inviteesPerHour       users a user may invite per hour (every id of every call counts, whatever becomes of it)
 * @param maxInvitees           invitations one activity may hold (also bounds the organiser's invitee list)
 * @param nearbyCandidates      the nearest activities a nearby search considers
 * @param friendsScan           the most friends whose joined activities {@code friendsActivities} looks at
 * @param repairIntervalSeconds how often a node retries discussion groups that messaging could not make or update
 */
record ActivitiesSettings(int reminderBeforeSeconds, int sweepIntervalMillis, int warmDays, int maxParticipants,
                          int maxWaitlist, int createsPerHour, int inviteesPerHour, int maxInvitees, int nearbyCandidates,
                          int friendsScan, int repairIntervalSeconds) {

  /** Config key of {@link #reminderBeforeSeconds}. */
  static final String REMINDER_BEFORE_SECONDS = "reminder-before-seconds";
  /** Config key of {@link #sweepIntervalMillis}. */
  static final String SWEEP_INTERVAL_MS = "sweep-interval-ms";
  /** Config key of {@link #warmDays}. */
  static final String WARM_DAYS = "warm-days";
  /** Config key of {@link #maxParticipants}. */
  static final String MAX_PARTICIPANTS = "max-participants";
  /** Config key of {@link #maxWaitlist}. */
  static final String MAX_WAITLIST = "max-waitlist";
  /** Config key of {@link #createsPerHour}. */
  static final String CREATES_PER_HOUR = "creates-per-hour";
  /** Config key of {@link #inviteesPerHour}. */
  static final String INVITEES_PER_HOUR = "invitees-per-hour";
  /** Config key of {@link #maxInvitees}. */
  static final String MAX_INVITEES = "max-invitees";
  /** Config key of {@link #nearbyCandidates}. */
  static final String NEARBY_CANDIDATES = "nearby-candidates";
  /** Config key of {@link #friendsScan}. */
  static final String FRIENDS_SCAN = "friends-scan";
  /** Config key of {@link #repairIntervalSeconds}. */
  static final String REPAIR_INTERVAL_SECONDS = "repair-interval-seconds";

  static ActivitiesSettings from(JsonObject section) {
    return new ActivitiesSettings(
        bounded(section, REMINDER_BEFORE_SECONDS, 3_600, 1, 7 * 86_400),
        bounded(section, SWEEP_INTERVAL_MS, 5_000, 50, 600_000),
        bounded(section, WARM_DAYS, 30, 1, 365),
        bounded(section, MAX_PARTICIPANTS, Activities.MAX_CAPACITY, 1, Activities.MAX_CAPACITY),
        bounded(section, MAX_WAITLIST, 1_000, 0, 100_000),
        bounded(section, CREATES_PER_HOUR, 20, 1, 1_000_000),
        bounded(section, INVITEES_PER_HOUR, 300, 1, 1_000_000),
        bounded(section, MAX_INVITEES, 1_000, 1, 10_000),
        bounded(section, NEARBY_CANDIDATES, 1_000, 10, 10_000),
        bounded(section, FRIENDS_SCAN, 1_000, 1, 10_000),
        bounded(section, REPAIR_INTERVAL_SECONDS, 60, 1, 86_400));
  }

  long warmMillis() {
    return warmDays * 86_400_000L;
  }

  private static int bounded(JsonObject section, String key, int dflt, int min, int max) {
    int value = section.getInteger(key, dflt);
    if (value < min || value > max) {
      throw new IllegalArgumentException("activities." + key + " must be between " + min + " and " + max + ": "
          + value);
    }
    return value;
  }
}
