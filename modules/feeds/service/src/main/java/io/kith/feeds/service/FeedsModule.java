package io.kith.feeds.service;

import io.kith.feeds.service.media.MediaStore;
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
        .compose(id -> platform.vertx().deployVerticle(new MediaVerticle(platform, postMediaViews(platform))));
  }

  /** What keeps posts' copies of their media's views up to date, on this node's stores. */
  private static PostMediaViews postMediaViews(Platform platform) {
    PostStore posts = new PostStore(platform.mongo());
    long ttl = FeedsSettings.from(platform.config().section("feeds")).postCacheTtlSeconds();
    return new PostMediaViews(posts, new PostCache(platform.redis(), posts, ttl, platform.metrics()),
        new MediaStore(platform.mongo(), platform.ids()));
  }
}
