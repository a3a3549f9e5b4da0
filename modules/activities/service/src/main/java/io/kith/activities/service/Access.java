package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.vertx.core.json.JsonObject;

/**
 * The one rule that decides whether a viewer may see an activity, used by every path (reading, lists, nearby,
 * joining, participants, other domains' batch question). A hidden activity answers {@code activity_not_found}.
 *
 * <p>The organiser always sees their activity. Anyone else: never when a block stands between them and the organiser
 * (either way); else by visibility: {@code public} everyone (anonymous readers included), {@code friends} the
 * organiser's friends and users involved (joined, waiting or invited), {@code invitation} users involved only.
 */
final class Access {

  private Access() {
  }

  /**
   * @param viewer the viewer (0: anonymous)
   * @param doc    the activity record
   * @param part   the viewer's part in it (from Redis or MongoDB)
   * @param tie    the relations flags of the organiser as seen by the viewer ({@code friend, blocking, blocked_by});
   *               empty for anonymous viewers and the organiser
   */
  static boolean canSee(long viewer, JsonObject doc, HotActivities.Hot part, JsonObject tie) {
    long organiser = doc.getLong("organiser");
    if (viewer != 0 && viewer == organiser) {
      return true;
    }
    String visibility = doc.getString("visibility", Activities.PUBLIC);
    if (viewer == 0) {
      return Activities.PUBLIC.equals(visibility);
    }
    if (blocked(tie)) {
      return false;
    }
    boolean involved = part != null && part.involved();
    return switch (visibility) {
      case Activities.PUBLIC -> true;
      case Activities.FRIENDS -> involved || tie.getBoolean("friend", false);
      case Activities.INVITATION -> involved;
      default -> false;
    };
  }

  /** Whether a block stands between the two, either way. */
  static boolean blocked(JsonObject tie) {
    return tie != null && (tie.getBoolean("blocking", false) || tie.getBoolean("blocked_by", false));
  }
}
