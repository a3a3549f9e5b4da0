package io.kith.feeds.service;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsService;
import io.kith.platform.Platform;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceBinder;

/**
 * Wires the feeds stores, service and fan-out worker, and binds the service on {@link FeedsService#ADDRESS}.
 */
public final class FeedsVerticle extends VerticleBase {

  private final Platform platform;
  private MessageConsumer<JsonObject> binding;
  private FanOut fanOut;
  private long celebrityTimer = -1;

  /** Creates the verticle on a node's platform. */
  public FeedsVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    FeedsSettings settings = FeedsSettings.from(platform.config().section("feeds"));
    PostStore posts = new PostStore(platform.mongo());
    MediaStore media = new MediaStore(platform.mongo(), platform.ids());
    Timelines timelines = new Timelines(platform.redis(), settings);
    RelationsService relations = RelationsService.proxy(vertx);
    FeedsServiceImpl service = new FeedsServiceImpl(platform, settings, posts, timelines, media, relations,
        AccountsService.proxy(vertx));
    fanOut = new FanOut(platform, settings, posts, timelines, relations, service);
    // timeline reads then find the celebrity set on the node instead of asking Redis first
    celebrityTimer = vertx.setPeriodic(Timelines.CELEBRITY_REFRESH_MILLIS,
        id -> timelines.refreshCelebrities().onFailure(e -> { /* the next read asks Redis itself */ }));
    return posts.ensureIndexes()
        .compose(v -> media.ensureIndexes())
        .compose(v -> fanOut.start())
        .compose(v -> {
          binding = new ServiceBinder(vertx).setAddress(FeedsService.ADDRESS).register(FeedsService.class, service);
          return binding.completion();
        });
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(celebrityTimer);
    Future<Void> worker = fanOut == null ? Future.succeededFuture() : fanOut.stop();
    return worker.compose(v -> binding == null ? Future.succeededFuture() : binding.unregister());
  }
}
