package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.config.Bounds;
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
    Bounds b = Bounds.of("activities", section);
    return new ActivitiesSettings(
        b.within(REMINDER_BEFORE_SECONDS, 1, 7 * 86_400),
        b.within(SWEEP_INTERVAL_MS, 50, 600_000),
        b.within(WARM_DAYS, 1, 365),
        b.within(MAX_PARTICIPANTS, 1, Activities.MAX_CAPACITY),
        b.within(MAX_WAITLIST, 0, 100_000),
        b.within(CREATES_PER_HOUR, 1, 1_000_000),
        b.within(INVITEES_PER_HOUR, 1, 1_000_000),
        b.within(MAX_INVITEES, 1, 10_000),
        b.within(NEARBY_CANDIDATES, 10, 10_000),
        b.within(FRIENDS_SCAN, 1, 10_000),
        b.within(REPAIR_INTERVAL_SECONDS, 1, 86_400));
  }

  long warmMillis() {
    return warmDays * 86_400_000L;
  }
}
