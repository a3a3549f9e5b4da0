package io.kith.notifications.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The producers' changes to notifications already made, decided from the record rather than by the user: a system
 * delete ({@link #purge}: a like taken back, a post deleted, an invitation answered), a system mark
 * ({@link #markReadWhere}: a conversation read in messaging) and the removal of one user's notifications
 * ({@link #removeForUser}). Each pushes the new counts of the users whose counts changed.
 */
final class SystemChanges {

  private final NotificationRecords records;
  private final HotStore hot;
  private final Changes changes;
  private final Pushes pushes;

  SystemChanges(NotificationRecords records, HotStore hot, Changes changes, Pushes pushes) {
    this.records = records;
    this.hot = hot;
    this.changes = changes;
    this.pushes = pushes;
  }

  /** Deletes every notification the record holds matching {@code filter} (a system delete), batch by batch. */
  Future<Void> purge(JsonObject filter) {
    return records.find(filter).compose(found -> found.isEmpty() ? Future.succeededFuture()
        : purgeBatch(filter, found));
  }

  private Future<Void> purgeBatch(JsonObject filter, List<JsonObject> found) {
    List<Future<Void>> each = new ArrayList<>();
    idsByUser(found).forEach((user, ids) -> each.add(removeForUser(user, ids)));
    return Future.all(each).compose(v -> found.size() < NotificationRecords.PURGE_BATCH
        ? Future.succeededFuture() : purge(filter));
  }

  /**
   * Marks read every unread notification the record holds matching {@code filter} (a system mark, such as a
   * conversation read in messaging), batch by batch; pushes the new counts of each user whose counts changed. The
   * candidates come from the record; then, as for a user's own change, Redis decides which of them were unread
   * (marking them and fixing the counters atomically) and the record follows with exactly those ids. A candidate
   * stored in the record but not yet in Redis (its producer is between the two writes) therefore stays unread in
   * both stores rather than diverging.
   */
  Future<Void> markReadWhere(JsonObject filter) {
    return records.find(filter.copy().put("unread", true)).compose(found -> found.isEmpty()
        ? Future.succeededFuture() : markBatch(filter, found));
  }

  private Future<Void> markBatch(JsonObject filter, List<JsonObject> found) {
    List<Future<Integer>> each = new ArrayList<>();
    idsByUser(found).forEach((user, ids) -> each.add(changes.markedInRecord(user, hot.markIds(user, ids))
        .map(c -> c.ids().size())));
    // a full batch may have more behind it (the ones just marked no longer match); a batch in which Redis changed
    // nothing would only be found again, so it ends the rounds
    return Future.all(each).compose(all -> {
      int changed = all.<Integer>list().stream().mapToInt(Integer::intValue).sum();
      return found.size() < NotificationRecords.PURGE_BATCH || changed == 0 ? Future.succeededFuture()
          : markReadWhere(filter);
    });
  }

  /** The ids of records ({@code {_id, to}}) grouped by recipient. */
  static Map<Long, List<Long>> idsByUser(List<JsonObject> found) {
    Map<Long, List<Long>> byUser = new HashMap<>();
    found.forEach(r -> byUser.computeIfAbsent(r.getLong("to"), u -> new ArrayList<>()).add(r.getLong("_id")));
    return byUser;
  }

  /** The records matching {@code filter} (at most one batch), for re-checks such as visibility after an edit. */
  Future<List<JsonObject>> find(JsonObject filter) {
    return records.find(filter);
  }

  /** Removes these notifications of one user from the record and from its Redis side (if present). */
  Future<Void> removeForUser(long user, List<Long> ids) {
    return records.delete(user, ids).compose(v -> hot.removeIfPresent(user, ids)).map(c -> {
      pushes.counts(user, c);
      return null;
    });
  }
}
