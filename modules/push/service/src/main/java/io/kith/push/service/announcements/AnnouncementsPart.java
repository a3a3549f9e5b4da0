package io.kith.push.service.announcements;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.notifications.api.NotificationsInternal;
import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.push.api.SystemNotificationsService;
import io.vertx.core.Future;

/**
 * The system notifications part of the push module: binds {@link SystemNotificationsService} and runs the
 * announcement worker.
 */
public final class AnnouncementsPart {

  private final Platform platform;
  private ServiceBindings bindings;
  private AnnouncementWorker worker;

  /** The part on a node's platform. */
  public AnnouncementsPart(Platform platform) {
    this.platform = platform;
  }

  /** Binds the service and starts the worker. */
  public Future<Void> start() {
    AnnouncementsSettings settings = AnnouncementsSettings.from(platform.config().section("push"));
    AnnouncementStore store = new AnnouncementStore(platform.mongo());
    NotificationsInternal notifications = NotificationsInternal.proxy(platform.vertx());
    SystemNotificationsImpl service = new SystemNotificationsImpl(notifications,
        AccountsService.proxy(platform.vertx()), store, platform.ids());
    worker = new AnnouncementWorker(platform.vertx(), store, AccountsInternal.proxy(platform.vertx()), notifications,
        settings);
    bindings = new ServiceBindings(platform.vertx());
    return bindings.bind(SystemNotificationsService.class, service, SystemNotificationsService.ADDRESS)
        .onSuccess(v -> worker.start());
  }

  /** Stops the worker and unbinds the service. */
  public Future<Void> stop() {
    if (worker != null) {
      worker.stop();
    }
    return bindings == null ? Future.succeededFuture() : bindings.unregister();
  }
}
