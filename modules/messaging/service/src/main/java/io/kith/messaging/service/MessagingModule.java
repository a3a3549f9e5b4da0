package io.kith.messaging.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The messaging module ({@code kith.modules} name {@code messaging}). */
public final class MessagingModule implements KithModule {

  @Override
  public String name() {
    return "messaging";
  }

  @Override
  public int order() {
    return 50;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new MessagingVerticle(platform));
  }
}
