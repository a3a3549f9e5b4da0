package io.kith.activities.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The activities module ({@code kith.modules} name {@code activities}). */
public final class ActivitiesModule implements KithModule {

  @Override
  public String name() {
    return "activities";
  }

  @Override
  public int order() {
    return 60;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new ActivitiesVerticle(platform));
  }
}
