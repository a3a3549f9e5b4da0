package io.kith.accounts.service;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Map;

/** Tells a user by mail that their export is ready (the verified email only; nothing without one). */
final class ExportMail {

  private static final Logger LOG = LoggerFactory.getLogger(ExportMail.class);

  private final AccountStore store;
  private final Messenger messenger;

  ExportMail(AccountStore store, Messenger messenger) {
    this.store = store;
    this.messenger = messenger;
  }

  /** Sends {@code export_ready} in the background; a failure is logged (the notification still tells the user). */
  void tell(long user, long expires) {
    store.byId(user).onSuccess(account -> {
      String email = account == null ? null : account.getString("email");
      if (email != null && !Deletion.marked(account)) {
        messenger.send("email", email, "export_ready", Messages.locale(account.getString("locale"), null),
            Map.of("username", account.getString("username", ""), "date", Instant.ofEpochMilli(expires).toString()));
      }
    }).onFailure(e -> LOG.warn("Reading user {} to mail the ready export failed: {}", user, e.toString()));
  }
}
