package io.kith.notifications.service;

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
    int max = section.getInteger(MAX_PER_USER, 1_000);
    if (max < 1 || max > 100_000) {
      throw new IllegalArgumentException("notifications." + MAX_PER_USER + " must be between 1 and 100000: " + max);
    }
    int reads = section.getInteger(MARK_READS_PER_MINUTE, 600);
    if (reads < 1 || reads > 1_000_000) {
      throw new IllegalArgumentException("notifications." + MARK_READS_PER_MINUTE + " must be between 1 and 1000000: "
          + reads);
    }
    return new NotificationsSettings(max, reads);
  }
}
