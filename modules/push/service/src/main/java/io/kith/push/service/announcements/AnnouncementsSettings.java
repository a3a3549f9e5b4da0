package io.kith.push.service.announcements;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The {@code push.announcements} configuration section.
 *
 * @param batch     accounts told per batch of an announcement
 * @param pollMs    how often a node looks for an announcement to start or take over
 * @param perSecond most accounts one announcement tells per second (its batches follow each other at once below it)
 */
record AnnouncementsSettings(int batch, long pollMs, int perSecond) {

  static final String BATCH = "batch";
  static final String POLL_MS = "poll-ms";
  static final String PER_SECOND = "accounts-per-second";

  static AnnouncementsSettings from(JsonObject push) {
    Bounds b = Bounds.of("push.announcements", push.getJsonObject("announcements", new JsonObject()));
    return new AnnouncementsSettings(b.within(BATCH, 1, 1_000), b.within(POLL_MS, 10L, 60_000L),
        b.within(PER_SECOND, 1, 1_000_000));
  }

  /** The shortest time a batch of {@code told} accounts may take at {@link #perSecond}, in milliseconds. */
  long minMillis(int told) {
    return told * 1000L / perSecond;
  }
}
