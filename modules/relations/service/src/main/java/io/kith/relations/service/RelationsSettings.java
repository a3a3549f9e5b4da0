package io.kith.relations.service;

import io.kith.platform.config.Bounds;
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
    Bounds b = Bounds.of("relations", section);
    return new RelationsSettings(b.within(FOLLOWS_PER_MINUTE, 1, 100_000), b.within(BLOCKS_PER_MINUTE, 1, 100_000));
  }
}
