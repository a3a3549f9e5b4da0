package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.kith.platform.events.Exports;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The activities part of an account export ({@link Exports}, served at {@code kith.export.activities}):
 * {@code activities.json}, the activities the user organised, each as their activity view; then {@code joined.json},
 * the activities they hold a place in or wait for, each {@code {activity, status, since, view?}} (the view only while
 * the user may still see the activity). Cursor-paged from MongoDB by {@code _id}: {@code o<id>} within the organised
 * activities, {@code j<participation id>} within the participations.
 */
final class AccountExport implements Exports.Source {

  static final String ORGANISED = "activities.json";
  static final String JOINED = "joined.json";

  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final ActivityViews views;
  private final int pageSize;

  AccountExport(ActivityStore activities, ParticipantStore participants, ActivityViews views, int pageSize) {
    this.activities = activities;
    this.participants = participants;
    this.views = views;
    this.pageSize = Math.min(pageSize, Exports.MAX_RECORDS);
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    if (cursor != null && cursor.startsWith("j")) {
      return joined(user, cursor.substring(1), pageSize, new ArrayList<>());
    }
    long after = cursor == null ? 0L : Long.parseLong(cursor.substring(1));
    return activities.organisedPage(user, after, false, pageSize).compose(docs -> views.viewsOf(user, docs, null)
        .compose(items -> {
          List<Exports.Record> records = new ArrayList<>();
          items.forEach(item -> records.add(new Exports.Record(ORGANISED, item)));
          if (docs.size() == pageSize) {
            return Future.succeededFuture(new Exports.Page(records, "o" + docs.get(docs.size() - 1).getLong("_id")));
          }
          // the organised activities end on this page: the rest of it starts the participations
          return joined(user, null, pageSize - docs.size(), records);
        }));
  }

  /** Up to {@code room} participations after {@code afterId} appended to {@code records}. */
  private Future<Exports.Page> joined(long user, String afterId, int room, List<Exports.Record> records) {
    if (room == 0) {
      return Future.succeededFuture(new Exports.Page(records, "j"));
    }
    String from = afterId == null || afterId.isEmpty() ? null : afterId;
    return participants.ofUser(user, List.of(Activities.JOINED, Activities.WAITLISTED), from, room)
        .compose(parts -> seen(user, parts).map(shown -> {
          for (JsonObject p : parts) {
            JsonObject item = new JsonObject().put("activity", p.getLong("activity"))
                .put("status", p.getString("status")).put("since", p.getLong("since"));
            JsonObject view = shown.get(p.getLong("activity"));
            if (view != null) {
              item.put("view", view);
            }
            records.add(new Exports.Record(JOINED, item));
          }
          return new Exports.Page(records, parts.size() < room ? null
              : "j" + parts.get(parts.size() - 1).getString("_id"));
        }));
  }

  /** The views of these participations' activities the user may still see, by activity id. */
  private Future<Map<Long, JsonObject>> seen(long user, List<JsonObject> parts) {
    List<Long> ids = parts.stream().map(p -> p.getLong("activity")).toList();
    return views.visibleMany(user, ids).compose(hots -> views.viewsOf(user,
        hots.stream().map(HotActivities.Hot::doc).toList(), hots)).map(list -> {
          Map<Long, JsonObject> out = new HashMap<>();
          list.forEach(v -> out.put(v.getLong("id"), v));
          return out;
        });
  }
}
