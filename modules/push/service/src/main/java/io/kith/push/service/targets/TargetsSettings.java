package io.kith.push.service.targets;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The push-target settings of the {@code push} configuration section.
 *
 * @param maxPerUser most targets one user holds; a registration beyond it is refused ({@code push_targets_limit})
 */
record TargetsSettings(int maxPerUser) {

  /** Config key of {@link #maxPerUser}. */
  static final String MAX_TARGETS_PER_USER = "max-targets-per-user";

  static TargetsSettings from(JsonObject section) {
    Bounds b = Bounds.of("push", section);
    return new TargetsSettings(b.within(MAX_TARGETS_PER_USER, 1, 1_000));
  }
}
