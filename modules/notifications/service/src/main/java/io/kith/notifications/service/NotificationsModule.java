package io.kith.notifications.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The notifications module ({@code kith.modules} name {@code notifications}). */
public final class NotificationsModule implements KithModule {

  @Override
  public String name() {
    return "notifications";
  }

  @Override
  public int order() {
    return 40;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new NotificationsVerticle(platform));
  }
}
