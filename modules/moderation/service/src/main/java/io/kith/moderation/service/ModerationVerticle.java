package io.kith.moderation.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.activities.api.ActivitiesService;
import io.kith.activities.api.ActivitiesInternal;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.FeedsService;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.MessagingService;
import io.kith.messaging.api.WhiteboardService;
import io.kith.moderation.api.ContentFiltersService;
import io.kith.moderation.api.ModerationEvents;
import io.kith.moderation.api.ModerationInternal;
import io.kith.moderation.api.ModerationService;
import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.events.ErasureSteps;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.Exports;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * Wires the moderation stores and service, makes the configured admins admins, and binds the service on
 * {@link ModerationService#ADDRESS}; erases what it holds of deleted accounts and serves its part of exports.
 */
public final class ModerationVerticle extends VerticleBase {

  private final Platform platform;
  private ServiceBindings bindings;
  private EventConsumer holdsConsumer;
  private EventConsumer erasure;
  private MessageConsumer<JsonObject> export;

  /** Creates the verticle on a node's platform. */
  public ModerationVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    ModerationSettings settings = ModerationSettings.from(platform.config().section("moderation"));
    Roles roles = new Roles(platform.mongo());
    ReportStore reports = new ReportStore(platform.mongo());
    AuditLog audit = new AuditLog(platform.mongo(), platform.ids());
    Targets targets = new Targets(AccountsService.proxy(vertx), FeedsService.proxy(vertx),
        MessagingService.proxy(vertx), WhiteboardService.proxy(vertx), ActivitiesService.proxy(vertx),
        FeedsInternal.proxy(vertx), MessagingInternal.proxy(vertx));
    Removals removals = new Removals(FeedsInternal.proxy(vertx), MessagingInternal.proxy(vertx),
        ActivitiesInternal.proxy(vertx), reports);
    ModerationServiceImpl service = new ModerationServiceImpl(settings, roles, reports, audit, targets,
        platform.ids(), new RateLimiter(platform.redis()), platform.events().publisher(ModerationEvents.DOMAIN),
        removals);
    SanctionStore sanctionStore = new SanctionStore(platform.mongo());
    AppealStore appealStore = new AppealStore(platform.mongo());
    Sanctions sanctions = new Sanctions(roles, reports, sanctionStore, audit, AccountsInternal.proxy(vertx),
        platform.ids(), platform.events().publisher(ModerationEvents.DOMAIN), settings.commentMax());
    service.with(new Overview(platform.mongo(), roles, AccountsService.proxy(vertx),
        AccountsInternal.proxy(vertx)));
    Holds holds = new Holds(platform.mongo(), reports, FeedsInternal.proxy(vertx), platform.ids(),
        platform.events().publisher(ModerationEvents.DOMAIN));
    service.with(holds);
    service.with(sanctions, new Appeals(roles, reports, sanctionStore, appealStore, sanctions, audit,
        AccountsInternal.proxy(vertx), platform.ids(), settings.commentMax(),
        platform.events().publisher(ModerationEvents.DOMAIN)));
    return reports.ensureIndexes()
        .compose(v -> sanctionStore.ensureIndexes())
        .compose(v -> appealStore.ensureIndexes())
        .compose(v -> audit.ensureIndexes())
        .compose(v -> roles.bootstrap(settings.admins()))
        .compose(v -> platform.events().consume(FeedsEvents.DOMAIN, Holds.GROUP,
            platform.events().once(Holds.GROUP, holds::handle)))
        .compose(consumer -> {
          holdsConsumer = consumer;
          return Future.succeededFuture();
        })
        .compose(v -> ErasureSteps.consume(platform.events(), AccountsEvents.DOMAIN, Erasure.GROUP,
            AccountsEvents.ACCOUNT_DELETED, e -> AccountDeleted.fromJson(e.payload()).userId(),
            new Erasure(platform, roles, reports, appealStore)::erase))
        .map(c -> erasure = c)
        .map(v -> export = Exports.serve(vertx, Erasure.DOMAIN,
            new AccountExport(platform.mongo(), Exports.MAX_RECORDS)))
        .compose(v -> {
          bindings = new ServiceBindings(vertx);
          return bindings.bind(ModerationService.class, service, ModerationService.ADDRESS);
        })
        .compose(v -> bindings.bind(ContentFiltersService.class,
            new ContentFiltersServiceImpl(vertx, platform.mongo(), roles, audit, platform.ids()),
            ContentFiltersService.ADDRESS))
        .compose(v -> bindings.bind(ModerationInternal.class, new ModerationInternalImpl(audit),
            ModerationInternal.ADDRESS));
  }

  @Override
  public Future<?> stop() {
    Future<Void> consumer = holdsConsumer == null ? Future.succeededFuture() : holdsConsumer.stop();
    Future<Void> erasing = erasure == null ? Future.succeededFuture() : erasure.stop();
    Future<Void> exporting = export == null ? Future.succeededFuture() : export.unregister();
    return Future.all(consumer, erasing, exporting).compose(v -> bindings == null ? Future.succeededFuture() : bindings.unregister());
  }
}
