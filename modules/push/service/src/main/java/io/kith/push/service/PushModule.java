package io.kith.push.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The push module ({@code kith.modules} name {@code push}): push targets and delivery, webhooks, API keys. */
public final class PushModule implements KithModule {

  @Override
  public String name() {
    return "push";
  }

  @Override
  public int order() {
    return 50;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new PushVerticle(platform));
  }
}
