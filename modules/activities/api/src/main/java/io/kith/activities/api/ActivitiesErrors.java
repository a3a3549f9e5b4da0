package io.kith.activities.api;

import io.kith.platform.error.ErrorCode;

/**
 * Failure codes of the activities domain (the common ones, such as {@code validation_failed} naming the field,
 * {@code rate_limited} and {@code unavailable}, are in {@code io.kith.platform.error.KithErrors}).
 */
public final class ActivitiesErrors {

  /**
   * The activity does not exist, or the actor may not see it (friends-only and not a friend, invitation-only and not
   * invited, a block either way with the organiser). Never told apart.
   */
  public static final ErrorCode ACTIVITY_NOT_FOUND = ErrorCode.of(404, "activity_not_found", "Activity not found");
  /** The actor may see the activity but only its organiser may do this (edit, cancel, invite, remove). */
  public static final ErrorCode NOT_ORGANISER = ErrorCode.of(403, "not_organiser", "Not the organiser");
  /** Every place is taken and the activity has no waitlist. */
  public static final ErrorCode ACTIVITY_FULL = ErrorCode.of(409, "activity_full", "Activity full");
  /** Every place is taken and the waitlist is full too ({@code activities.max-waitlist}). */
  public static final ErrorCode WAITLIST_FULL = ErrorCode.of(409, "waitlist_full", "Waitlist full");
  /** The activity was cancelled: it can be read but not joined or edited. */
  public static final ErrorCode ACTIVITY_CANCELLED = ErrorCode.of(409, "activity_cancelled", "Activity cancelled");
  /** The activity has started (or is over): it can no longer be joined, and an ended one no longer edited. */
  public static final ErrorCode ACTIVITY_STARTED = ErrorCode.of(409, "activity_started", "Activity already started");
  /** The organiser hosts the activity and does not join it as a participant. */
  public static final ErrorCode ORGANISER_CANNOT_JOIN =
      ErrorCode.of(409, "organiser_cannot_join", "The organiser cannot join");
  /** The organiser removed the actor from this activity; only a new invitation lets them back in. */
  public static final ErrorCode PARTICIPANT_REMOVED =
      ErrorCode.of(403, "participant_removed", "Removed from this activity");

  private ActivitiesErrors() {
  }
}
