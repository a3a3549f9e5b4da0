package io.kith.notifications.service;

import io.vertx.core.json.JsonObject;

/**
 * The {@code notifications} configuration section.
 *
 * @param maxPerUser most notifications kept per user; the oldest are evicted beyond it
 */
record NotificationsSettings(int maxPerUser) {

  /** Config key of {@link #maxPerUser}. */
  static final String MAX_PER_USER = "max-per-user";

  static NotificationsSettings from(JsonObject section) {
    int max = section.getInteger(MAX_PER_USER, 1_000);
    if (max < 1 || max > 100_000) {
      throw new IllegalArgumentException("notifications." + MAX_PER_USER + " must be between 1 and 100000: " + max);
    }
    return new NotificationsSettings(max);
  }
}
