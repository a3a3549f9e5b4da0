package io.kith.notifications.service;

import io.kith.platform.Platform;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The user's own changes: mark read (by ids, all, or a condition; rate limited) and delete (by ids or a condition).
 * Redis decides which notifications a change touches (a script marks or removes them and fixes the counters
 * atomically); the record follows with exactly those ids, and the new counts are pushed. {@link #markedInRecord} and
 * {@link #deletedInRecord} are that follow-through, also used for the system marks and for notifications about posts
 * the reader can no longer see.
 */
final class Changes {

  private final NotificationsSettings settings;
  private final NotificationRecords records;
  private final HotStore hot;
  private final Pushes pushes;
  private final RateLimiter limiter;

  Changes(Platform platform, NotificationsSettings settings, NotificationRecords records, HotStore hot,
          Pushes pushes) {
    this.settings = settings;
    this.records = records;
    this.hot = hot;
    this.pushes = pushes;
    this.limiter = new RateLimiter(platform.redis());
  }

  Future<JsonObject> markRead(long actor, List<Long> ids) {
    List<Long> valid = Query.ids(ids);
    return throttleMarks(actor).compose(v -> marked(actor, hot.markIds(actor, valid)));
  }

  Future<JsonObject> markAllRead(long actor) {
    return throttleMarks(actor).compose(v -> marked(actor, hot.markAll(actor)));
  }

  Future<JsonObject> markReadWhere(long actor, JsonObject condition) {
    JsonObject valid = Query.condition(condition, settings.types());
    return throttleMarks(actor).compose(v -> marked(actor, hot.markWhere(actor, valid)));
  }

  /** The key of {@code user}'s mark-read window (also dropped by the account erasure). */
  static String markReadKey(long user) {
    return "rl:notifications:mark-read:" + user;
  }

  /** Counts a mark-read call of {@code actor}: {@code rate_limited} past {@code mark-reads-per-minute}. */
  private Future<Void> throttleMarks(long actor) {
    return limiter.enforce(markReadKey(actor), 60_000L, settings.markReadsPerMinute(),
        "too many mark-read calls (at most " + settings.markReadsPerMinute() + " a minute); retry later");
  }

  Future<JsonObject> delete(long actor, List<Long> ids) {
    return deleted(actor, hot.deleteIds(actor, Query.ids(ids)));
  }

  Future<JsonObject> deleteWhere(long actor, JsonObject condition) {
    return deleted(actor, hot.deleteWhere(actor, Query.condition(condition, settings.types())));
  }

  private Future<JsonObject> marked(long actor, Future<HotStore.Change> change) {
    return markedInRecord(actor, change)
        .map(c -> new JsonObject().put("changed", c.ids().size()).put("counts", c.counts()));
  }

  private Future<JsonObject> deleted(long actor, Future<HotStore.Change> change) {
    return deletedInRecord(actor, change)
        .map(c -> new JsonObject().put("deleted", c.ids().size()).put("counts", c.counts()));
  }

  /** After Redis marked read: the record marks exactly those ids, then the new counts are pushed. */
  Future<HotStore.Change> markedInRecord(long user, Future<HotStore.Change> change) {
    return change.compose(c -> records.markRead(user, c.ids()).map(v -> pushed(user, c)));
  }

  /** After Redis deleted: the record deletes exactly those ids, then the new counts are pushed. */
  Future<HotStore.Change> deletedInRecord(long user, Future<HotStore.Change> change) {
    return change.compose(c -> records.delete(user, c.ids()).map(v -> pushed(user, c)));
  }

  private HotStore.Change pushed(long user, HotStore.Change change) {
    pushes.counts(user, change);
    return change;
  }

  /** Every notification type of this node: the built-in ones, then the configured custom ones. */
  List<String> types() {
    return settings.types();
  }
}
