package io.kith.app.notifications;

import io.kith.app.support.TestKith;
import io.vertx.core.json.JsonObject;

/**
 * One Kith node (accounts, relations, feeds, notifications and gateway, real wiring, in-process) for one test class,
 * and an HTTP client that talks to it as an app does. Tests make their own users, so they neither see nor depend on
 * each other.
 */
final class NotificationsKith extends TestKith {

  private NotificationsKith(JsonObject overrides) {
    super(overrides, "f");
  }

  /** Starts a node running accounts, relations, feeds, notifications and the gateway, and {@code more} modules. */
  static NotificationsKith start(String... more) {
    return start(new JsonObject(), more);
  }

  /** As {@link #start(String...)}, with these {@code notifications} settings. */
  static NotificationsKith start(JsonObject notifications, String... more) {
    JsonObject overrides = config("accounts", "relations", "feeds", "notifications", "gateway")
        .put("notifications", notifications.copy());
    for (String module : more) {
      overrides.getJsonObject("kith").getJsonArray("modules").add(module);
    }
    return new NotificationsKith(overrides);
  }
}
