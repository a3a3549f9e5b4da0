package io.kith.activities.service;

import io.kith.accounts.api.UserSummaries;
import io.kith.accounts.api.AccountsService;
import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.activities.api.events.ActivityLeft;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Who takes part: the participant lists (joined for whoever sees the activity; waitlisted and invited for the
 * organiser) and the organiser removing a participant.
 */
final class Participants {

  private final HotActivities hot;
  private final Seats seats;
  private final Effects effects;
  private final ActivityViews views;
  private final RelationsInternal relations;
  private final AccountsService accounts;

  Participants(HotActivities hot, Seats seats, Effects effects, ActivityViews views, RelationsInternal relations,
               AccountsService accounts) {
    this.hot = hot;
    this.seats = seats;
    this.effects = effects;
    this.views = views;
    this.relations = relations;
    this.accounts = accounts;
  }

  /** A participants query: which list, the page size and the place order (or user id) after which it starts. */
  private record Query(String status, int limit, Long after) {
  }

  /** One page of rows ({@code [user, seq]}, {@code [user, user]} for invitations) and whether more follow. */
  private record Rows(List<long[]> shown, boolean more) {
  }

  /** See {@link io.kith.activities.api.ActivitiesService#removeParticipant}. */
  Future<Void> removeParticipant(long actor, long activityId, long userId) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      if (userId <= 0 || userId == actor) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "user", "user must be a participant's id");
      }
      return views.organisersOwn(actor, activityId).compose(doc -> seats.leave(doc, userId, true).compose(out ->
          out.changed() ? effects.emit(new ActivityLeft(doc.getLong("_id"), doc.getLong("organiser"),
              doc.getString("title"), userId, actor))
              : Future.succeededFuture()));
    });
  }

  /** See {@link io.kith.activities.api.ActivitiesService#participants}. */
  Future<JsonObject> participants(long viewer, long activityId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = Input.limit(q);
      Object s = q.getValue("status");
      String status = s == null ? Activities.JOINED : String.valueOf(s);
      if (!List.of(Activities.JOINED, Activities.WAITLISTED, Activities.INVITED).contains(status)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "status",
            "status must be joined, waitlisted or invited");
      }
      Query pq = new Query(status, limit, Input.longCursor(q));
      return views.visibleOne(viewer, activityId).compose(h -> listOf(viewer, h.doc(), pq));
    });
  }

  private Future<JsonObject> listOf(long viewer, JsonObject doc, Query q) {
    long organiser = doc.getLong("organiser");
    boolean isOrganiser = viewer != 0 && viewer == organiser;
    if (!Activities.JOINED.equals(q.status()) && !isOrganiser) {
      return Failures.fail(ActivitiesErrors.NOT_ORGANISER, "only the organiser sees who waits or is invited");
    }
    long activityId = doc.getLong("_id");
    return rows(activityId, q).compose(rows -> page(viewer, activityId, q, isOrganiser, rows));
  }

  /** The rows of the page and one more (to tell whether more follow). */
  private Future<Rows> rows(long activityId, Query q) {
    Long after = q.after();
    Future<List<long[]>> page = Activities.INVITED.equals(q.status())
        ? hot.invited(activityId).map(users -> users.stream().filter(u -> after == null || u > after)
            .limit(q.limit() + 1L).map(u -> new long[] {u, u}).toList())
        : hot.joinedPage(activityId, q.status(), after, q.limit() + 1);
    return page.map(rows -> {
      boolean more = rows.size() > q.limit();
      return new Rows(more ? rows.subList(0, q.limit()) : rows, more);
    });
  }

  /** The users' ties to the viewer, summaries and current statuses, then the answer. */
  private Future<JsonObject> page(long viewer, long activityId, Query q, boolean isOrganiser, Rows rows) {
    List<Long> users = rows.shown().stream().map(r -> r[0]).toList();
    Future<JsonObject> ties = viewer == 0 || users.isEmpty() ? Future.succeededFuture(new JsonObject())
        : relations.ties(viewer, users);
    Future<JsonObject> summaries = UserSummaries.lookup(accounts, viewer, users);
    // invitees who joined or wait since are listed with that status
    Future<List<String>> statuses = Activities.INVITED.equals(q.status()) ? hot.statuses(activityId, users)
        : Future.succeededFuture(users.stream().map(x -> q.status()).toList());
    return Future.all(ties, summaries, statuses).map(v -> answer(rows, q.status(), isOrganiser, ties.result(),
        summaries.result(), statuses.result()));
  }

  /** The page: users in a block with the viewer are left out, except for the organiser. */
  private static JsonObject answer(Rows rows, String status, boolean isOrganiser, JsonObject ties,
                                   JsonObject summaries, List<String> statuses) {
    List<long[]> shown = rows.shown();
    JsonArray items = new JsonArray();
    for (int i = 0; i < shown.size(); i++) {
      long[] row = shown.get(i);
      String key = Long.toString(row[0]);
      JsonObject tie = ties.getJsonObject(key, new JsonObject());
      if (!isOrganiser && Access.blocked(tie)) {
        continue;
      }
      JsonObject item = new JsonObject()
          .put("user", UserSummaries.of(summaries, row[0]))
          .put("status", statuses.get(i))
          .put("friend", tie.getBoolean("friend", false));
      if (!Activities.INVITED.equals(status)) {
        item.put("since", IdGenerator.timeOf(row[1]));
      }
      items.add(item);
    }
    String next = rows.more() ? Long.toString(shown.get(shown.size() - 1)[1]) : null;
    return new JsonObject().put("items", items).put("next", next);
  }
}
