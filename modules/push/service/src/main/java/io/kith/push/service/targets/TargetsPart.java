package io.kith.push.service.targets;

import io.kith.platform.Platform;
import io.kith.platform.events.Exports;
import io.kith.push.api.PushTargetsService;
import io.kith.push.service.delivery.Preferences;
import io.vertx.core.Future;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceBinder;

/**
 * The push-targets part of the push module: its store and indexes, the service bound at
 * {@link PushTargetsService#ADDRESS}, the removal of ended sessions' targets, the erasure of deleted accounts', and
 * push's part of account exports.
 */
public final class TargetsPart {

  private final Platform platform;
  private final TargetRecords records;
  private final SessionEnds sessionEnds;
  private final TargetsErasure erasure;
  private final Preferences preferences;
  private final TargetsSettings settings;
  private MessageConsumer<JsonObject> binding;
  private MessageConsumer<JsonObject> export;

  /** Builds the part on a node's platform; the service answers push preferences from {@code preferences}. */
  public TargetsPart(Platform platform, Preferences preferences) {
    this.platform = platform;
    this.preferences = preferences;
    this.settings = TargetsSettings.from(platform.config().section("push"));
    this.records = new TargetRecords(platform.mongo());
    this.sessionEnds = new SessionEnds(records);
    this.erasure = new TargetsErasure(platform, records, preferences);
  }

  /** The store of targets (delivery reads and prunes it). */
  public TargetRecords records() {
    return records;
  }

  /** Most targets one user holds ({@code push.max-targets-per-user}). */
  public int maxTargets() {
    return settings.maxPerUser();
  }

  /** Declares the indexes, listens for ended sessions, serves push's export part and binds the service. */
  public Future<Void> start() {
    Targets targets = new Targets(records, platform.ids(), settings);
    return records.ensureIndexes()
        .compose(v -> sessionEnds.start(platform.vertx()))
        .compose(v -> erasure.start())
        .compose(v -> {
          export = Exports.serve(platform.vertx(), TargetsExport.DOMAIN, new TargetsExport(records, preferences));
          return export.completion();
        })
        .compose(v -> {
          binding = new ServiceBinder(platform.vertx()).setAddress(PushTargetsService.ADDRESS)
              .register(PushTargetsService.class, new PushTargetsServiceImpl(targets, preferences));
          return binding.completion();
        });
  }

  /** Unbinds the service and stops listening. */
  public Future<Void> stop() {
    Future<Void> unbound = binding == null ? Future.succeededFuture() : binding.unregister();
    return unbound.eventually(() -> export == null ? Future.succeededFuture() : export.unregister())
        .eventually(sessionEnds::stop).eventually(erasure::stop);
  }
}
