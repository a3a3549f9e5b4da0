package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The one rule that decides whether a viewer may see an activity, used by every path (reading, lists, nearby,
 * joining, participants, other domains' batch question). A hidden activity answers {@code activity_not_found}.
 *
 * <p>An activity a moderator removed is seen by nobody. The organiser always sees their activity. Anyone else: never when a block stands between them and the organiser
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
    if (doc.containsKey("removed")) {
      // removed by a moderator: gone for everyone, its organiser included (moderators read the record elsewhere)
      return false;
    }
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

  /** Most users of one relations batch question. */
  private static final int TIES_BATCH = 1_000;

  /**
   * {@code users} without those in a block with the organiser (either way), in the same order: who an event about the
   * activity may name and tell (title, time, place). A block does not take a participant's place away (the organiser
   * may remove them); it only keeps them out of these events, as it keeps the activity itself hidden from them. Asks
   * relations in batches of 1,000 and fails when relations does.
   */
  static Future<List<Long>> withoutBlocks(RelationsInternal relations, long organiser, List<Long> users) {
    if (users.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Future<JsonObject>> parts = new ArrayList<>();
    for (int i = 0; i < users.size(); i += TIES_BATCH) {
      parts.add(relations.ties(organiser, users.subList(i, Math.min(users.size(), i + TIES_BATCH))));
    }
    return Future.all(parts).map(all -> {
      JsonObject ties = new JsonObject();
      parts.forEach(p -> ties.mergeIn(p.result()));
      return users.stream().filter(u -> !blocked(ties.getJsonObject(Long.toString(u)))).toList();
    });
  }

  /** Whether a block stands between the two, either way. */
  static boolean blocked(JsonObject tie) {
    return tie != null && (tie.getBoolean("blocking", false) || tie.getBoolean("blocked_by", false));
  }
}
