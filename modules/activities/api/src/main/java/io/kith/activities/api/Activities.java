package io.kith.activities.api;

import java.util.List;

/** Limits and value names of the activities domain, shared by the service, the gateway and clients. */
public final class Activities {

  /** Longest title, in characters (code points). A title is required and not blank. */
  public static final int MAX_TITLE = 100;
  /** Longest introduction, in characters (code points). */
  public static final int MAX_INTRODUCTION = 5_000;
  /** Longest place name, in characters (code points). A place name is required. */
  public static final int MAX_PLACE_NAME = 200;
  /** Longest cover URL (https only), in characters. */
  public static final int MAX_COVER_URL = 512;
  /** Longest time between start and end: 30 days. */
  public static final long MAX_DURATION_MS = 30L * 24 * 3600 * 1000;
  /** Furthest ahead an activity may start: 2 years. */
  public static final long MAX_AHEAD_MS = 2L * 365 * 24 * 3600 * 1000;
  /** Largest capacity (participants, the organiser not counted); also the cap of an activity without capacity. */
  public static final int MAX_CAPACITY = 5_000;
  /** Largest search radius of {@link ActivitiesService#nearby}, in kilometres (exclusive lower bound 0). */
  public static final double MAX_RADIUS_KM = 100.0;
  /** Largest page of every list. */
  public static final int MAX_LIMIT = 100;
  /** Page size when none is given. */
  public static final int DEFAULT_LIMIT = 20;
  /** Most users invited in one call. */
  public static final int MAX_INVITES = 100;
  /** Most ids asked of {@link ActivitiesInternal#visibleActivities} at once. */
  public static final int MAX_VISIBLE_BATCH = 1_000;

  /** Visibility: everyone (anonymous readers included) may see and join. */
  public static final String PUBLIC = "public";
  /** Visibility: the organiser's friends (and anyone invited) may see and join. */
  public static final String FRIENDS = "friends";
  /** Visibility: only invited users (and participants) may see it; they join by their invitation. */
  public static final String INVITATION = "invitation";
  /** Every visibility. */
  public static final List<String> VISIBILITIES = List.of(PUBLIC, FRIENDS, INVITATION);

  /** Activity status: open for joining until it starts. */
  public static final String OPEN = "open";
  /** Activity status: cancelled by the organiser; stays readable. */
  public static final String CANCELLED = "cancelled";

  /** Participation: holds a place. */
  public static final String JOINED = "joined";
  /** Participation: waiting for a place, promoted in order when one frees up. */
  public static final String WAITLISTED = "waitlisted";
  /** Participation: invited, not (or no longer) joined. */
  public static final String INVITED = "invited";
  /** Participation: removed by the organiser. */
  public static final String REMOVED = "removed";
  /** Participation: none (never joined, or left). */
  public static final String NONE = "none";
  /** Participation of the organiser in their own activity. */
  public static final String ORGANISER = "organiser";

  /** List order of {@link ActivitiesService#nearby}: soonest start first. */
  public static final String BY_START = "start";
  /** List order of {@link ActivitiesService#nearby}: nearest first. */
  public static final String BY_DISTANCE = "distance";

  private Activities() {
  }
}
