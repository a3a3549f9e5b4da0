package io.kith.notifications.service;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The {@code notifications} configuration section.
 *
 * @param maxPerUser          most notifications kept per user; the oldest are evicted beyond it
 * @param markReadsPerMinute  mark-read calls (by ids, all, or by condition, counted together) a user may make per
 *                            minute
 */
record NotificationsSettings(int maxPerUser, int markReadsPerMinute) {

  /** Config key of {@link #maxPerUser}. */
  static final String MAX_PER_USER = "max-per-user";
  /** Config key of {@link #markReadsPerMinute}. */
  static final String MARK_READS_PER_MINUTE = "mark-reads-per-minute";

  static NotificationsSettings from(JsonObject section) {
    Bounds b = Bounds.of("notifications", section);
    return new NotificationsSettings(b.within(MAX_PER_USER, 1, 100_000), b.within(MARK_READS_PER_MINUTE, 1, 1_000_000));
  }
}
