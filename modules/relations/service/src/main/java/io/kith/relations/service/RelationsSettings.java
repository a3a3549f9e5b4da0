package io.kith.relations.service;

import io.vertx.core.json.JsonObject;

/**
 * The {@code relations} configuration section.
 *
 * @param followsPerMinute follows and unfollows (counted together) a user may make per minute
 * @param blocksPerMinute  blocks and unblocks (counted together) a user may make per minute
 */
record RelationsSettings(int followsPerMinute, int blocksPerMinute) {

  /** Config key of {@link #followsPerMinute}. */
  static final String FOLLOWS_PER_MINUTE = "follows-per-minute";
  /** Config key of {@link #blocksPerMinute}. */
  static final String BLOCKS_PER_MINUTE = "blocks-per-minute";

  static RelationsSettings from(JsonObject section) {
    return new RelationsSettings(within(section, FOLLOWS_PER_MINUTE, 60), within(section, BLOCKS_PER_MINUTE, 30));
  }

  private static int within(JsonObject section, String key, int fallback) {
    int value = section.getInteger(key, fallback);
    if (value < 1 || value > 100_000) {
      throw new IllegalArgumentException("relations." + key + " must be between 1 and 100000: " + value);
    }
    return value;
  }
}
