package io.kith.app.moderation;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A Kith with a configured first admin, for the moderation tests: the admin registers on one node, then the node the
 * tests use starts with their id in {@code moderation.admins} (both nodes share the stores).
 *
 * @param kith  the node the tests use
 * @param admin the configured admin
 */
record OperatorKith(TestKith kith, User admin) {

  /** The modules the moderation tests run: every domain a report may name, moderation and the gateway. */
  static final String[] MODULES =
      {"accounts", "relations", "feeds", "messaging", "activities", "moderation", "gateway"};
  /** {@link #MODULES} and notifications, for the tests of what the users are told. */
  static final String[] WITH_NOTIFICATIONS =
      {"accounts", "relations", "feeds", "messaging", "activities", "notifications", "moderation", "gateway"};

  /** Starts {@code modules} with {@code moderation} (more settings of the section) and the admin added to it. */
  static OperatorKith start(String[] modules, JsonObject moderation) {
    return start(modules, moderation, new JsonObject());
  }

  /** {@link #start(String[], JsonObject)} with more configuration sections ({@code sections}: name to section). */
  static OperatorKith start(String[] modules, JsonObject moderation, JsonObject sections) {
    TestKith first = new TestKith(TestKith.config(modules).mergeIn(sections.copy()), "m") {
    };
    User admin;
    try {
      admin = first.register();
    } finally {
      first.close();
    }
    TestKith kith = new TestKith(TestKith.config(modules).mergeIn(sections.copy()).put("moderation", moderation.copy()
        .put("admins", new JsonArray().add(admin.id()))), "m") {
    };
    return new OperatorKith(kith, admin);
  }

  /** Stops the node the tests used. */
  void close() {
    kith.close();
  }

  /** A fresh user made moderator by the admin. */
  User moderator() {
    User mod = kith.register();
    kith.put("/admin/users/" + mod.path() + "/role", admin, new JsonObject().put("role", "moderator")).expect(200);
    return mod;
  }
}
