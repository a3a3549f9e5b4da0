package io.kith.app.feeds;

import io.kith.app.support.TestKith;
import io.vertx.core.json.JsonObject;

/**
 * One Kith node (accounts, relations, feeds and gateway, real wiring, in-process) for one test class, and an HTTP
 * client that talks to it as an app does. Tests make their own users and posts, so they neither see nor depend on
 * each other (except on the public "latest" timeline, which tests read by their own post ids).
 */
final class FeedsKith extends TestKith {

  private FeedsKith(JsonObject overrides) {
    super(overrides, "f");
  }

  /** Starts a node running accounts, relations, feeds and the gateway. */
  static FeedsKith start() {
    return new FeedsKith(config("accounts", "relations", "feeds", "gateway"));
  }
}
