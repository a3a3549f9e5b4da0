package io.kith.notifications.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountExportReady;
import io.kith.notifications.api.Notifications;
import io.kith.notifications.service.Notifier.Notice;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Notifications from the accounts stream (consumer group {@value #GROUP}): {@code AccountExportReady} makes an
 * {@link Notifications#EXPORT_READY} for the export's owner, carrying {@code export} and {@code expires_at}, once per
 * export (key {@code export_ready:<export>}). It has no actor, so only a muted type stops it.
 */
final class ExportProducers {

  static final String GROUP = "notifications-exports";

  private final Notifier notifier;

  ExportProducers(Notifier notifier) {
    this.notifier = notifier;
  }

  Future<?> handle(DomainEvent e) {
    if (!AccountsEvents.ACCOUNT_EXPORT_READY.equals(e.type())) {
      return Future.succeededFuture();
    }
    AccountExportReady ready = AccountExportReady.fromJson(e.payload());
    if (ready.userId() <= 0 || ready.exportId() <= 0) {
      return Payloads.skipped(e, "needs user_id and export_id");
    }
    return notifier.notify(new Notice(ready.userId(), Notifications.EXPORT_READY, "export_ready:" + ready.exportId(),
        null, new JsonObject().put("export", ready.exportId()).put("expires_at", ready.expiresAt())));
  }
}
