package io.kith.notifications.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.feeds.api.FeedsInternal;
import io.kith.notifications.api.NotificationsInternal;
import io.kith.notifications.api.NotificationsService;
import io.kith.platform.Platform;
import io.kith.platform.events.Erasures;
import io.kith.platform.events.ErasureSteps;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.Exports;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceBinder;

/**
 * Wires the notification stores, service and producers, and binds the service on
 * {@link NotificationsService#ADDRESS}.
 */
public final class NotificationsVerticle extends VerticleBase {

  private final Platform platform;
  private MessageConsumer<JsonObject> binding;
  private MessageConsumer<JsonObject> internal;
  private Producers producers;
  private EventConsumer erasure;
  private MessageConsumer<JsonObject> export;

  /** Creates the verticle on a node's platform. */
  public NotificationsVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    NotificationsSettings settings = NotificationsSettings.from(platform.config().section("notifications"));
    NotificationRecords records = new NotificationRecords(platform.mongo());
    HotStore hot = new HotStore(platform.redis(), user -> records.recent(user, settings.maxPerUser()),
        settings.maxPerUser(), settings.types());
    FeedsInternal feeds = FeedsInternal.proxy(vertx);
    AccountsService accounts = AccountsService.proxy(vertx);
    Views views = new Views(accounts);
    Pushes pushes = new Pushes(platform);
    Changes changes = new Changes(platform, settings, records, hot, pushes);
    SystemChanges system = new SystemChanges(records, hot, changes, pushes);
    Delivery delivery = new Delivery(platform, records, hot, views, pushes, system);
    NotificationsServiceImpl service = new NotificationsServiceImpl(new Listing(hot, feeds, views, changes), hot,
        changes, new Preferences(records, settings.types()));
    SystemNotices notices = new SystemNotices(settings.customTypes(),
        new Notifier(delivery, records, RelationsInternal.proxy(vertx), feeds, new Erasures(platform.mongo())));
    producers = new Producers(platform, delivery, system, records, RelationsInternal.proxy(vertx), feeds,
        AccountsInternal.proxy(vertx));
    Erasure erasing = new Erasure(platform, records, hot, pushes);
    return records.ensureIndexes()
        .compose(v -> producers.start())
        .compose(v -> ErasureSteps.consume(platform.events(), AccountsEvents.DOMAIN, Erasure.GROUP,
            AccountsEvents.ACCOUNT_DELETED, e -> AccountDeleted.fromJson(e.payload()).userId(), erasing::erase))
        .map(c -> erasure = c)
        .map(v -> export = Exports.serve(vertx, Erasure.DOMAIN,
            new AccountExport(records, views, Exports.MAX_RECORDS)))
        .compose(v -> {
          binding = new ServiceBinder(vertx).setAddress(NotificationsService.ADDRESS)
              .register(NotificationsService.class, service);
          return binding.completion();
        })
        .compose(v -> {
          internal = new ServiceBinder(vertx).setAddress(NotificationsInternal.ADDRESS)
              .register(NotificationsInternal.class, notices);
          return internal.completion();
        });
  }

  @Override
  public Future<?> stop() {
    Future<Void> worker = producers == null ? Future.succeededFuture() : producers.stop();
    Future<Void> erasing = erasure == null ? Future.succeededFuture() : erasure.stop();
    Future<Void> exporting = export == null ? Future.succeededFuture() : export.unregister();
    Future<Void> internalBinding = internal == null ? Future.succeededFuture() : internal.unregister();
    return Future.all(worker, erasing, exporting, internalBinding)
        .compose(v -> binding == null ? Future.succeededFuture() : binding.unregister());
  }
}
