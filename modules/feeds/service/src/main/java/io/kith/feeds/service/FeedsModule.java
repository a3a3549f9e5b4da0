package io.kith.feeds.service;

import io.kith.feeds.service.media.MediaVerticle;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The feeds module ({@code kith.modules} name {@code feeds}): the feeds service and the media transfers. */
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
    return platform.vertx().deployVerticle(new FeedsVerticle(platform))
        .compose(id -> platform.vertx().deployVerticle(new MediaVerticle(platform)));
  }
}
