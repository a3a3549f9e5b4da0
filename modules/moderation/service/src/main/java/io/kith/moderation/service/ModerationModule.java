package io.kith.moderation.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The moderation module ({@code kith.modules} name {@code moderation}): roles, reports, the queue, the audit log. */
public final class ModerationModule implements KithModule {

  @Override
  public String name() {
    return "moderation";
  }

  @Override
  public int order() {
    return 45;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new ModerationVerticle(platform));
  }
}
