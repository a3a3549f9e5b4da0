package io.kith.feeds.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/**
 * The feeds module ({@code kith.modules} name {@code feeds}). MINIMAL VERSION of the media branch: it deploys only
 * {@link MediaVerticle}; the feeds branch's version deploys the feeds service as well.
 */
public final class FeedsModule implements KithModule {

  @Override
  public String name() {
    return "feeds";
  }

  @Override
  public int order() {
    return 30;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new MediaVerticle(platform));
  }
}
