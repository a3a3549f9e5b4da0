package io.kith.relations.service;

import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.events.Exports;
import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.kith.relations.api.UserDirectory;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Wires the relations stores and service and binds the service on {@link RelationsService#ADDRESS}, its internal
 * operations on {@link RelationsInternal#ADDRESS}; serves relations' part of account exports and erases deleted
 * accounts' relations.
 */
public final class RelationsVerticle extends VerticleBase {

  /** Most members loaded into one hot set (inbound sets such as blocked-by can be larger than outgoing limits). */
  static final int HOT_SET_MAX = 100_000;

  private final Platform platform;
  private ServiceBindings bindings;
  private Erasure erasure;
  private MessageConsumer<JsonObject> export;

  /** Creates the verticle on a node's platform. */
  public RelationsVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    EdgeStore edges = new EdgeStore(platform.mongo(), platform.ids());
    GroupStore groups = new GroupStore(platform.mongo(), platform.ids());
    TagStore tags = new TagStore(platform.mongo(), platform.ids());
    HotSets sets = new HotSets(platform.redis(), (set, user) -> load(edges, set, user));
    RelationsServiceImpl service = new RelationsServiceImpl(platform, edges, sets,
        new FollowerLists(platform.redis(), edges), groups, tags, UserDirectory.proxy(vertx));
    return edges.ensureIndexes()
        .compose(v -> groups.ensureIndexes())
        .compose(v -> tags.ensureIndexes())
        .compose(v -> {
          bindings = new ServiceBindings(vertx);
          return Future.all(bindings.bind(RelationsService.class, service, RelationsService.ADDRESS),
              bindings.bind(RelationsInternal.class, service.internal(), RelationsInternal.ADDRESS));
        })
        .compose(v -> {
          export = Exports.serve(vertx, RelationsEvents.DOMAIN,
              new Export(edges, groups, tags, UserDirectory.proxy(vertx), Exports.MAX_RECORDS));
          erasure = new Erasure(platform, edges, groups, tags, sets);
          return Future.all(export.completion(), erasure.start());
        });
  }

  /** The complete members of one of a user's hot sets, from MongoDB (the sets' loader). */
  static Future<List<Long>> load(EdgeStore edges, String set, long user) {
    return switch (set) {
      case HotSets.FOLLOWING -> edges.targets(EdgeStore.FOLLOW, user, HOT_SET_MAX);
      case HotSets.FRIENDS -> edges.targets(EdgeStore.FRIEND, user, HOT_SET_MAX);
      case HotSets.BLOCKS -> edges.targets(EdgeStore.BLOCK, user, HOT_SET_MAX);
      case HotSets.BLOCKED_BY -> edges.sources(EdgeStore.BLOCK, user, HOT_SET_MAX);
      case HotSets.MUTES -> edges.targets(EdgeStore.MUTE, user, HOT_SET_MAX);
      case HotSets.HIDES -> edges.targets(EdgeStore.HIDE, user, HOT_SET_MAX);
      case HotSets.HIDDEN_BY -> edges.sources(EdgeStore.HIDE, user, HOT_SET_MAX);
      default -> Future.failedFuture(new IllegalArgumentException("unknown hot set " + set));
    };
  }

  @Override
  public Future<?> stop() {
    return Future.all(erasure == null ? Future.succeededFuture() : erasure.stop(),
        export == null ? Future.succeededFuture() : export.unregister(),
        bindings == null ? Future.succeededFuture() : bindings.unregister());
  }
}
