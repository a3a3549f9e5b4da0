package io.kith.app.moderation;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A node running every domain with moderation, whose first admin comes from configuration as in production: the
 * admin registers on one node, then the node the tests use starts with their id in {@code moderation.admins} (both
 * nodes share the stores).
 */
record OperatorNode(TestKith kith, User admin) {

  static final String[] MODULES =
      {"accounts", "relations", "feeds", "messaging", "activities", "moderation", "gateway"};

  /** Starts the node with these other {@code moderation} settings; usernames start with {@code prefix}. */
  static OperatorNode start(String prefix, JsonObject moderation) {
    User admin;
    TestKith first = new TestKith(TestKith.config(MODULES), prefix) {
    };
    try {
      admin = first.register();
    } finally {
      first.close();
    }
    TestKith kith = new TestKith(TestKith.config(MODULES).put("moderation", moderation.copy()
        .put("admins", new JsonArray().add(admin.id()))), prefix) {
    };
    return new OperatorNode(kith, admin);
  }
}
