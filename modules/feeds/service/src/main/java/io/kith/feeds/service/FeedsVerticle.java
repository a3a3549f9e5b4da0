package io.kith.feeds.service;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.service.media.MediaStore;
import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.Exports;
import io.kith.relations.api.RelationsInternal;
import io.kith.platform.store.Stores;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the feeds stores, service and fan-out worker, binds the service on {@link FeedsService#ADDRESS} and its
 * internal operations on {@link FeedsInternal#ADDRESS}, erases deleted accounts' data ({@link Erasure}), serves feeds'
 * part of account exports ({@link Export}), and runs the counter recount's rounds ({@link CounterRecount})
 * every {@code feeds.recount-every-seconds}.
 */
public final class FeedsVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(FeedsVerticle.class);

  private final Platform platform;
  private ServiceBindings bindings;
  private FanOut fanOut;
  private EventConsumer erasure;
  private MessageConsumer<JsonObject> export;
  private long celebrityTimer = -1;
  private long recountTimer = -1;
  private boolean recounting;

  /** Creates the verticle on a node's platform. */
  public FeedsVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    JsonObject section = platform.config().section("feeds");
    if (Stores.clusterMode(platform.config().section("redis"))) {
      // a Redis Cluster refuses a fan-out script whose timelines span hash slots, whatever the flag says
      section = section.copy().put("fanout-same-slot", true);
    }
    FeedsSettings settings = FeedsSettings.from(section);
    PostStore posts = new PostStore(platform.mongo());
    MediaStore media = new MediaStore(platform.mongo(), platform.ids());
    Timelines timelines = new Timelines(platform.redis(), settings);
    RelationsService relations = RelationsService.proxy(vertx);
    RelationsInternal relationsInternal = RelationsInternal.proxy(vertx);
    FeedsServiceImpl service = new FeedsServiceImpl(platform, settings, posts, timelines, media, relations,
        relationsInternal, AccountsService.proxy(vertx));
    fanOut = new FanOut(platform, settings, posts, timelines, relations, relationsInternal, service);
    // timeline reads then find the celebrity set on the node instead of asking Redis first
    celebrityTimer = vertx.setPeriodic(Timelines.CELEBRITY_REFRESH_MILLIS,
        id -> timelines.refreshCelebrities().onFailure(e -> { /* the next read asks Redis itself */ }));
    return posts.ensureIndexes()
        .compose(v -> media.ensureIndexes())
        .compose(v -> fanOut.start())
        .compose(v -> service.erasure().start()).onSuccess(c -> erasure = c)
        .onSuccess(c -> export = Exports.serve(vertx, FeedsEvents.DOMAIN, service.export(Exports.MAX_RECORDS)))
        .compose(v -> {
          bindings = new ServiceBindings(vertx);
          return Future.all(bindings.bind(FeedsService.class, service, FeedsService.ADDRESS),
              bindings.bind(FeedsInternal.class, service.internal(), FeedsInternal.ADDRESS));
        })
        .onSuccess(v -> {
          long every = settings.recountEverySeconds() * 1_000L;
          recountTimer = vertx.setPeriodic(every, every, id -> recount(service.recount()));
        });
  }

  /** One recount round at a time per node; a round that fails is logged and the next one goes on. */
  private void recount(CounterRecount recount) {
    if (recounting) {
      return;
    }
    recounting = true;
    recount.round().onComplete(ar -> {
      recounting = false;
      if (ar.failed()) {
        LOG.warn("A counter recount round failed (the next one retries): {}", ar.cause().toString());
      }
    });
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(celebrityTimer);
    if (recountTimer >= 0) {
      vertx.cancelTimer(recountTimer);
    }
    if (export != null) {
      export.unregister();
    }
    Future<Void> worker = (fanOut == null ? Future.<Void>succeededFuture() : fanOut.stop())
        .compose(v -> erasure == null ? Future.succeededFuture() : erasure.stop());
    return worker.compose(v -> bindings == null ? Future.succeededFuture() : bindings.unregister());
  }
}
