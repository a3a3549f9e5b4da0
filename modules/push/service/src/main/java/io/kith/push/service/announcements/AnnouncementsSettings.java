package io.kith.push.service.announcements;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The {@code push.announcements} configuration section.
 *
 * @param batch  accounts told per batch of an announcement
 * @param pollMs how often a node looks for an announcement to go on with
 */
record AnnouncementsSettings(int batch, long pollMs) {

  static final String BATCH = "batch";
  static final String POLL_MS = "poll-ms";

  static AnnouncementsSettings from(JsonObject push) {
    Bounds b = Bounds.of("push.announcements", push.getJsonObject("announcements", new JsonObject()));
    return new AnnouncementsSettings(b.within(BATCH, 1, 1_000), b.within(POLL_MS, 10L, 60_000L));
  }
}
