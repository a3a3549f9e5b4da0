package io.kith.notifications.service;

import io.kith.platform.events.Exports;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The notifications part of an account export ({@link Exports}, served at {@code kith.export.notifications}):
 * {@code preferences.json} (the user's preferences, on the first page, when they set any) and
 * {@code notifications.json} (every notification the user received, oldest first, each as the list shows it).
 * Cursor-paged from MongoDB by {@code _id}: the cursor is the last notification id sent.
 */
final class AccountExport implements Exports.Source {

  static final String NOTIFICATIONS = "notifications.json";
  static final String PREFERENCES = "preferences.json";

  private final NotificationRecords records;
  private final Views views;
  private final int pageSize;

  AccountExport(NotificationRecords records, Views views, int pageSize) {
    this.records = records;
    this.views = views;
    this.pageSize = Math.min(pageSize, Exports.MAX_RECORDS);
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    List<Exports.Record> page = new ArrayList<>();
    Future<Void> first = cursor != null ? Future.succeededFuture()
        : records.storedPreferences(user).map(prefs -> {
          if (prefs != null) {
            page.add(new Exports.Record(PREFERENCES, prefs));
          }
          return null;
        });
    long after = cursor == null ? 0L : Long.parseLong(cursor);
    return first.compose(v -> page.size() == pageSize
            ? Future.succeededFuture(new Exports.Page(page, Long.toString(after)))
            : notifications(user, after, page));
  }

  /** The page filled with the notifications received after {@code after}. */
  private Future<Exports.Page> notifications(long user, long after, List<Exports.Record> page) {
    return records.receivedAfter(user, after, pageSize - page.size())
        .compose(found -> views.of(user, found.stream().map(Views::stringRecord).toList()).map(items -> {
          items.forEach(item -> page.add(new Exports.Record(NOTIFICATIONS, item)));
          boolean full = page.size() == pageSize && !found.isEmpty();
          return new Exports.Page(page, full ? Long.toString(found.get(found.size() - 1).getLong("_id")) : null);
        }));
  }
}
