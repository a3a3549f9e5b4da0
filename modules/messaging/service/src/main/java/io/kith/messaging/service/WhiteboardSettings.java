package io.kith.messaging.service;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The whiteboard keys of the {@code messaging} configuration section.
 *
 * @param strokes          entries (strokes and the last clear) kept per board in Redis; older ones are dropped
 * @param strokesTtlSeconds how long a board's strokes stay in Redis after its last stroke or clear
 * @param strokesPerSecond strokes and clears one user may make per second, over all boards
 * @param members          most members of an ad-hoc board besides its owner
 * @param boardsPerUser    most boards one user may own (ad-hoc and group boards they created)
 * @param boardsPerGroup   most boards of one group (whoever created them)
 * @param bytes            most bytes of the entries kept per board in Redis (trimmed oldest first beyond it, as
 *                         beyond {@link #strokes})
 */
record WhiteboardSettings(int strokes, int strokesTtlSeconds, int strokesPerSecond, int members, int boardsPerUser,
                          int boardsPerGroup, int bytes) {

  /** Config key of {@link #strokes}. */
  static final String STROKES = "board-strokes";
  /** Config key of {@link #strokesTtlSeconds}. */
  static final String STROKES_TTL_SECONDS = "board-strokes-ttl-seconds";
  /** Config key of {@link #strokesPerSecond}. */
  static final String STROKES_PER_SECOND = "board-strokes-per-second";
  /** Config key of {@link #members}. */
  static final String MEMBERS = "board-members";
  /** Config key of {@link #boardsPerUser}. */
  static final String BOARDS_PER_USER = "boards-per-user";
  /** Config key of {@link #boardsPerGroup}. */
  static final String BOARDS_PER_GROUP = "board-per-group";
  /** Config key of {@link #bytes}. */
  static final String BYTES = "board-bytes";

  static WhiteboardSettings from(JsonObject section) {
    Bounds b = Bounds.of("messaging", section);
    return new WhiteboardSettings(
        b.within(STROKES, 1, 10_000),
        b.within(STROKES_TTL_SECONDS, 60, 365 * 86_400),
        b.within(STROKES_PER_SECOND, 1, 100_000),
        b.within(MEMBERS, 1, 500),
        b.within(BOARDS_PER_USER, 1, 10_000),
        b.within(BOARDS_PER_GROUP, 1, 1_000),
        b.within(BYTES, 16 * 1024, 64 << 20));
  }
}
